// A plain C interface to FFmpeg's libavformat for rewriting a clip into another container
// without re-encoding (the fragmented MP4 as a plain MP4 or a QuickTime MOV, with metadata).
#ifndef PINHOLE_CLIP_REMUX_H
#define PINHOLE_CLIP_REMUX_H

#include <stddef.h>

#include "video_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Copies every packet of `in_path`'s video stream into a new file `out_path` in
/// `format_name` ("mp4" or "mov"), not fragmented, the index first (faststart), keeping the
/// movie's metadata and rotation and adding `metadata` as mdta keys. 0 on success, negative
/// otherwise (`error` says why; a partial `out_path` is left to the caller to remove).
int ph_clip_remux(
    const char *in_path, const char *out_path, const char *format_name, const ph_metadata_entry *metadata,
    int metadata_count, char *error, size_t error_size);

/// The frames a recording cut inside its first fragment still holds whole: copies `in_path`'s
/// video packets into a new plain MP4 `out_path` (as ph_clip_remux does, metadata and rotation
/// kept) from its first keyframe up to the first packet the cut shortened (flagged corrupt by
/// libavformat, or reaching the end of the file). `frames` gets the count copied. 0 on success;
/// 1 when not one frame is whole (or libavformat reads no video stream in it: nothing to keep);
/// negative otherwise (`error` says why; a
/// partial `out_path` is left to the caller to remove).
int ph_clip_salvage(const char *in_path, const char *out_path, int *frames, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
