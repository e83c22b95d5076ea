// Descriptor operations swift-system does not have: fsync, flock, reading to the end.

import CSystemCalls
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileDescriptor {
    /// `fsync(2)`: the file's data and metadata reach the storage device. Counted in
    /// `SyncCount` as a file's sync.
    public func sync() throws(Errno) {
        try sync(counting: .file)
    }

    /// `fsync(2)`, counted in `SyncCount` as `kind`.
    func sync(counting kind: SyncCount.Kind) throws(Errno) {
        SyncCount.count(kind)
        try retryingInterrupts { fsync(rawValue) }
    }

    /// Whether the file system holding this open file writes a renamed file's directory entry
    /// (its size) only with the file's inode, so that the file must be synced again after a
    /// rename to be found whole under its new name: vfat and exFAT (`fstatfs`'s f_type is
    /// MSDOS_SUPER_MAGIC or EXFAT_SUPER_MAGIC). Where the type cannot be read, true (the safe
    /// answer).
    public var needsSyncAfterRename: Bool {
        switch pinhole_file_system_type(rawValue) {
        case 0x4d44, 0x2011_BAB0, 0: true
        default: false
        }
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
