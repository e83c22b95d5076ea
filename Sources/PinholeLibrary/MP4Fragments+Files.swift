// The whole part of a fragmented MP4 on disk: one open, read through a window of 64 KiB.

import PinholeSystem
import SystemPackage

extension MP4Fragments {
    /// How much of the file is read at once: a hostile file of 8-byte boxes costs one read a
    /// window, not an open and a read a box.
    static let window = 65_536

    /// The length of the whole part of the file at `path` (see `whole(size:read:)`).
    static func wholeLength(of path: String) throws -> Int64? {
        try whole(of: path)?.length
    }

    /// The whole part of the file at `path` and its whole fragments (see `whole(size:read:)`);
    /// nil when it cannot be sized or does not start like an MP4.
    static func whole(of path: String) throws -> (length: Int64, fragments: Int)? {
        guard let size = POSIXFiles.fileSize(path) else { return nil }
        let fd = try naming("open", FilePath(path)) {
            try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        }
        return try fd.closeAfter {
            var start: Int64 = 0
            var held: [UInt8] = []
            return try whole(size: size) { offset, count in
                if offset < start || offset - start + Int64(count) > Int64(held.count) {
                    (start, held) = (
                        offset, try POSIXFiles.read(fd, path: path, at: offset, count: max(count, window))
                    )
                }
                let from = Int(offset - start)
                return Array(held[from..<min(from + count, held.count)])
            }
        }
    }
}
