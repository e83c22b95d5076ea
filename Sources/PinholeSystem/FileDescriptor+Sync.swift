// Descriptor operations swift-system does not have: fsync, flock, reading to the end.

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileDescriptor {
    /// `fsync(2)`: the file's data and metadata reach the storage device.
    public func sync() throws(Errno) {
        try retryingInterrupts { fsync(rawValue) }
    }

    /// `flock(2)` with `LOCK_EX | LOCK_NB`: whether an exclusive lock was taken (false while
    /// anyone holds a lock on the file).
    public func tryLockExclusively() -> Bool {
        (try? retryingInterrupts { flock(rawValue, LOCK_EX | LOCK_NB) }) != nil
    }

    /// `flock(2)` with `LOCK_SH`: takes (or converts to) a shared lock, waiting while another
    /// holds it exclusively.
    public func lockShared() throws(Errno) {
        try retryingInterrupts { flock(rawValue, LOCK_SH) }
    }

    /// Reads from the current offset to the end of the file; `sizeHint` (the file's size, if
    /// known) sizes the first allocation.
    public func readToEnd(sizeHint: Int = 0) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: max(0, sizeHint) + 1)
        var filled = 0
        while true {
            if filled == result.count {
                result.append(contentsOf: [UInt8](repeating: 0, count: max(65_536, filled)))
            }
            let count = try result.withUnsafeMutableBytes { buffer in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if count == 0 { break }
            filled += count
        }
        result.removeSubrange(filled...)
        return result
    }
}
