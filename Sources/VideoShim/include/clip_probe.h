// A plain C interface to FFmpeg's libavformat/libavcodec for reading clips back: what a movie
// file holds (size, rate, frames, duration) and one decoded frame of it (the poster).
#ifndef PINHOLE_CLIP_PROBE_H
#define PINHOLE_CLIP_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a movie file holds, read by demuxing every packet of its first video stream.
typedef struct {
    int width;              ///< pixels
    int height;             ///< pixels
    int fps_num;            ///< frame rate numerator (0 when unknown)
    int fps_den;            ///< frame rate denominator
    int64_t frame_count;    ///< video packets (frames: the H.264 we write has no B-frames)
    int64_t duration_us;    ///< frames × frame period (the timestamps' span when the rate is unknown)
    double rotation_degrees;///< clockwise rotation of the display matrix (0 when none)
    int64_t creation_us;    ///< creation_time, microseconds since 1970 (0 when the file has none)
    char codec[32];         ///< the codec's short name ("h264")
    char make[64];          ///< com.apple.quicktime.make or make ("" when none)
    char model[64];         ///< com.apple.quicktime.model or model ("" when none)
    char location[64];      ///< com.apple.quicktime.location.ISO6709 or location ("" when none)
    char clock_trust[32];   ///< org.pinhole.clock-trust ("" when none)
} ph_clip_info;

/// Reads `path`: 0 and `info` filled, or negative with `error` saying why (not a movie, no
/// video stream, no frame).
int ph_clip_probe(const char *path, ph_clip_info *info, char *error, size_t error_size);

/// Decodes the first frame whose time from the clip's start is at least `at_us` (the last
/// frame when the clip is shorter) into `yuv`: planar 4:2:0, Y then U then V, each plane tightly
/// packed, `width`×`height` for Y. `yuv_size` must hold them: -2 when it does not, with `width`
/// and `height` set to the frame's size. 0 on success, negative otherwise.
int ph_clip_decode_frame(
    const char *path, int64_t at_us, uint8_t *yuv, size_t yuv_size, int *width, int *height,
    char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
