// The video shim (libPinholeVideo.so, which links libav), loaded with dlopen on first use.

import PinholeCore
import PinholeSystem
import SystemPackage
import VideoShimInterface

/// The C shim's functions, from a shared object of its own that `pinhole` loads only when a
/// recording, a clip read (probe, poster, import, Live Photo export, open-time adoption of a cut
/// recording) or `pinhole doctor` first needs it, so that an appliance that never touches video
/// maps none of libavcodec, libavformat and libavutil, nor the ~130 shared objects they pull in
/// (docs/BENCHMARKS.md, idle resident memory).
///
/// Looked for as the camera shim is (`SharedObject`): beside the executable, then in
/// `../lib/pinhole` (the .deb's /usr/lib/pinhole/libPinholeVideo.so).
struct LibavShim: @unchecked Sendable {
    /// The shared object's file name (the `PinholeVideo` dynamic library product).
    static let fileName = "libPinholeVideo.so"

    /// What to install when the shim or libav is missing.
    static let remedy =
        "install FFmpeg's libavcodec, libavformat and libavutil (Debian 12: apt-get install libavcodec59"
        + " libavformat59 libavutil57), or reinstall the pinhole package, which depends on them"

    let api: ph_video_api

    /// The process's shim, loaded on the first call (any thread; later calls reuse it).
    /// - Throws: `VideoError.unavailable` saying what could not be loaded and what to install.
    static func shared() throws(VideoError) -> LibavShim {
        switch loaded {
        case .success(let shim): return shim
        case .failure(let error): throw error
        }
    }

    private static let loaded: Result<LibavShim, VideoError> = Result {
        () throws(VideoError) -> LibavShim in
        try load(from: SharedObject.candidates(fileName, beside: SharedObject.executable()))
    }

    /// Opens the first candidate that loads and takes its function table.
    static func load(from candidates: [FilePath]) throws(VideoError) -> LibavShim {
        do {
            return LibavShim(
                api: try SharedObject.functionTable(PH_VIDEO_API_SYMBOL, from: candidates) {
                    (api: ph_video_api) in api.isComplete
                })
        } catch {
            switch error {
            case .notLoaded(let failure):
                throw .unavailable(
                    "recording and clips need libavcodec through \(fileName), which could not be loaded (\(failure)): "
                        + remedy)
            case .noTable(let path, let failure):
                throw .unavailable(
                    "\(path) is not Pinhole's video shim (\(failure)): reinstall the pinhole package")
            case .incomplete(let path):
                throw .unavailable(
                    "\(path) is an incomplete video shim (another Pinhole version?): reinstall the pinhole package"
                )
            }
        }
    }

    /// libav's version (av_version_info).
    var version: String { api.libav_version!().map { String(cString: $0) } ?? "unknown" }
}

extension ph_video_api {
    /// Every entry is set (the C type allows null ones).
    fileprivate var isComplete: Bool {
        encoder_available != nil && encoder_open != nil && encoder_send != nil && encoder_receive != nil
            && encoder_extradata != nil && encoder_close != nil && writer_open != nil && writer_write != nil
            && writer_finish != nil && writer_abort != nil && clip_probe != nil && clip_decode_frame != nil
            && clip_remux != nil && clip_salvage != nil && libav_version != nil
    }
}
