// Internals shared by the shim's files: the one CameraManager, error copying, value printing.
#pragma once

#include <libcamera/libcamera.h>

#include <cstdio>
#include <memory>
#include <string>

namespace pinhole_shim {

/** The process's CameraManager (started by pinhole_lc_start), or nullptr. */
libcamera::CameraManager *manager();

/** Copies `message` into a caller's error buffer. */
inline void copy_error(char *error, size_t size, const std::string &message)
{
	if (error && size > 0)
		std::snprintf(error, size, "%s", message.c_str());
}

/** A scalar control value as a number, or NaN (arrays, rectangles, strings, none). */
double number_of(const libcamera::ControlValue &value);

} // namespace pinhole_shim
