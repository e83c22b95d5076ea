// Plain C wrapper around libcamera's C++ API: one acquired camera, its streams, buffers and requests.
#include "camera_shim.h"
#include "shim_internal.hpp"
#include <libcamera/version.h>

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

using namespace libcamera;
using namespace pinhole_shim;

namespace {

/** Memory maps of one start's buffers. */
struct MappedSet {
	int generation = 0;
	std::vector<std::pair<void *, size_t>> maps;

	void unmap()
	{
		for (auto &[address, length] : maps)
			munmap(address, length);
		maps.clear();
	}
};

} // namespace

struct pinhole_lc_camera {
	std::shared_ptr<Camera> camera;
	std::unique_ptr<CameraConfiguration> config;
	Stream *still = nullptr;
	Stream *viewfinder = nullptr;
	Stream *video = nullptr;
	int64_t frame_duration_us = 0; // set as FrameDurationLimits at start; 0: the camera's own rate
	std::unique_ptr<FrameBufferAllocator> allocator;
	std::vector<std::unique_ptr<Request>> requests;
	std::map<const FrameBuffer *, std::vector<pinhole_lc_plane>> planes;
	MappedSet current;
	std::vector<MappedSet> retired;
	int generation = 0;
	Rectangle crop_max;

	std::mutex mutex;
	ControlList pending;
	bool running = false;
	pinhole_lc_frame_callback callback = nullptr;
	void *context = nullptr;

	void completed(Request *request);
	int map_buffers(Stream *stream, std::string &why);
	void retire_buffers();
};

void pinhole_lc_camera::retire_buffers()
{
	requests.clear();
	planes.clear();
	allocator.reset();
	if (!current.maps.empty())
		retired.push_back(std::move(current));
	current = MappedSet();
}

int pinhole_lc_camera::map_buffers(Stream *stream, std::string &why)
{
	for (const std::unique_ptr<FrameBuffer> &buffer : allocator->buffers(stream)) {
		// Planes may share one dmabuf at different offsets: map each fd once, whole.
		std::map<int, size_t> lengths;
		for (const FrameBuffer::Plane &plane : buffer->planes()) {
			size_t end = plane.offset + plane.length;
			lengths[plane.fd.get()] = std::max(lengths[plane.fd.get()], end);
		}
		std::map<int, uint8_t *> bases;
		for (auto &[fd, length] : lengths) {
			void *address = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
			if (address == MAP_FAILED) {
				why = std::string("cannot map a camera buffer: ") + std::strerror(errno);
				return -1;
			}
			current.maps.emplace_back(address, length);
			bases[fd] = static_cast<uint8_t *>(address);
		}
		std::vector<pinhole_lc_plane> mapped;
		for (const FrameBuffer::Plane &plane : buffer->planes())
			mapped.push_back({ bases[plane.fd.get()] + plane.offset, plane.length });
		planes[buffer.get()] = mapped;
	}
	return 0;
}

namespace {

double metadata_float(const ControlList &metadata, const Control<float> &control)
{
	auto value = metadata.get(control);
	return value ? *value : std::nan("");
}

} // namespace

void pinhole_lc_camera::completed(Request *request)
{
	if (request->status() == Request::RequestCancelled)
		return;
	pinhole_lc_frame frame{};
	frame.request = static_cast<int>(request->cookie());
	frame.generation = generation;
	const ControlList &metadata = request->metadata();
	FrameBuffer *still_buffer = request->findBuffer(still);
	if (!still_buffer)
		return;
	frame.sequence = still_buffer->metadata().sequence;
	auto timestamp = metadata.get(controls::SensorTimestamp);
	frame.timestamp_ns = timestamp ? *timestamp : static_cast<int64_t>(still_buffer->metadata().timestamp);
	frame.timestamp_is_boottime = timestamp ? 1 : 0;
	frame.wall_clock_ns = -1;
#if LIBCAMERA_VERSION_MAJOR > 0 || LIBCAMERA_VERSION_MINOR > 5 || \
	(LIBCAMERA_VERSION_MINOR == 5 && LIBCAMERA_VERSION_PATCH >= 2)
	if (auto wall = metadata.get(controls::FrameWallClock))
		frame.wall_clock_ns = *wall;
#endif
	auto exposure = metadata.get(controls::ExposureTime);
	frame.exposure_us = exposure ? *exposure : -1;
	frame.analogue_gain = metadata_float(metadata, controls::AnalogueGain);
	frame.digital_gain = metadata_float(metadata, controls::DigitalGain);
	frame.lens_position = metadata_float(metadata, controls::LensPosition);
	frame.lux = metadata_float(metadata, controls::Lux);
	auto temperature = metadata.get(controls::ColourTemperature);
	frame.colour_temperature = temperature ? *temperature : std::nan("");
	auto af = metadata.get(controls::AfState);
	frame.af_state = af ? *af : -1;
	const std::vector<pinhole_lc_plane> &still_planes = planes[still_buffer];
	frame.still_planes = static_cast<int>(std::min<size_t>(3, still_planes.size()));
	for (int i = 0; i < frame.still_planes; i++)
		frame.still[i] = still_planes[i];
	if (viewfinder) {
		if (FrameBuffer *buffer = request->findBuffer(viewfinder)) {
			const std::vector<pinhole_lc_plane> &vf_planes = planes[buffer];
			frame.viewfinder_planes = static_cast<int>(std::min<size_t>(3, vf_planes.size()));
			for (int i = 0; i < frame.viewfinder_planes; i++)
				frame.viewfinder[i] = vf_planes[i];
		}
	}
	if (video) {
		if (FrameBuffer *buffer = request->findBuffer(video)) {
			const std::vector<pinhole_lc_plane> &video_planes = planes[buffer];
			frame.video_planes = static_cast<int>(std::min<size_t>(3, video_planes.size()));
			for (int i = 0; i < frame.video_planes; i++)
				frame.video[i] = video_planes[i];
		}
	}
	if (callback)
		callback(context, &frame);
}

extern "C" pinhole_lc_camera *pinhole_lc_open(const char *id, char *error, size_t error_size)
{
	CameraManager *cm = manager();
	if (!cm) {
		copy_error(error, error_size, "libcamera is not started");
		return nullptr;
	}
	std::shared_ptr<Camera> camera = cm->get(id);
	if (!camera) {
		copy_error(error, error_size, std::string("no camera '") + id + "' (unplugged?)");
		return nullptr;
	}
	if (camera->acquire() < 0) {
		copy_error(error, error_size,
			   std::string("camera '") + id + "' is in use by another process: stop it (e.g. rpicam-hello) first");
		return nullptr;
	}
	auto *handle = new pinhole_lc_camera();
	handle->camera = camera;
	handle->pending = ControlList(camera->controls());
	if (auto crop = camera->properties().get(properties::ScalerCropMaximum))
		handle->crop_max = *crop;
	else if (auto size = camera->properties().get(properties::PixelArraySize))
		handle->crop_max = Rectangle(0, 0, size->width, size->height);
	camera->requestCompleted.connect(handle, &pinhole_lc_camera::completed);
	return handle;
}

namespace {

void fill(const StreamConfiguration &stream, uint32_t &width, uint32_t &height, char *format, uint32_t &stride)
{
	width = stream.size.width;
	height = stream.size.height;
	std::snprintf(format, 16, "%s", stream.pixelFormat.toString().c_str());
	stride = stream.stride;
}

} // namespace

namespace {

/** A set of roles to ask for, and which of them is the viewfinder and the video (-1: none). */
struct Layout {
	std::vector<StreamRole> roles;
	int viewfinder;
	int video;
};

void ask(StreamConfiguration &stream, uint32_t width, uint32_t height, const char *format, unsigned int buffers)
{
	stream.size = Size(width, height);
	if (format[0] != '\0')
		stream.pixelFormat = PixelFormat::fromString(format);
	stream.bufferCount = buffers;
}

} // namespace

extern "C" int pinhole_lc_configure(pinhole_lc_camera *handle, pinhole_lc_config *wanted, char *error,
				    size_t error_size)
{
	Camera &camera = *handle->camera;
	const bool wants_video = wanted->video_width > 0 && wanted->video_height > 0;
	std::vector<Layout> layouts;
	if (wants_video) {
		layouts.push_back({ { StreamRole::StillCapture, StreamRole::Viewfinder, StreamRole::VideoRecording }, 1, 2 });
		layouts.push_back({ { StreamRole::StillCapture, StreamRole::VideoRecording }, -1, 1 });
	}
	layouts.push_back({ { StreamRole::StillCapture, StreamRole::Viewfinder }, 1, -1 });
	layouts.push_back({ { StreamRole::StillCapture }, -1, -1 });
	std::unique_ptr<CameraConfiguration> config;
	CameraConfiguration::Status status = CameraConfiguration::Invalid;
	Layout chosen;
	bool offered = false;
	for (const Layout &layout : layouts) {
		std::unique_ptr<CameraConfiguration> candidate = camera.generateConfiguration(layout.roles);
		if (!candidate || candidate->size() < layout.roles.size())
			continue;
		offered = true;
		StreamConfiguration &still = candidate->at(0);
		ask(still, wanted->still_width, wanted->still_height, wanted->still_format,
		    std::max(still.bufferCount, 4u));
		if (layout.viewfinder >= 0)
			ask(candidate->at(layout.viewfinder), wanted->viewfinder_width, wanted->viewfinder_height,
			    wanted->viewfinder_format, still.bufferCount);
		if (layout.video >= 0)
			ask(candidate->at(layout.video), wanted->video_width, wanted->video_height, wanted->video_format,
			    still.bufferCount);
		status = candidate->validate();
		// A layout with video must keep every stream; without, a pipeline may drop the
		// viewfinder (vimc has one stream) and the viewfinder is scaled from the still.
		if (status == CameraConfiguration::Invalid || (layout.video >= 0 && candidate->size() < layout.roles.size()))
			continue;
		config = std::move(candidate);
		chosen = layout;
		break;
	}
	if (!config) {
		copy_error(error, error_size,
			   offered ? "libcamera rejected the stream configuration" : "the camera offers no still stream");
		return -1;
	}
	handle->retire_buffers();
	int ret = camera.configure(config.get());
	if (ret < 0) {
		copy_error(error, error_size, std::string("configuring the camera failed: ") + std::strerror(-ret));
		return -1;
	}
	handle->config = std::move(config);
	const auto stream_at = [&](int index) -> StreamConfiguration * {
		return index >= 0 && static_cast<size_t>(index) < handle->config->size() ? &handle->config->at(index)
											  : nullptr;
	};
	StreamConfiguration *viewfinder = stream_at(chosen.viewfinder);
	StreamConfiguration *video = stream_at(chosen.video);
	handle->still = handle->config->at(0).stream();
	handle->viewfinder = viewfinder ? viewfinder->stream() : nullptr;
	handle->video = video ? video->stream() : nullptr;
	fill(handle->config->at(0), wanted->still_width, wanted->still_height, wanted->still_format,
	     wanted->still_stride);
	wanted->streams = viewfinder ? 2 : 1;
	if (viewfinder)
		fill(*viewfinder, wanted->viewfinder_width, wanted->viewfinder_height, wanted->viewfinder_format,
		     wanted->viewfinder_stride);
	wanted->video = video ? 1 : 0;
	if (video)
		fill(*video, wanted->video_width, wanted->video_height, wanted->video_format, wanted->video_stride);
	const bool has_limits = camera.controls().count(controls::FrameDurationLimits.id()) > 0;
	wanted->frame_rate_set = wants_video && wanted->video_fps > 0 && has_limits ? 1 : 0;
	handle->frame_duration_us = wanted->frame_rate_set ? 1000000 / wanted->video_fps : 0;
	return status == CameraConfiguration::Adjusted ? 1 : 0;
}

extern "C" int pinhole_lc_start_camera(pinhole_lc_camera *handle, pinhole_lc_frame_callback callback, void *context,
				       char *error, size_t error_size)
{
	if (!handle->config) {
		copy_error(error, error_size, "the camera is not configured");
		return -1;
	}
	Camera &camera = *handle->camera;
	handle->retire_buffers();
	handle->allocator = std::make_unique<FrameBufferAllocator>(handle->camera);
	std::string why;
	size_t count = SIZE_MAX;
	for (Stream *stream : { handle->still, handle->viewfinder, handle->video }) {
		if (!stream)
			continue;
		if (handle->allocator->allocate(stream) < 0) {
			copy_error(error, error_size, "cannot allocate camera buffers (out of CMA memory?)");
			return -1;
		}
		if (handle->map_buffers(stream, why) < 0) {
			copy_error(error, error_size, why);
			return -1;
		}
		count = std::min(count, handle->allocator->buffers(stream).size());
	}
	// The new generation counts only once the camera has started: Swift counts successful
	// starts, and a frame of a generation Swift does not know would never be given back.
	const int next = handle->generation + 1;
	handle->current.generation = next;
	for (size_t index = 0; index < count; index++) {
		std::unique_ptr<Request> request = camera.createRequest(index);
		if (!request) {
			copy_error(error, error_size, "cannot create a capture request");
			return -1;
		}
		request->addBuffer(handle->still, handle->allocator->buffers(handle->still)[index].get());
		for (Stream *stream : { handle->viewfinder, handle->video }) {
			if (stream)
				request->addBuffer(stream, handle->allocator->buffers(stream)[index].get());
		}
		handle->requests.push_back(std::move(request));
	}
	ControlList initial(camera.controls());
	{
		std::lock_guard<std::mutex> lock(handle->mutex);
		initial = handle->pending;
		handle->pending.clear();
		if (handle->frame_duration_us > 0) {
			const int64_t limits[2] = { handle->frame_duration_us, handle->frame_duration_us };
			initial.set(controls::FrameDurationLimits, Span<const int64_t, 2>(limits));
		}
		handle->callback = callback;
		handle->context = context;
		handle->running = true;
	}
	int ret = camera.start(&initial);
	if (ret < 0) {
		std::lock_guard<std::mutex> lock(handle->mutex);
		handle->running = false;
		copy_error(error, error_size, std::string("starting the camera failed: ") + std::strerror(-ret));
		return -1;
	}
	handle->generation = next;
	for (std::unique_ptr<Request> &request : handle->requests)
		camera.queueRequest(request.get());
	return 0;
}

extern "C" void pinhole_lc_requeue(pinhole_lc_camera *handle, int index)
{
	std::lock_guard<std::mutex> lock(handle->mutex);
	if (!handle->running || index < 0 || static_cast<size_t>(index) >= handle->requests.size())
		return;
	Request *request = handle->requests[index].get();
	request->reuse(Request::ReuseBuffers);
	request->controls().merge(handle->pending);
	handle->pending.clear();
	handle->camera->queueRequest(request);
}

extern "C" void pinhole_lc_stop_camera(pinhole_lc_camera *handle)
{
	{
		std::lock_guard<std::mutex> lock(handle->mutex);
		if (!handle->running)
			return;
		handle->running = false;
	}
	handle->camera->stop();
}

extern "C" void pinhole_lc_release_generation(pinhole_lc_camera *handle, int generation)
{
	auto &retired = handle->retired;
	for (auto it = retired.begin(); it != retired.end();) {
		if (it->generation == generation) {
			it->unmap();
			it = retired.erase(it);
		} else {
			++it;
		}
	}
}

extern "C" int pinhole_lc_set_control(pinhole_lc_camera *handle, const char *name, int kind, const double *values,
				      int count, char *error, size_t error_size)
{
	const ControlId *id = nullptr;
	for (const auto &entry : handle->camera->controls()) {
		if (entry.first->name() == name) {
			id = entry.first;
			break;
		}
	}
	if (!id) {
		copy_error(error, error_size, std::string("the camera does not report the control ") + name);
		return -1;
	}
	if (count < 1 || (kind == 3 && count % 4 != 0)) {
		copy_error(error, error_size, std::string("no value given for ") + name);
		return -1;
	}
	ControlValue value;
	switch (id->type()) {
	case ControlTypeBool:
		value = ControlValue(values[0] != 0);
		break;
	case ControlTypeByte:
		value = ControlValue(static_cast<uint8_t>(std::lround(values[0])));
		break;
	case ControlTypeInteger32:
		value = ControlValue(static_cast<int32_t>(std::lround(values[0])));
		break;
	case ControlTypeInteger64:
		value = ControlValue(static_cast<int64_t>(std::llround(values[0])));
		break;
	case ControlTypeFloat:
		value = ControlValue(static_cast<float>(values[0]));
		break;
	case ControlTypeRectangle: {
		if (kind != 3) {
			copy_error(error, error_size, std::string(name) + " takes rectangles");
			return -1;
		}
		std::vector<Rectangle> rectangles;
		const Rectangle &crop = handle->crop_max;
		for (int i = 0; i + 3 < count; i += 4) {
			rectangles.emplace_back(crop.x + static_cast<int>(values[i] * crop.width),
						crop.y + static_cast<int>(values[i + 1] * crop.height),
						static_cast<unsigned int>(values[i + 2] * crop.width),
						static_cast<unsigned int>(values[i + 3] * crop.height));
		}
		if (std::string(name) == "AfWindows")
			value = ControlValue(Span<const Rectangle>(rectangles.data(), rectangles.size()));
		else
			value = ControlValue(rectangles[0]);
		break;
	}
	default:
		copy_error(error, error_size, std::string("Pinhole cannot set ") + name + " (unsupported value type)");
		return -1;
	}
	std::lock_guard<std::mutex> lock(handle->mutex);
	handle->pending.set(id->id(), value);
	return 0;
}

extern "C" void pinhole_lc_close(pinhole_lc_camera *handle)
{
	if (!handle)
		return;
	pinhole_lc_stop_camera(handle);
	handle->camera->requestCompleted.disconnect(handle);
	handle->requests.clear();
	handle->planes.clear();
	handle->allocator.reset();
	handle->current.unmap();
	for (MappedSet &set : handle->retired)
		set.unmap();
	handle->camera->release();
	delete handle;
}
