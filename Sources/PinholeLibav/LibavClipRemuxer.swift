// A clip rewritten into another container by libavformat, packets copied: the interchange forms of a Live Photo.

import PinholeCore
import VideoShim

#if canImport(Glibc)
    import Glibc
#endif

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
        let keys = metadata.map { strdup($0.key) }
        let values = metadata.map { strdup($0.value) }
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var table = zip(keys, values).map { ph_metadata_entry(key: $0, value: $1) }
        var error = [CChar](repeating: 0, count: 256)
        let result = table.withUnsafeMutableBufferPointer { entries in
            ph_clip_remux(
                source, destination, container.rawValue, entries.baseAddress, Int32(entries.count), &error,
                error.count)
        }
        guard result == 0 else { throw .writer(LibavClipEncoder.text(error)) }
    }
}
