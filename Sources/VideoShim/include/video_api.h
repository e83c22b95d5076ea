// The video shim's functions as one table: the one entry point of libPinholeVideo.so, found with dlsym.
#ifndef PINHOLE_VIDEO_API_H
#define PINHOLE_VIDEO_API_H

#include "clip_probe.h"
#include "clip_remux.h"
#include "video_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The functions of video_shim.h, clip_probe.h and clip_remux.h as one table. The shim is a
 * shared object of its own (libPinholeVideo.so, which links libavcodec, libavformat and
 * libavutil) that `pinhole` loads with dlopen when a recording, a clip read or `pinhole doctor`
 * first needs it, so that a process that never touches video maps none of libav (nor the ~130
 * shared objects it pulls in). A function added to those headers needs its field here (at the
 * end) and its entry in video_api.c.
 */
typedef struct {
    int (*encoder_available)(const char *name);
    ph_encoder *(*encoder_open)(const ph_encoder_config *config, char *error, size_t error_size);
    int (*encoder_send)(
        ph_encoder *encoder, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
        const uint8_t *v, int v_stride, int64_t pts_us, int keyframe, char *error, size_t error_size);
    int (*encoder_receive)(ph_encoder *encoder, ph_packet *packet, char *error, size_t error_size);
    const uint8_t *(*encoder_extradata)(ph_encoder *encoder, int *size);
    void (*encoder_close)(ph_encoder *encoder);
    ph_writer *(*writer_open)(
        const ph_writer_config *config, ph_write_function write, void *opaque, char *error,
        size_t error_size);
    int (*writer_write)(
        ph_writer *writer, const uint8_t *data, int size, int64_t pts_us, int64_t dts_us, int keyframe,
        char *error, size_t error_size);
    int (*writer_finish)(ph_writer *writer, char *error, size_t error_size);
    void (*writer_abort)(ph_writer *writer);
    int (*clip_probe)(const char *path, ph_clip_info *info, char *error, size_t error_size);
    int (*clip_decode_frame)(
        const char *path, int64_t at_us, uint8_t *yuv, size_t yuv_size, int *width, int *height,
        char *error, size_t error_size);
    int (*clip_remux)(
        const char *in_path, const char *out_path, const char *format_name, const ph_metadata_entry *metadata,
        int metadata_count, char *error, size_t error_size);
    /** libavcodec's version string (av_version_info), for `pinhole doctor`. */
    const char *(*libav_version)(void);
    int (*clip_salvage)(const char *in_path, const char *out_path, int *frames, char *error, size_t error_size);
} ph_video_api;

/** The name `pinhole` looks up with dlsym. */
#define PH_VIDEO_API_SYMBOL "ph_video_get_api"

/** The shim's function table (static; never freed). */
const ph_video_api *ph_video_get_api(void);

#ifdef __cplusplus
}
#endif

#endif
