/* Plain C interface to libcamera, the only code that touches its C++ API. */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif

/** Returns the libcamera version string. */
const char *pinhole_libcamera_version(void);

#ifdef __cplusplus
}
#endif
