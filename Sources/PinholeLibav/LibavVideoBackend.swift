// The libav video backend: which H.264 encoders exist here, and encoders and MP4 writers from them.

import PinholeCore
import VideoShimInterface

/// Opens libavcodec encoders and libavformat MP4 writers.
public struct LibavVideoBackend: VideoBackend {
    /// Creates the backend.
    public init() {}

    /// Whether libavcodec has the encoder (ph_video_encoder_available: avcodec_find_encoder_by_name).
    /// For v4l2m2m this says only that libavcodec was built with it, not that a device exists.
    /// Loads the video shim and libav (false when they cannot be loaded: `load` says why).
    public func available(_ encoder: VideoEncoderKind) -> Bool {
        guard let api = try? LibavShim.shared().api else { return false }
        return api.encoder_available!(encoder.codecName) != 0
    }

    /// Loads the video shim and libav now, as the first recording or clip read would, and
    /// returns libav's version (`pinhole doctor`).
    /// - Throws: `VideoError.unavailable` saying what is missing and what to install.
    public func load() throws(VideoError) -> String {
        try LibavShim.shared().version
    }

    /// The options the shim gives libx264 besides preset superfast and tune zerolatency
    /// (`x264-params`, video_shim.h's PH_X264_PARAMS); the bench hands `ffmpeg` the same.
    public static let x264Parameters = PH_X264_PARAMS

    /// Opens an encoder.
    public func makeEncoder(_ settings: ClipEncoderSettings) throws(VideoError) -> any ClipEncoder {
        try LibavClipEncoder(settings)
    }

    /// Starts a fragmented MP4 in `sink`.
    public func makeWriter(
        settings: ClipEncoderSettings, codecHeader: [UInt8], metadata: ClipMetadata, sink: any ClipSink
    ) throws(VideoError) -> any ClipWriter {
        try LibavClipWriter(settings: settings, codecHeader: codecHeader, metadata: metadata, sink: sink)
    }
}
