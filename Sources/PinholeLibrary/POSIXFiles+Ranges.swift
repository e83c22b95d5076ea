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
        return try fd.closeAfter { try read(fd, path: path, at: offset, count: count) }
    }

    /// Up to `count` bytes of the open file `fd` (named `path` in errors) from `offset`.
    static func read(_ fd: FileDescriptor, path: String, at offset: Int64, count: Int) throws -> [UInt8] {
        try naming("pread", FilePath(path)) {
            var bytes = [UInt8](repeating: 0, count: max(0, count))
            var filled = 0
            while filled < bytes.count {
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

    /// Cuts `path` to `length` bytes and makes that durable (ftruncate, fsync).
    static func truncateDurably(_ path: String, to length: Int64) throws {
        try withWritable(path) { try $0.resize(to: length) }
    }

    /// Makes a file's contents durable (fsync), as a file another library wrote needs before it
    /// is named.
    static func syncFile(_ path: String) throws {
        try withWritable(path) { _ in }
    }

    /// Opens `path` for writing, calls `body`, then fsyncs and closes it.
    private static func withWritable(_ path: String, _ body: (FileDescriptor) throws -> Void) throws {
        let fd = try naming("open", FilePath(path)) {
            try FileDescriptor.open(FilePath(path), .writeOnly, options: .closeOnExec)
        }
        try naming("ftruncate/fsync", FilePath(path)) {
            try fd.closeAfter {
                try body(fd)
                try fd.sync()
            }
        }
    }

    /// Calls `body` with successive pieces (at most `chunkBytes` each, 1 MB unless told) of the
    /// regular file `path` from `offset`, `count` bytes or to its end, for input from outside the
    /// library: a link is not followed, a FIFO or device is refused. One buffer of `chunkBytes`
    /// is held, whatever the file's size.
    static func forEachChunk(
        of path: String, from offset: Int64 = 0, count: Int64? = nil, chunkBytes: Int = 1 << 20,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try withRegularFile(path) { fd, _ in
            var buffer = [UInt8](repeating: 0, count: max(1, chunkBytes))
            var position = offset
            var left = count ?? Int64.max
            while left > 0 {
                let wanted = Int(min(Int64(buffer.count), left))
                let read = try naming("pread", FilePath(path)) {
                    try buffer.withUnsafeMutableBytes {
                        try fd.read(
                            fromAbsoluteOffset: position,
                            into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted]))
                    }
                }
                if read == 0 {
                    guard count == nil else {
                        throw LibraryError.invalidImage(
                            path: path, reason: "ended \(left) bytes early while being read (cut meanwhile?)")
                    }
                    return
                }
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
                position += Int64(read)
                left -= Int64(read)
            }
        }
    }

    /// Writes what `produce` hands its writer to `path` durably, piece by piece (see
    /// `writeDurably(_:to:replace:)`), for files too large to hold whole.
    static func writeDurably(
        to path: String, replace: Bool = false,
        producing produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        try DurableFiles.write(to: FilePath(path), replace: replace, producing: produce)
    }
}
