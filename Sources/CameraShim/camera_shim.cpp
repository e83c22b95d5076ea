// Plain C wrapper around libcamera's C++ API: the shared CameraManager and camera discovery.
#include "camera_shim.h"
#include "shim_internal.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>

using namespace libcamera;

namespace pinhole_shim {

namespace {
std::mutex manager_mutex;
// Deliberately never destroyed: libcamera allows one CameraManager per process, and tearing it
// down during static destruction races with cameras still referenced elsewhere.
CameraManager *shared_manager = nullptr;
} // namespace

CameraManager *manager()
{
	std::lock_guard<std::mutex> lock(manager_mutex);
	return shared_manager;
}

double number_of(const ControlValue &value)
{
	if (value.isNone() || value.isArray())
		return std::numeric_limits<double>::quiet_NaN();
	switch (value.type()) {
	case ControlTypeBool:
		return value.get<bool>() ? 1 : 0;
	case ControlTypeByte:
		return value.get<uint8_t>();
	case ControlTypeInteger32:
		return value.get<int32_t>();
	case ControlTypeInteger64:
		return static_cast<double>(value.get<int64_t>());
	case ControlTypeFloat:
		return value.get<float>();
	case ControlTypeRectangle:
		// A rectangle's width: ScalerCrop's smallest and largest crops give the zoom limit.
		return value.get<Rectangle>().width;
	default:
		return std::numeric_limits<double>::quiet_NaN();
	}
}

} // namespace pinhole_shim

using namespace pinhole_shim;

extern "C" const char *pinhole_libcamera_version(void)
{
	static std::string version = CameraManager::version();
	return version.c_str();
}

extern "C" int pinhole_lc_start(char *error, size_t error_size)
{
	std::lock_guard<std::mutex> lock(manager_mutex);
	if (!shared_manager) {
		setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0);
		auto *created = new CameraManager();
		int ret = created->start();
		if (ret < 0) {
			delete created;
			copy_error(error, error_size,
				   std::string("libcamera's camera manager did not start: ") + std::strerror(-ret));
			return -1;
		}
		shared_manager = created;
	}
	return static_cast<int>(shared_manager->cameras().size());
}

namespace {

const char *type_name(ControlType type)
{
	switch (type) {
	case ControlTypeBool:
		return "bool";
	case ControlTypeByte:
	case ControlTypeInteger32:
	case ControlTypeInteger64:
		return "int";
	case ControlTypeFloat:
		return "float";
	case ControlTypeRectangle:
		return "rect";
	default:
		return "other";
	}
}

/** An integer control value, or the first of an integer array (FrameDurationLimits), or NaN. */
double first_int64(const ControlValue &value)
{
	if (value.isNone() || value.type() != ControlTypeInteger64)
		return std::numeric_limits<double>::quiet_NaN();
	if (!value.isArray())
		return static_cast<double>(value.get<int64_t>());
	Span<const int64_t> values = value.get<Span<const int64_t>>();
	return values.empty() ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(values[0]);
}

void describe_role(Camera &camera, StreamRole role, const char *tag, std::ostringstream &out)
{
	std::unique_ptr<CameraConfiguration> config = camera.generateConfiguration({ role });
	if (!config || config->empty())
		return;
	// The pipeline's own choice for this role first: the size and format it recommends.
	const StreamConfiguration &recommended = config->at(0);
	out << tag << "_default " << recommended.pixelFormat.toString() << " " << recommended.size.width << " "
	    << recommended.size.height << "\n";
	const StreamFormats &formats = config->at(0).formats();
	for (const PixelFormat &format : formats.pixelformats()) {
		std::vector<Size> sizes = formats.sizes(format);
		if (sizes.empty())
			sizes.push_back(formats.range(format).max);
		for (const Size &size : sizes)
			out << tag << " " << format.toString() << " " << size.width << " " << size.height << "\n";
	}
}

} // namespace

extern "C" int pinhole_lc_describe(int index, char *out, size_t out_size)
{
	CameraManager *cm = manager();
	if (!cm)
		return -1;
	std::vector<std::shared_ptr<Camera>> cameras = cm->cameras();
	if (index < 0 || static_cast<size_t>(index) >= cameras.size())
		return -1;
	Camera &camera = *cameras[index];
	std::ostringstream text;
	text.precision(9);
	text << "id " << camera.id() << "\n";
	const ControlList &properties = camera.properties();
	if (auto model = properties.get(properties::Model))
		text << "model " << *model << "\n";
	if (auto location = properties.get(properties::Location))
		text << "location " << *location << "\n";
	if (auto size = properties.get(properties::PixelArraySize))
		text << "pixel_array " << size->width << " " << size->height << "\n";
	if (auto crop = properties.get(properties::ScalerCropMaximum))
		text << "crop_max " << crop->x << " " << crop->y << " " << crop->width << " " << crop->height << "\n";
	describe_role(camera, StreamRole::StillCapture, "still", text);
	describe_role(camera, StreamRole::Viewfinder, "viewfinder", text);
	describe_role(camera, StreamRole::VideoRecording, "video", text);
	auto limits = camera.controls().find(controls::FrameDurationLimits.id());
	if (limits != camera.controls().end())
		text << "frame_duration " << first_int64(limits->second.min()) << " " << first_int64(limits->second.max())
		     << "\n";
	for (const auto &[id, info] : camera.controls()) {
		text << "control " << id->name() << " " << type_name(id->type()) << " "
		     << number_of(info.min()) << " " << number_of(info.max()) << " " << number_of(info.def()) << "\n";
	}
	std::string result = text.str();
	if (out && out_size > 0)
		std::snprintf(out, out_size, "%s", result.c_str());
	return static_cast<int>(result.size());
}
