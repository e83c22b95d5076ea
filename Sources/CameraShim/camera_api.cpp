// The shim's one entry point: its C functions as a table, found with dlsym by `pinhole`.
#include "camera_shim.h"

extern "C" const pinhole_lc_api *pinhole_lc_get_api(void)
{
	static const pinhole_lc_api api = {
		pinhole_libcamera_version,
		pinhole_lc_start,
		pinhole_lc_describe,
		pinhole_lc_open,
		pinhole_lc_configure,
		pinhole_lc_start_camera,
		pinhole_lc_requeue,
		pinhole_lc_stop_camera,
		pinhole_lc_release_generation,
		pinhole_lc_set_control,
		pinhole_lc_close,
	};
	return &api;
}
