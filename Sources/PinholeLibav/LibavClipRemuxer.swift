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
}
