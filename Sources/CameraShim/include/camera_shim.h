/* Plain C interface to libcamera, the only code that touches its C++ API. */
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Returns the libcamera version string. */
const char *pinhole_libcamera_version(void);

/**
 * Starts the process's one shared CameraManager (later calls reuse it) and returns the number
 * of cameras, or -1 with a message in `error`. Sets LIBCAMERA_LOG_LEVELS to ERROR unless the
 * environment already sets it.
 */
int pinhole_lc_start(char *error, size_t error_size);

/**
 * Writes a text description of camera `index` into `out`, one fact a line:
 *   id ID | model MODEL | location 0|1|2 | pixel_array W H | crop_max X Y W H
 *   still FOURCC W H | viewfinder FOURCC W H | video FOURCC W H (VideoRecording role)
 *   still_default FOURCC W H | viewfinder_default FOURCC W H | video_default FOURCC W H
 *   (the _default lines are the pipeline's recommendation for the role)
 *   frame_duration MIN MAX              (FrameDurationLimits in µs, where the camera reports it)
 *   control NAME TYPE MIN MAX DEFAULT   (TYPE: bool, int, float, rect, other; a rect's
 *                                        numbers are its width)
 * Returns the length needed (write again with a larger buffer if it is >= out_size), or -1.
 */
int pinhole_lc_describe(int index, char *out, size_t out_size);

/** An acquired camera. */
typedef struct pinhole_lc_camera pinhole_lc_camera;

/** Acquires the camera with `id`; NULL with a message in `error`. */
pinhole_lc_camera *pinhole_lc_open(const char *id, char *error, size_t error_size);

/** Stream configuration asked for and, after pinhole_lc_configure, used. */
typedef struct {
    uint32_t still_width, still_height;
    char still_format[16];          /* libcamera pixel format name, e.g. "YUV420" */
    uint32_t still_stride;
    uint32_t viewfinder_width, viewfinder_height;
    char viewfinder_format[16];
    uint32_t viewfinder_stride;
    int streams;                    /* out: 2, or 1 when the camera gives a still stream only */
    uint32_t video_width, video_height; /* in: the VideoRecording stream asked for; 0: none */
    char video_format[16];
    uint32_t video_stride;
    int video_fps;                  /* in: frames per second (FrameDurationLimits, where the camera has it) */
    int video;                      /* out: 1 when a video stream runs beside the still stream */
    int frame_rate_set;             /* out: 1 when the camera reports FrameDurationLimits (the rate is set) */
} pinhole_lc_config;

/**
 * Validates and applies a configuration: 0 valid, 1 adjusted (`config` updated), -1 invalid.
 * With a video stream asked for, tries still + viewfinder + video, then still + video (the
 * Raspberry Pi's ISP has two outputs), then the streams without video (`video` is 0 then).
 */
int pinhole_lc_configure(pinhole_lc_camera *camera, pinhole_lc_config *config, char *error, size_t error_size);

/** One plane of a completed buffer, mapped into memory. */
typedef struct {
    const uint8_t *data;
    size_t length;
} pinhole_lc_plane;

/** A completed request, valid until pinhole_lc_requeue(camera, request). */
typedef struct {
    int request;
    int generation;                 /* buffer set (one per start); see pinhole_lc_release_generation */
    uint64_t sequence;
    int64_t timestamp_ns;           /* start of exposure: SensorTimestamp (CLOCK_BOOTTIME), else the
                                       buffer's V4L2 timestamp (CLOCK_MONOTONIC) */
    int timestamp_is_boottime;      /* 1: timestamp_ns is CLOCK_BOOTTIME; 0: CLOCK_MONOTONIC */
    int64_t wall_clock_ns;          /* FrameWallClock (libcamera >= 0.5.2), CLOCK_REALTIME; -1 when absent */
    int64_t exposure_us;            /* -1 when not reported */
    double analogue_gain, digital_gain; /* NaN when not reported */
    double lens_position, lux, colour_temperature; /* NaN when not reported */
    int af_state;                   /* -1 when not reported */
    int still_planes, viewfinder_planes, video_planes;
    pinhole_lc_plane still[3];
    pinhole_lc_plane viewfinder[3];
    pinhole_lc_plane video[3];
} pinhole_lc_frame;

/** Called on libcamera's thread for every completed (not cancelled) request. */
typedef void (*pinhole_lc_frame_callback)(void *context, const pinhole_lc_frame *frame);

/** Allocates and maps buffers, starts the camera with the pending controls, queues every request. */
int pinhole_lc_start_camera(pinhole_lc_camera *camera, pinhole_lc_frame_callback callback, void *context,
                            char *error, size_t error_size);

/** Gives a completed request back to the camera (with any pending controls). Any thread. */
void pinhole_lc_requeue(pinhole_lc_camera *camera, int request);

/** Stops streaming (completes outstanding requests as cancelled). Buffers stay mapped. */
void pinhole_lc_stop_camera(pinhole_lc_camera *camera);

/**
 * Unmaps the buffers of an earlier start (`generation`), once no frame of it is held any more.
 * The current generation's buffers stay until the next start or close.
 */
void pinhole_lc_release_generation(pinhole_lc_camera *camera, int generation);

/**
 * Queues a control by name for the next request: `kind` 0 bool, 1 integer, 2 float
 * (converted to the control's own type), 3 rectangles (`values` holds x, y, width, height
 * normalized 0…1 per rectangle, mapped onto ScalerCropMaximum). Returns 0, or -1 with a message.
 */
int pinhole_lc_set_control(pinhole_lc_camera *camera, const char *name, int kind, const double *values,
                           int count, char *error, size_t error_size);

/** Stops, unmaps, frees and releases the camera. */
void pinhole_lc_close(pinhole_lc_camera *camera);

/**
 * The functions above as one table. The shim is a shared object of its own
 * (libPinholeCamera.so, which links libcamera) that `pinhole` loads with dlopen only on a
 * libcamera board, so this is its one entry point: `pinhole_lc_get_api`, found with dlsym.
 * A function added above needs its field here (at the end) and its entry in camera_api.cpp.
 */
typedef struct {
    const char *(*version)(void);
    int (*start)(char *error, size_t error_size);
    int (*describe)(int index, char *out, size_t out_size);
    pinhole_lc_camera *(*open)(const char *id, char *error, size_t error_size);
    int (*configure)(pinhole_lc_camera *camera, pinhole_lc_config *config, char *error,
                              size_t error_size);
    int (*start_camera)(pinhole_lc_camera *camera, pinhole_lc_frame_callback callback,
                                 void *context, char *error, size_t error_size);
    void (*requeue)(pinhole_lc_camera *camera, int request);
    void (*stop_camera)(pinhole_lc_camera *camera);
    void (*release_generation)(pinhole_lc_camera *camera, int generation);
    int (*set_control)(pinhole_lc_camera *camera, const char *name, int kind,
                                const double *values, int count, char *error, size_t error_size);
    void (*close)(pinhole_lc_camera *camera);
} pinhole_lc_api;

/** The name `pinhole` looks up with dlsym. */
#define PINHOLE_LC_API_SYMBOL "pinhole_lc_get_api"

/** The shim's function table (static; never freed). */
const pinhole_lc_api *pinhole_lc_get_api(void);

#ifdef __cplusplus
}
#endif
