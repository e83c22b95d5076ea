// Reading clips back through libavformat (demux) and libavcodec (decode), behind clip_probe.h.

#include "clip_probe.h"

#include <stdio.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/parseutils.h>

static const AVRational probe_microseconds = {1, 1000000};

static void probe_describe(char *error, size_t error_size, const char *what, int code) {
    if (error == NULL || error_size == 0) return;
    char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, reason, sizeof reason);
    snprintf(error, error_size, "%s: %s", what, reason);
}

/// Opens `path` and finds its first video stream; returns its index or a negative code.
static int open_video(const char *path, AVFormatContext **format, char *error, size_t error_size) {
    av_log_set_level(AV_LOG_FATAL);
    int code = avformat_open_input(format, path, NULL, NULL);
    if (code < 0) {
        probe_describe(error, error_size, "not a movie libavformat can open", code);
        return code;
    }
    code = avformat_find_stream_info(*format, NULL);
    if (code < 0) {
        probe_describe(error, error_size, "no stream information", code);
        avformat_close_input(format);
        return code;
    }
    int stream = av_find_best_stream(*format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (stream < 0) {
        snprintf(error, error_size, "no video stream");
        avformat_close_input(format);
        return stream;
    }
    return stream;
}

/// Copies the container tag `key` (or `fallback`) into `out`; "" when neither is there.
static void copy_tag(const AVDictionary *tags, const char *key, const char *fallback, char *out, size_t size) {
    const AVDictionaryEntry *entry = av_dict_get(tags, key, NULL, 0);
    if (entry == NULL && fallback != NULL) entry = av_dict_get(tags, fallback, NULL, 0);
    snprintf(out, size, "%s", entry != NULL ? entry->value : "");
}

int ph_clip_probe(const char *path, ph_clip_info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    AVFormatContext *format = NULL;
    int index = open_video(path, &format, error, error_size);
    if (index < 0) return index;
    AVStream *stream = format->streams[index];
    AVCodecParameters *parameters = stream->codecpar;
    info->width = parameters->width;
    info->height = parameters->height;
    // r_frame_rate is the exact rate of a constant-rate stream (15/1), avg_frame_rate an estimate.
    AVRational rate = stream->r_frame_rate.num > 0 ? stream->r_frame_rate : stream->avg_frame_rate;
    info->fps_num = rate.num;
    info->fps_den = rate.den;
    snprintf(info->codec, sizeof info->codec, "%s", avcodec_get_name(parameters->codec_id));
    const AVDictionaryEntry *created = av_dict_get(format->metadata, "creation_time", NULL, 0);
    int64_t when = 0;
    if (created != NULL && av_parse_time(&when, created->value, 0) == 0 && when > 0) info->creation_us = when;
    copy_tag(format->metadata, "com.apple.quicktime.make", "make", info->make, sizeof info->make);
    copy_tag(format->metadata, "com.apple.quicktime.model", "model", info->model, sizeof info->model);
    copy_tag(
        format->metadata, "com.apple.quicktime.location.ISO6709", "location", info->location,
        sizeof info->location);
    copy_tag(format->metadata, "org.pinhole.clock-trust", NULL, info->clock_trust, sizeof info->clock_trust);
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix != NULL) {
        double degrees = -av_display_rotation_get((const int32_t *)matrix);
        if (degrees < 0) degrees += 360;
        info->rotation_degrees = degrees;
    }
    AVPacket *packet = av_packet_alloc();
    int64_t first = AV_NOPTS_VALUE, end = AV_NOPTS_VALUE;
    int code = 0;
    while (packet != NULL && (code = av_read_frame(format, packet)) >= 0) {
        if (packet->stream_index == index && packet->pts != AV_NOPTS_VALUE) {
            info->frame_count += 1;
            if (first == AV_NOPTS_VALUE || packet->pts < first) first = packet->pts;
            int64_t stop = packet->pts + (packet->duration > 0 ? packet->duration : 0);
            if (end == AV_NOPTS_VALUE || stop > end) end = stop;
        }
        av_packet_unref(packet);
    }
    av_packet_free(&packet);
    avformat_close_input(&format);
    if (code < 0 && code != AVERROR_EOF) {
        probe_describe(error, error_size, "reading the movie failed", code);
        return code;
    }
    if (info->frame_count == 0) {
        snprintf(error, error_size, "the movie holds no frame");
        return -1;
    }
    // Frames × frame period when the rate is known (the last packet's duration is often
    // missing), else the span of the timestamps.
    if (rate.num > 0 && rate.den > 0)
        info->duration_us = av_rescale(info->frame_count, (int64_t)rate.den * 1000000, rate.num);
    else
        info->duration_us = av_rescale_q(end - first, stream->time_base, probe_microseconds);
    return 0;
}

/// Copies a decoded 4:2:0 frame into tightly packed planes.
static int copy_frame(const AVFrame *frame, uint8_t *yuv, size_t yuv_size, int *width, int *height) {
    if (frame->format != AV_PIX_FMT_YUV420P && frame->format != AV_PIX_FMT_YUVJ420P) return -1;
    int w = frame->width, h = frame->height, cw = (w + 1) / 2, ch = (h + 1) / 2;
    *width = w;
    *height = h;
    if ((size_t)w * h + 2 * (size_t)cw * ch > yuv_size) return -2;
    uint8_t *out = yuv;
    for (int plane = 0; plane < 3; plane++) {
        int pw = plane == 0 ? w : cw, ph = plane == 0 ? h : ch;
        for (int row = 0; row < ph; row++) {
            memcpy(out, frame->data[plane] + (ptrdiff_t)row * frame->linesize[plane], (size_t)pw);
            out += pw;
        }
    }
    return 0;
}

int ph_clip_decode_frame(
    const char *path, int64_t at_us, uint8_t *yuv, size_t yuv_size, int *width, int *height,
    char *error, size_t error_size) {
    AVFormatContext *format = NULL;
    int index = open_video(path, &format, error, error_size);
    if (index < 0) return index;
    AVStream *stream = format->streams[index];
    const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext *context = codec ? avcodec_alloc_context3(codec) : NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc(), *kept = av_frame_alloc();
    int result = -1, have = 0, done = 0;
    if (context == NULL || packet == NULL || frame == NULL || kept == NULL) {
        snprintf(error, error_size, codec ? "out of memory" : "libavcodec has no decoder for this codec");
        goto out;
    }
    int code = avcodec_parameters_to_context(context, stream->codecpar);
    if (code >= 0) code = avcodec_open2(context, codec, NULL);
    if (code < 0) {
        probe_describe(error, error_size, "cannot open the decoder", code);
        goto out;
    }
    int64_t first = AV_NOPTS_VALUE;
    int flushing = 0;
    while (!done) {
        if (!flushing) {
            code = av_read_frame(format, packet);
            if (code < 0) {
                flushing = 1;
                avcodec_send_packet(context, NULL);
            } else {
                if (packet->stream_index == index) avcodec_send_packet(context, packet);
                av_packet_unref(packet);
            }
        }
        while ((code = avcodec_receive_frame(context, frame)) >= 0) {
            int64_t pts = frame->best_effort_timestamp;
            if (first == AV_NOPTS_VALUE) first = pts;
            av_frame_unref(kept);
            av_frame_move_ref(kept, frame);
            have = 1;
            if (av_rescale_q(pts - first, stream->time_base, probe_microseconds) >= at_us) {
                done = 1;
                break;
            }
        }
        if (code == AVERROR_EOF) break;
        if (code < 0 && code != AVERROR(EAGAIN)) {
            probe_describe(error, error_size, "decoding failed", code);
            goto out;
        }
    }
    if (!have) {
        snprintf(error, error_size, "no frame decodes");
        goto out;
    }
    result = copy_frame(kept, yuv, yuv_size, width, height);
    if (result == -1) snprintf(error, error_size, "the frames are not planar 4:2:0");
    if (result == -2) snprintf(error, error_size, "the frame is larger than the buffer");
out:
    av_frame_free(&frame);
    av_frame_free(&kept);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    avformat_close_input(&format);
    return result;
}
