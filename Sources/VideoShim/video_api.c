// The shim's one entry point: its C functions as a table, found with dlsym by `pinhole`.
#include "video_api.h"

#include <libavutil/avutil.h>

static const char *libav_version(void) {
    return av_version_info();
}

const ph_video_api *ph_video_get_api(void) {
    static const ph_video_api api = {
        ph_video_encoder_available,
        ph_encoder_open,
        ph_encoder_send,
        ph_encoder_receive,
        ph_encoder_extradata,
        ph_encoder_close,
        ph_writer_open,
        ph_writer_write,
        ph_writer_finish,
        ph_writer_abort,
        ph_clip_probe,
        ph_clip_decode_frame,
        ph_clip_remux,
        libav_version,
        ph_clip_salvage,
    };
    return &api;
}
