// A clip rewritten into another container by libavformat, packets copied: the interchange forms of a Live Photo.

import PinholeCore
import VideoShimInterface

/// Rewrites a clip without re-encoding (ph_clip_remux: avformat_alloc_output_context2,
/// av_interleaved_write_frame of every packet, faststart).
public enum LibavClipRemuxer {
    /// The containers a clip can be rewritten into.
    public enum Container: String, Sendable {
        /// A plain (not fragmented) MP4: the Motion Photo's video.
        case mp4
        /// A QuickTime movie: the Apple Live Photo's video.
        case mov
    }

    /// Writes `source`'s video into a new file `destination` as `container`, with `metadata`
    /// added as mdta keys (e.g. `com.apple.quicktime.content.identifier`).
    /// - Throws: `VideoError.writer` naming why.
    public static func rewrite(
        _ source: String, to destination: String, as container: Container,
        metadata: [(key: String, value: String)]
    ) throws(VideoError) {
        let api = try LibavShim.shared().api
        var error = [CChar](repeating: 0, count: 256)
        let result = LibavMetadataTable.with(metadata) { entries, count in
            api.clip_remux!(source, destination, container.rawValue, entries, count, &error, error.count)
        }
        guard result == 0 else { throw .writer(LibavClipEncoder.text(error)) }
    }

    /// The frames of a recording cut before its first fragment was whole: every packet
    /// libavformat reads whole from `source`, from its first keyframe up to the first the cut
    /// shortened, copied into a new plain MP4 `destination` (metadata and rotation kept).
    /// Returns the number of frames copied; 0 when not one is whole (nothing is left to keep:
    /// `destination` may hold a partial file for the caller to remove).
    /// - Throws: `VideoError.writer` when `destination` could not be written.
    public static func salvage(_ source: String, to destination: String) throws(VideoError) -> Int {
        let api = try LibavShim.shared().api
        var error = [CChar](repeating: 0, count: 256)
        var frames: Int32 = 0
        let result = api.clip_salvage!(source, destination, &frames, &error, error.count)
        if result == 1 { return 0 }
        guard result == 0 else { throw .writer(LibavClipEncoder.text(error)) }
        return Int(frames)
    }
}
