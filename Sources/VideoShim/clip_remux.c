// Rewriting a clip into another container through libavformat (stream copy), behind clip_remux.h.

#include "clip_remux.h"

#include <errno.h>
#include <stdio.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>

static void remux_describe(char *error, size_t error_size, const char *what, int code) {
    if (error == NULL || error_size == 0) return;
    char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, reason, sizeof reason);
    snprintf(error, error_size, "%s: %s", what, reason);
}

/// Whether `packet` was read whole from a file of `file_size` bytes cut short: not flagged corrupt,
/// and ending before the end of the file (a sample that reaches the end may have lost its tail).
static int whole_before_cut(const AVPacket *packet, int64_t file_size) {
    if (packet->flags & AV_PKT_FLAG_CORRUPT) return 0;
    return packet->pos >= 0 && file_size > 0 && packet->pos + packet->size < file_size;
}

/// Copies `in_path`'s video packets into `out_path`; with `whole_only`, stops at the first packet
/// not read whole (a file cut short) and fails with AVERROR(ENODATA) when none was.
static int copy_clip(
    const char *in_path, const char *out_path, const char *format_name, const ph_metadata_entry *metadata,
    int metadata_count, int whole_only, int *packets_copied, char *error, size_t error_size) {
    av_log_set_level(AV_LOG_FATAL);
    AVFormatContext *input = NULL, *output = NULL;
    AVPacket *packet = NULL;
    int copied = 0;
    int code = avformat_open_input(&input, in_path, NULL, NULL);
    if (code < 0) {
        remux_describe(error, error_size, "not a movie libavformat can open", code);
        return whole_only ? AVERROR(ENODATA) : code;
    }
    if ((code = avformat_find_stream_info(input, NULL)) < 0) {
        remux_describe(error, error_size, "no stream information", code);
        if (whole_only) code = AVERROR(ENODATA);
        goto out;
    }
    int index = av_find_best_stream(input, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (index < 0) {
        snprintf(error, error_size, "no video stream");
        code = whole_only ? AVERROR(ENODATA) : index;
        goto out;
    }
    if ((code = avformat_alloc_output_context2(&output, NULL, format_name, out_path)) < 0) {
        remux_describe(error, error_size, "cannot make the output container", code);
        goto out;
    }
    AVStream *source = input->streams[index];
    AVStream *stream = avformat_new_stream(output, NULL);
    if (stream == NULL || (code = avcodec_parameters_copy(stream->codecpar, source->codecpar)) < 0) {
        snprintf(error, error_size, "cannot copy the video stream");
        code = code < 0 ? code : AVERROR(ENOMEM);
        goto out;
    }
    stream->codecpar->codec_tag = 0;
    stream->time_base = source->time_base;
    stream->avg_frame_rate = source->avg_frame_rate;
    stream->r_frame_rate = source->r_frame_rate;
    size_t matrix_size = 0;
    const uint8_t *matrix = av_stream_get_side_data(source, AV_PKT_DATA_DISPLAYMATRIX, &matrix_size);
    if (matrix != NULL) {
        uint8_t *copy = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, matrix_size);
        if (copy != NULL) memcpy(copy, matrix, matrix_size);
    }
    av_dict_copy(&output->metadata, input->metadata, 0);
    // libavformat's own tags from reading (major_brand …) describe the input, not this file.
    av_dict_set(&output->metadata, "major_brand", NULL, 0);
    av_dict_set(&output->metadata, "minor_version", NULL, 0);
    av_dict_set(&output->metadata, "compatible_brands", NULL, 0);
    av_dict_set(&output->metadata, "encoder", NULL, 0);
    for (int i = 0; i < metadata_count; i++) av_dict_set(&output->metadata, metadata[i].key, metadata[i].value, 0);
    if ((code = avio_open(&output->pb, out_path, AVIO_FLAG_WRITE)) < 0) {
        remux_describe(error, error_size, "cannot create the output file", code);
        goto out;
    }
    AVDictionary *options = NULL;
    av_dict_set(&options, "movflags", "faststart+use_metadata_tags", 0);
    code = avformat_write_header(output, &options);
    av_dict_free(&options);
    if (code < 0) {
        remux_describe(error, error_size, "cannot write the container's header", code);
        goto out;
    }
    int64_t file_size = whole_only ? avio_size(input->pb) : 0;
    packet = av_packet_alloc();
    while (packet != NULL && (code = av_read_frame(input, packet)) >= 0) {
        if (packet->stream_index == index) {
            if (whole_only && (!whole_before_cut(packet, file_size)
                                  || (copied == 0 && !(packet->flags & AV_PKT_FLAG_KEY)))) {
                av_packet_unref(packet);
                code = AVERROR_EOF;
                break;
            }
            packet->stream_index = 0;
            av_packet_rescale_ts(packet, source->time_base, stream->time_base);
            packet->pos = -1;
            if ((code = av_interleaved_write_frame(output, packet)) < 0) {
                remux_describe(error, error_size, "cannot write a packet", code);
                goto out;
            }
            copied += 1;
        }
        av_packet_unref(packet);
    }
    if (code < 0 && code != AVERROR_EOF && !(whole_only && copied > 0)) {
        remux_describe(error, error_size, "reading the movie failed", code);
        goto out;
    }
    if (whole_only && copied == 0) {
        snprintf(error, error_size, "no whole frame before the cut");
        code = AVERROR(ENODATA);
        goto out;
    }
    if ((code = av_write_trailer(output)) < 0) remux_describe(error, error_size, "cannot finish the container", code);
out:
    if (packets_copied != NULL) *packets_copied = copied;
    av_packet_free(&packet);
    if (output != NULL) {
        if (output->pb != NULL) avio_closep(&output->pb);
        avformat_free_context(output);
    }
    avformat_close_input(&input);
    return code < 0 ? code : 0;
}

int ph_clip_remux(
    const char *in_path, const char *out_path, const char *format_name, const ph_metadata_entry *metadata,
    int metadata_count, char *error, size_t error_size) {
    return copy_clip(in_path, out_path, format_name, metadata, metadata_count, 0, NULL, error, error_size);
}

int ph_clip_salvage(const char *in_path, const char *out_path, int *frames, char *error, size_t error_size) {
    int code = copy_clip(in_path, out_path, "mp4", NULL, 0, 1, frames, error, error_size);
    return code == AVERROR(ENODATA) ? 1 : code;
}
