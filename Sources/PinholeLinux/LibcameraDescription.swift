// Turns the shim's text description of a libcamera camera into a CameraInfo.

import PinholeCore

/// A libcamera pixel format Pinhole can hand to its encoder, with how to get there.
struct LibcameraFormat: Hashable, Sendable {
    /// libcamera's name (fourcc-like), e.g. "YUV420", "BGR888".
    var name: String
    /// The format of the RawImage Pinhole makes from it.
    var pixelFormat: PixelFormat
    /// Whether red and blue must be swapped while copying (RGB888 is B,G,R in memory).
    var swapRedBlue: Bool

    /// Formats in order of preference for stills.
    static let supported: [LibcameraFormat] = [
        LibcameraFormat(name: "YUV420", pixelFormat: .yuv420, swapRedBlue: false),
        LibcameraFormat(name: "NV12", pixelFormat: .nv12, swapRedBlue: false),
        LibcameraFormat(name: "BGR888", pixelFormat: .rgb888, swapRedBlue: false),
        LibcameraFormat(name: "RGB888", pixelFormat: .rgb888, swapRedBlue: true),
        LibcameraFormat(name: "XRGB8888", pixelFormat: .xrgb8888, swapRedBlue: false),
        LibcameraFormat(name: "XBGR8888", pixelFormat: .xrgb8888, swapRedBlue: true),
    ]

    /// The supported format with libcamera name `name`.
    static func named(_ name: String) -> LibcameraFormat? { supported.first { $0.name == name } }
}

/// What the shim reported about one camera.
struct LibcameraDescription {
    var info: CameraInfo
    /// Still formats offered that Pinhole handles, in preference order, with their sizes.
    var stillFormats: [LibcameraFormat: [PixelSize]]
    /// Viewfinder formats offered that Pinhole handles.
    var viewfinderFormats: [LibcameraFormat: [PixelSize]]
    /// Video (VideoRecording role) formats offered that Pinhole handles.
    var videoFormats: [LibcameraFormat: [PixelSize]]

    /// Frame rates Pinhole offers for video: those of these the camera's FrameDurationLimits
    /// allow; all of them where it reports no limits (it then runs at its own rate).
    static let standardFrameRates = [5, 10, 15, 24, 25, 30, 50, 60]

    /// Parses the shim's description (see camera_shim.h, pinhole_lc_describe).
    init(text: String) {
        var id = "?"
        var model: String?
        var position = CameraPosition.external
        var pixelArray: PixelSize?
        var stills: [LibcameraFormat: [PixelSize]] = [:]
        var viewfinders: [LibcameraFormat: [PixelSize]] = [:]
        var videos: [LibcameraFormat: [PixelSize]] = [:]
        var controls: [String: ControlRange] = [:]
        var frameDurations: ControlRange?
        var recommendedStill: PixelSize?
        var recommendedViewfinder: PixelSize?
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let key = words.first else { continue }
            let rest = words.dropFirst()
            switch key {
            case "id": id = rest.joined(separator: " ")
            case "model": model = rest.joined(separator: " ")
            case "location":
                position = ["0": .front, "1": .back].first { $0.key == rest.first }?.value ?? .external
            case "pixel_array":
                if let size = Self.size(Array(rest)) { pixelArray = size }
            case "video_default": continue
            case "frame_duration":
                guard rest.count == 2, let min = Self.number(words[1]), let max = Self.number(words[2]),
                    min > 0
                else { continue }
                frameDurations = ControlRange(min: min, max: Swift.max(min, max))
            case "still_default", "viewfinder_default":
                guard rest.count == 3, let size = Self.size(Array(rest.dropFirst())) else { continue }
                if key == "still_default" { recommendedStill = size } else { recommendedViewfinder = size }
            case "still", "viewfinder", "video":
                guard rest.count == 3, let format = LibcameraFormat.named(words[1]),
                    let size = Self.size(Array(rest.dropFirst()))
                else { continue }
                switch key {
                case "still": stills[format, default: []].append(size)
                case "viewfinder": viewfinders[format, default: []].append(size)
                default: videos[format, default: []].append(size)
                }
            case "control":
                guard words.count == 6 else { continue }
                let (name, type) = (words[1], words[2])
                if type == "rect" && name == "ScalerCrop" {
                    controls[name] = ControlRange(
                        min: 1,
                        max: Self.zoomLimit(smallest: Self.number(words[3]), largest: Self.number(words[4])))
                } else if type == "rect" {
                    controls[name] = ControlRange(min: 0, max: 1)
                } else if ["bool", "int", "float"].contains(type), let min = Self.number(words[3]),
                    let max = Self.number(words[4])
                {
                    controls[name] = ControlRange(min: min, max: max, defaultValue: Self.number(words[5]))
                }
            default: continue
            }
        }
        let byArea: (PixelSize, PixelSize) -> Bool = { $0.width * $0.height > $1.width * $1.height }
        // The pipeline's recommended size comes first: the engine configures the first size
        // (full sensor resolution on a Raspberry Pi; a sensible size on vimc instead of its
        // 4096×2160 maximum).
        func ordered(_ sizes: [PixelSize], recommended: PixelSize?) -> [PixelSize] {
            let sorted = Array(Set(sizes)).sorted(by: byArea)
            guard let recommended, sorted.contains(recommended) else { return sorted }
            return [recommended] + sorted.filter { $0 != recommended }
        }
        let stillSizes = ordered(Array(stills.values.joined()), recommended: recommendedStill)
        let viewfinderSizes = ordered(Array(viewfinders.values.joined()), recommended: recommendedViewfinder)
        let formats = LibcameraFormat.supported.filter { stills[$0] != nil }.map(\.pixelFormat)
        var uniqueFormats: [PixelFormat] = []
        for format in formats where !uniqueFormats.contains(format) { uniqueFormats.append(format) }
        let videoSizes = Array(Set(videos.values.joined())).sorted(by: byArea)
        info = CameraInfo(
            id: id, model: model ?? id, position: position,
            pixelArraySize: pixelArray ?? stillSizes.max(by: byArea) ?? PixelSize(width: 0, height: 0),
            stillSizes: stillSizes, viewfinderSizes: viewfinderSizes, stillFormats: uniqueFormats,
            controls: controls, videoSizes: videoSizes,
            videoFrameRates: videoSizes.isEmpty ? [] : Self.frameRates(limits: frameDurations))
        stillFormats = stills
        viewfinderFormats = viewfinders
        videoFormats = videos
    }

    /// The standard rates whose frame duration (µs) lies within FrameDurationLimits.
    static func frameRates(limits: ControlRange?) -> [Int] {
        guard let limits else { return standardFrameRates }
        return standardFrameRates.filter { rate in
            let duration = 1_000_000 / Double(rate)
            return duration >= limits.min && duration <= limits.max
        }
    }

    /// The zoom ScalerCrop allows: its largest crop over its smallest, where the camera lists a
    /// smallest crop with some width; else 8 (the Raspberry Pi pipeline lists an empty smallest
    /// crop and scales any crop its ISP accepts).
    static func zoomLimit(smallest: Double?, largest: Double?) -> Double {
        guard let smallest, let largest, smallest.isFinite, largest.isFinite, smallest > 0,
            largest >= smallest
        else { return 8 }
        return max(1, largest / smallest)
    }

    private static func size(_ words: [String]) -> PixelSize? {
        guard words.count == 2, let width = Int(words[0]), let height = Int(words[1]) else { return nil }
        return PixelSize(width: width, height: height)
    }

    private static func number(_ word: String) -> Double? {
        guard !word.lowercased().contains("nan"), let value = Double(word), value.isFinite else { return nil }
        return value
    }
}
