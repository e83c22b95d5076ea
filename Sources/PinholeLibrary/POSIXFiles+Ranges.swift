// The library's file calls for files too large to read whole (clips): a range read, a durable truncation, a streamed read.

import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension POSIXFiles {
    /// Up to `count` bytes of `path` from `offset` (fewer at the end of the file).
    static func read(_ path: String, at offset: Int64, count: Int) throws -> [UInt8] {
        let fd = try naming("open", FilePath(path)) {
            try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        }
        return try naming("pread", FilePath(path)) {
            try fd.closeAfter {
                var bytes = [UInt8](repeating: 0, count: count)
                var filled = 0
                while filled < count {
                    let read = try bytes.withUnsafeMutableBytes { buffer in
                        try fd.read(
                            fromAbsoluteOffset: offset + Int64(filled),
                            into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                    }
                    if read == 0 { break }
                    filled += read
                }
                return Array(bytes[0..<filled])
            }
        }
    }

    /// Cuts `path` to `length` bytes and makes that durable (ftruncate, fsync).
    static func truncateDurably(_ path: String, to length: Int64) throws {
        let fd = try naming("open", FilePath(path)) {
            try FileDescriptor.open(FilePath(path), .writeOnly, options: .closeOnExec)
        }
        try naming("ftruncate", FilePath(path)) {
            try fd.closeAfter {
                try fd.resize(to: length)
                try fd.sync()
            }
        }
    }

    /// Calls `body` with successive pieces (at most 1 MB each) of the regular file `path`, for
    /// input from outside the library: a link is not followed, a FIFO or device is refused.
    static func forEachChunk(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try withRegularFile(path) { fd, _ in
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = try naming("read", FilePath(path)) {
                    try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
                }
                if count == 0 { return }
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }
}
