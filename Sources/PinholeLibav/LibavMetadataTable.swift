// Metadata keys and values as the C table (ph_metadata_entry) that VideoShim's muxers read.

import VideoShimInterface

#if canImport(Glibc)
    import Glibc
#endif

/// The one place that hands `(key, value)` pairs to VideoShim as C strings.
enum LibavMetadataTable {
    /// Calls `body` with `entries` as a table of C strings (valid only during the call) and its count.
    static func with<Result>(
        _ entries: [(key: String, value: String)],
        _ body: (UnsafeMutablePointer<ph_metadata_entry>?, Int32) -> Result
    ) -> Result {
        let keys = entries.map { strdup($0.key) }
        let values = entries.map { strdup($0.value) }
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var table = zip(keys, values).map { ph_metadata_entry(key: $0, value: $1) }
        let count = Int32(table.count)
        return table.withUnsafeMutableBufferPointer { body($0.baseAddress, count) }
    }
}
