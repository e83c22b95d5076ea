// A plain C interface to FFmpeg's libavcodec (H.264 encode) and libavformat (fragmented MP4 mux).
// The only code that touches libav; Swift calls these functions through PinholeLibav.
#ifndef PINHOLE_VIDEO_SHIM_H
#define PINHOLE_VIDEO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// libx264's options besides preset superfast and tune zerolatency (its `x264-params`): a
/// keyframe exactly every gop frames (scenecut=0), so fragments and the pre-roll ring line up;
/// and the Raspberry Pi camera app's software path (rpicam-apps on a Pi 5): full-pel motion
/// search only (subme=0: no half-pel planes for the reference frames, about 14 MB less at
/// 1080p), diamond search over 16 pixels, no chroma motion search, no weighted prediction, no
/// mixed references. Chosen with `pinhole-bench video` (docs/BENCHMARKS.md: CPU, memory and
/// SSIM/PSNR at the same bit rate against scenecut=0 alone).
#define PH_X264_PARAMS "scenecut=0:subme=0:chroma-me=0:me=dia:merange=16:weightp=0:mixed-refs=0"

/// Whether libavcodec has an encoder of this name (e.g. "libx264", "h264_v4l2m2m").
int ph_video_encoder_available(const char *name);

/// What the encoder is asked for. Timestamps are in microseconds.
typedef struct {
    const char *codec_name; ///< "libx264" or "h264_v4l2m2m"
    int width;              ///< pixels, even
    int height;             ///< pixels, even
    int fps;                ///< frames per second
    int64_t bit_rate;       ///< bits per second
    int gop;                ///< frames from one keyframe to the next
    int threads;            ///< encoder threads (0: the codec's choice)
    int64_t rate_buffer;    ///< bits: rc_max_rate = bit_rate with this rc_buffer_size (0: none)
} ph_encoder_config;

typedef struct ph_encoder ph_encoder;

/// One encoded packet, valid until the next call on its encoder.
typedef struct {
    const uint8_t *data;
    int size;
    int64_t pts_us;
    int64_t dts_us;
    int keyframe;
} ph_packet;

/// Opens an encoder for planar YUV 4:2:0 frames. NULL on failure, `error` says why.
ph_encoder *ph_encoder_open(const ph_encoder_config *config, char *error, size_t error_size);

/// Sends one frame (planes Y, U, V with their strides) at `pts_us`, a keyframe when `keyframe`
/// is set; NULL `y` flushes the encoder.
/// 0 on success, a negative libav error otherwise (`error` says why).
int ph_encoder_send(
    ph_encoder *encoder, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
    const uint8_t *v, int v_stride, int64_t pts_us, int keyframe, char *error, size_t error_size);

/// Takes the next encoded packet: 1 with a packet, 0 when the encoder needs more input,
/// -1 when a flushed encoder has no more, below -1 on failure (`error` says why).
int ph_encoder_receive(ph_encoder *encoder, ph_packet *packet, char *error, size_t error_size);

/// The codec's global header (SPS and PPS in avcC form), after the first packet for some codecs.
const uint8_t *ph_encoder_extradata(ph_encoder *encoder, int *size);

/// Frees the encoder.
void ph_encoder_close(ph_encoder *encoder);

/// Receives the container's bytes in order; returns 0, or -1 when they cannot be kept.
typedef int (*ph_write_function)(void *opaque, const uint8_t *bytes, int size);

/// One metadata key and value of the movie (written as an mdta key).
typedef struct {
    const char *key;
    const char *value;
} ph_metadata_entry;

/// What the MP4 writer is asked for.
typedef struct {
    int width;
    int height;
    int fps;
    const uint8_t *extradata; ///< SPS/PPS from the encoder
    int extradata_size;
    double rotation_degrees; ///< clockwise rotation a player applies (display matrix)
    const ph_metadata_entry *metadata;
    int metadata_count;
} ph_writer_config;

typedef struct ph_writer ph_writer;

/// Starts a fragmented MP4 (a fragment starts at each keyframe) whose bytes go to `write`.
/// NULL on failure, `error` says why.
ph_writer *ph_writer_open(
    const ph_writer_config *config, ph_write_function write, void *opaque, char *error,
    size_t error_size);

/// Writes one H.264 packet. Every byte of the fragments completed so far has reached `write`
/// when it returns. 0 on success, negative otherwise (`error` says why).
int ph_writer_write(
    ph_writer *writer, const uint8_t *data, int size, int64_t pts_us, int64_t dts_us, int keyframe,
    char *error, size_t error_size);

/// Writes the last fragment and the trailer, then frees the writer. 0 on success.
int ph_writer_finish(ph_writer *writer, char *error, size_t error_size);

/// Frees the writer without a trailer (the bytes written so far stay as they are).
void ph_writer_abort(ph_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
