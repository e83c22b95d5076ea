// Plain C wrapper around libcamera's C++ API.
#include "camera_shim.h"
#include <libcamera/camera_manager.h>

extern "C" const char *pinhole_libcamera_version(void) {
    static std::string version = libcamera::CameraManager::version();
    return version.c_str();
}
