// H.264 encoding (libavcodec) and fragmented MP4 writing (libavformat) behind video_shim.h.

#include "video_shim.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>

static const AVRational microseconds = {1, 1000000};

// libav logs to stderr by default; Pinhole reports failures itself, in its own words.
static void quiet_libav(void) { av_log_set_level(AV_LOG_FATAL); }

static void describe(char *error, size_t error_size, const char *what, int code) {
    if (error == NULL || error_size == 0) return;
    char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, reason, sizeof reason);
    snprintf(error, error_size, "%s: %s", what, reason);
}

int ph_video_encoder_available(const char *name) {
    return avcodec_find_encoder_by_name(name) != NULL;
}

struct ph_encoder {
    AVCodecContext *context;
    AVFrame *frame;
    AVPacket *packet;
    // Whether frames are handed over as read-only buffers over the caller's planes (no copy):
    // only for an encoder that has taken what it needs when avcodec_send_frame returns.
    int borrow_input;
    // Set by the borrowed buffer's free callback: libavcodec let go of the caller's planes.
    int borrowed_released;
};

static void release_borrowed(void *opaque, uint8_t *data) {
    (void)data;
    ((ph_encoder *)opaque)->borrowed_released = 1;
}

void ph_encoder_close(ph_encoder *encoder) {
    if (encoder == NULL) return;
    avcodec_free_context(&encoder->context);
    av_frame_free(&encoder->frame);
    av_packet_free(&encoder->packet);
    av_free(encoder);
}

ph_encoder *ph_encoder_open(const ph_encoder_config *config, char *error, size_t error_size) {
    quiet_libav();
    const AVCodec *codec = avcodec_find_encoder_by_name(config->codec_name);
    if (codec == NULL) {
        snprintf(error, error_size, "libavcodec has no encoder named %s", config->codec_name);
        return NULL;
    }
    ph_encoder *encoder = av_mallocz(sizeof *encoder);
    if (encoder == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    encoder->context = avcodec_alloc_context3(codec);
    encoder->frame = av_frame_alloc();
    encoder->packet = av_packet_alloc();
    if (encoder->context == NULL || encoder->frame == NULL || encoder->packet == NULL) {
        snprintf(error, error_size, "out of memory");
        ph_encoder_close(encoder);
        return NULL;
    }
    AVCodecContext *context = encoder->context;
    context->width = config->width;
    context->height = config->height;
    context->pix_fmt = AV_PIX_FMT_YUV420P;
    context->time_base = microseconds;
    context->framerate = (AVRational){config->fps, 1};
    context->bit_rate = config->bit_rate;
    context->gop_size = config->gop;
    context->max_b_frames = 0;
    context->thread_count = config->threads;
    if (config->rate_buffer > 0) {
        // A pre-roll ring's bound: never above the bit rate beyond this buffer (libx264's VBV),
        // the stream's first seconds included.
        context->rc_max_rate = config->bit_rate;
        context->rc_buffer_size = (int)config->rate_buffer;
    }
    context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (strcmp(config->codec_name, "libx264") == 0) {
        // rpicam-apps' software choice: fast enough for 1080p30 on a Pi 5.
        av_opt_set(context->priv_data, "preset", "superfast", 0);
        // No lookahead and slice threads instead of frame threads: a frame's packet comes out
        // of the same send (start latency and the pre-roll ring's edge are one frame), and
        // libx264 holds two reference frames instead of one set a frame thread (about 45 MB
        // instead of 95 MB at 1080p on two cores).
        av_opt_set(context->priv_data, "tune", "zerolatency", 0);
        // PH_X264_PARAMS (video_shim.h says what and why; the bench's ffmpeg reference uses it).
        av_opt_set(context->priv_data, "x264-params", PH_X264_PARAMS, 0);
        // libavcodec's libx264 wrapper encodes inside avcodec_send_frame (an encode2 codec,
        // with every packet drained before the next send), and x264_encoder_encode copies the
        // picture into its own frame: the caller's planes need no copy of libavcodec's (a
        // 3.1 MB allocation a 1080p frame, and a memcpy).
        encoder->borrow_input = 1;
        // libx264 asks for transparent huge pages on each buffer of 1.75 MB or more
        // (madvise MADV_HUGEPAGE): its 8 MB bitstream buffer, of which a frame writes a few
        // hundred KB, and its padded planes are then resident in whole 2 MB pages; about 7 MB
        // at 1080p (issue 21's memory figure). This is the process's setting, inherited by
        // its children; nothing else in Pinhole asks for huge pages.
        prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    int status = avcodec_open2(context, codec, NULL);
    if (status < 0) {
        describe(error, error_size, config->codec_name, status);
        ph_encoder_close(encoder);
        return NULL;
    }
    encoder->frame->format = AV_PIX_FMT_YUV420P;
    encoder->frame->width = config->width;
    encoder->frame->height = config->height;
    return encoder;
}

int ph_encoder_send(
    ph_encoder *encoder, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
    const uint8_t *v, int v_stride, int64_t pts_us, int keyframe, char *error, size_t error_size) {
    int status;
    if (y == NULL) {
        status = avcodec_send_frame(encoder->context, NULL);
    } else {
        AVFrame *frame = encoder->frame;
        // The caller's planes are borrowed: libavcodec copies a frame that has no buffer refs.
        frame->data[0] = (uint8_t *)y;
        frame->data[1] = (uint8_t *)u;
        frame->data[2] = (uint8_t *)v;
        frame->linesize[0] = y_stride;
        frame->linesize[1] = u_stride;
        frame->linesize[2] = v_stride;
        frame->pts = pts_us;
        // libx264 makes a forced I frame an IDR (closed GOP): a clip can start there.
        frame->pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
        if (encoder->borrow_input) {
            // One read-only buffer over the planes (its size only bounds them for libav).
            size_t span = (size_t)y_stride * (size_t)frame->height;
            frame->buf[0] = av_buffer_create(
                (uint8_t *)y, (int)span, release_borrowed, encoder, AV_BUFFER_FLAG_READONLY);
            if (frame->buf[0] == NULL) {
                snprintf(error, error_size, "out of memory");
                frame->data[0] = frame->data[1] = frame->data[2] = NULL;
                return AVERROR(ENOMEM);
            }
            encoder->borrowed_released = 0;
        }
        status = avcodec_send_frame(encoder->context, frame);
        frame->data[0] = frame->data[1] = frame->data[2] = NULL;
        if (encoder->borrow_input) {
            av_buffer_unref(&frame->buf[0]);
            if (!encoder->borrowed_released) {
                // A libavcodec that keeps the frame past the send would read planes the caller
                // frees next: stop, and say so (Debian 12's 5.1 does not).
                snprintf(error, error_size, "libavcodec kept a borrowed frame past avcodec_send_frame");
                return AVERROR_BUG;
            }
        }
    }
    if (status < 0) describe(error, error_size, "avcodec_send_frame", status);
    return status;
}

int ph_encoder_receive(ph_encoder *encoder, ph_packet *packet, char *error, size_t error_size) {
    av_packet_unref(encoder->packet);
    int status = avcodec_receive_packet(encoder->context, encoder->packet);
    if (status == AVERROR(EAGAIN)) return 0;
    if (status == AVERROR_EOF) return -1;
    if (status < 0) {
        describe(error, error_size, "avcodec_receive_packet", status);
        return status < -1 ? status : -2;
    }
    AVPacket *source = encoder->packet;
    packet->data = source->data;
    packet->size = source->size;
    packet->pts_us = source->pts;
    packet->dts_us = source->dts == AV_NOPTS_VALUE ? source->pts : source->dts;
    packet->keyframe = (source->flags & AV_PKT_FLAG_KEY) != 0;
    return 1;
}

const uint8_t *ph_encoder_extradata(ph_encoder *encoder, int *size) {
    *size = encoder->context->extradata_size;
    return encoder->context->extradata;
}

struct ph_writer {
    AVFormatContext *format;
    AVStream *stream;
    AVPacket *packet;
    AVIOContext *io;
    ph_write_function write;
    void *opaque;
    int64_t frame_duration_us;
};

static int write_bytes(void *opaque, uint8_t *bytes, int size) {
    ph_writer *writer = opaque;
    if (writer->write(writer->opaque, bytes, size) != 0) return AVERROR(EIO);
    return size;
}

static void free_writer(ph_writer *writer) {
    if (writer == NULL) return;
    if (writer->io != NULL) {
        av_freep(&writer->io->buffer);
        avio_context_free(&writer->io);
    }
    avformat_free_context(writer->format);
    av_packet_free(&writer->packet);
    av_free(writer);
}

void ph_writer_abort(ph_writer *writer) { free_writer(writer); }

// Hands every buffered byte to the write function; a failed write shows as the context's error.
static int flush_io(ph_writer *writer, char *error, size_t error_size) {
    avio_flush(writer->io);
    if (writer->io->error < 0) {
        describe(error, error_size, "writing the MP4", writer->io->error);
        return writer->io->error;
    }
    return 0;
}

ph_writer *ph_writer_open(
    const ph_writer_config *config, ph_write_function write, void *opaque, char *error,
    size_t error_size) {
    quiet_libav();
    ph_writer *writer = av_mallocz(sizeof *writer);
    if (writer == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    writer->write = write;
    writer->opaque = opaque;
    writer->frame_duration_us = 1000000 / (config->fps > 0 ? config->fps : 1);
    writer->packet = av_packet_alloc();
    int status = avformat_alloc_output_context2(&writer->format, NULL, "mp4", NULL);
    const int buffer_size = 64 * 1024;
    uint8_t *buffer = av_malloc(buffer_size);
    if (status < 0 || writer->packet == NULL || buffer == NULL) {
        av_free(buffer);
        snprintf(error, error_size, "cannot set up the MP4 writer");
        free_writer(writer);
        return NULL;
    }
    writer->io = avio_alloc_context(buffer, buffer_size, 1, writer, NULL, write_bytes, NULL);
    if (writer->io == NULL) {
        av_free(buffer);
        snprintf(error, error_size, "out of memory");
        free_writer(writer);
        return NULL;
    }
    writer->format->pb = writer->io;
    writer->format->flags |= AVFMT_FLAG_CUSTOM_IO;

    AVStream *stream = avformat_new_stream(writer->format, NULL);
    if (stream == NULL) {
        snprintf(error, error_size, "out of memory");
        free_writer(writer);
        return NULL;
    }
    writer->stream = stream;
    stream->time_base = (AVRational){1, 90000};
    stream->avg_frame_rate = (AVRational){config->fps, 1};
    AVCodecParameters *parameters = stream->codecpar;
    parameters->codec_type = AVMEDIA_TYPE_VIDEO;
    parameters->codec_id = AV_CODEC_ID_H264;
    parameters->width = config->width;
    parameters->height = config->height;
    parameters->format = AV_PIX_FMT_YUV420P;
    if (config->extradata_size > 0) {
        parameters->extradata = av_mallocz(config->extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        if (parameters->extradata == NULL) {
            snprintf(error, error_size, "out of memory");
            free_writer(writer);
            return NULL;
        }
        memcpy(parameters->extradata, config->extradata, config->extradata_size);
        parameters->extradata_size = config->extradata_size;
    }
    if (config->rotation_degrees != 0) {
        int32_t *matrix = (int32_t *)av_stream_new_side_data(
            stream, AV_PKT_DATA_DISPLAYMATRIX, sizeof(int32_t) * 9);
        if (matrix == NULL) {
            snprintf(error, error_size, "out of memory");
            free_writer(writer);
            return NULL;
        }
        // Checked with exiftool (Composite:Rotation) and ffprobe: this matrix makes a player
        // turn the picture clockwise by the angle given.
        av_display_rotation_set(matrix, config->rotation_degrees);
    }
    for (int index = 0; index < config->metadata_count; index++) {
        av_dict_set(
            &writer->format->metadata, config->metadata[index].key, config->metadata[index].value, 0);
    }
    AVDictionary *options = NULL;
    // A fragment per keyframe; the moov up front holds no samples, so a cut file plays up to
    // its last complete fragment. use_metadata_tags writes every key as an mdta key.
    av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof+use_metadata_tags", 0);
    status = avformat_write_header(writer->format, &options);
    av_dict_free(&options);
    if (status < 0) {
        describe(error, error_size, "avformat_write_header", status);
        free_writer(writer);
        return NULL;
    }
    if (flush_io(writer, error, error_size) < 0) {
        free_writer(writer);
        return NULL;
    }
    return writer;
}

int ph_writer_write(
    ph_writer *writer, const uint8_t *data, int size, int64_t pts_us, int64_t dts_us, int keyframe,
    char *error, size_t error_size) {
    AVPacket *packet = writer->packet;
    av_packet_unref(packet);
    packet->data = (uint8_t *)data;
    packet->size = size;
    packet->stream_index = 0;
    packet->pts = av_rescale_q(pts_us, microseconds, writer->stream->time_base);
    packet->dts = av_rescale_q(dts_us, microseconds, writer->stream->time_base);
    packet->duration = av_rescale_q(writer->frame_duration_us, microseconds, writer->stream->time_base);
    packet->flags = keyframe ? AV_PKT_FLAG_KEY : 0;
    int status = av_write_frame(writer->format, packet);
    packet->data = NULL;
    packet->size = 0;
    if (status < 0) {
        describe(error, error_size, "av_write_frame", status);
        return status;
    }
    return flush_io(writer, error, error_size);
}

int ph_writer_finish(ph_writer *writer, char *error, size_t error_size) {
    int status = av_write_trailer(writer->format);
    if (status < 0) {
        describe(error, error_size, "av_write_trailer", status);
    } else {
        status = flush_io(writer, error, error_size);
    }
    free_writer(writer);
    return status;
}
