// New originals written durably while they are produced (the camera's encoder streams into the file), then indexed.

import PinholeCore
import PinholeImaging
import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An original written by `writeOriginal(metadata:synced:producing:)`, not yet in the index:
/// `add(_:toAlbum:)` indexes it, `discard(_:)` removes it. Written durably under its final
/// name, one never indexed (the process stopped between the two) is adopted by the next
/// recovery pass; written unsynced, it waits under a temporary name for `settle(_:)` (which
/// `add` calls), and one the process left there is removed by the next recovery pass (it was
/// never acknowledged).
public struct WrittenOriginal: Sendable {
    let asset: Asset
    /// The file's absolute path (once settled).
    public let path: FilePath
    /// The temporary file holding the unsynced bytes; nil once durable under `path`.
    let unsettledPath: String?
    /// Its size in bytes.
    public var byteCount: Int64 { asset.fileSize }
    /// Whether the file is durable under `path` (synced, renamed, its name synced).
    public var isSettled: Bool { unsettledPath == nil }

    init(asset: Asset, path: FilePath, unsettledPath: String? = nil) {
        self.asset = asset
        self.path = path
        self.unsettledPath = unsettledPath
    }
}

/// Writes chunks to a file descriptor, keeping the running CRC-32 and size.
private final class OriginalFileSink: ByteSink {
    let fd: FileDescriptor
    let path: String
    var crc: UInt32 = 0xFFFF_FFFF
    var count: Int64 = 0

    init(fd: FileDescriptor, path: String) {
        self.fd = fd
        self.path = path
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try naming("write", FilePath(path)) { _ = try fd.writeAll(bytes) }
        crc = Checksum.update(crc, with: bytes)
        count += Int64(bytes.count)
    }
}

extension PhotoLibrary {
    /// Writes a new original whose bytes `produce` writes into the sink, chunk by chunk, so
    /// the whole file is never in memory: a new temporary file in the photo's day directory,
    /// then (`settle(_:)`) `fsync`, a rename onto the final name that never replaces a file (on
    /// vfat and exFAT `fsync` again), `fsync` of the directory (as `add(jpeg:metadata:)` does).
    /// With `synced` false the file is returned unsettled, under its temporary name: the
    /// encoder's thread moves on, and `add(_:toAlbum:)` settles it on the indexing thread
    /// before the commit (the same syncs, in the same order). May run on several threads at once.
    /// - Throws: `LibraryError.storageFull` when the photo would leave less than the reserve
    ///   free (checked before and after writing), `.fileSystem` naming the call and path, or
    ///   what `produce` throws; no file is left behind then.
    public func writeOriginal(
        metadata: PhotoMetadata, synced: Bool = true, producing produce: (any ByteSink) throws -> Void
    ) throws -> WrittenOriginal {
        let added = now()
        let id = Identifier.make(at: added)
        let relative = LibraryLayout.originalPath(id: id, created: metadata.captureTime ?? added)
        let absolute = layout.absolute(relative)
        try checkReserve(adding: 0)
        do {
            try ensureDirectory(POSIXFiles.parentDirectory(of: absolute))
            let temp = DurableFiles.temporaryPath(for: FilePath(absolute)).string
            let fd: FileDescriptor
            do {
                fd = try openNew(temp)
            } catch let failure as POSIXFailure where failure.errno == .noSuchFileOrDirectory {
                // A purge removed the day directory meanwhile.
                try ensureDirectory(POSIXFiles.parentDirectory(of: absolute))
                fd = try openNew(temp)
            }
            let sink = OriginalFileSink(fd: fd, path: temp)
            try naming("close", FilePath(absolute)) {
                try fd.closeAfter {
                    do {
                        try produce(sink)
                        try checkReserve(adding: 0)
                        if synced { try Self.syncAndRename(fd, temp, to: absolute) }
                    } catch {
                        _ = unlink(temp)
                        throw error
                    }
                }
            }
            let asset = Asset(
                id: id, path: relative, metadata: metadata, added: added, fileSize: sink.count,
                checksum: Checksum.string(crc32: sink.crc ^ 0xFFFF_FFFF))
            guard synced else {
                return WrittenOriginal(asset: asset, path: FilePath(absolute), unsettledPath: temp)
            }
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
            return WrittenOriginal(asset: asset, path: FilePath(absolute))
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
    }

    /// Makes an original written unsynced durable under its final name: `fsync` of the
    /// temporary file, a rename that never replaces a file (on vfat and exFAT `fsync` again),
    /// `fsync` of the directory. Returns it settled (one already settled as it is). On failure
    /// the temporary file is removed.
    /// - Throws: `LibraryError.fileSystem` naming the call and path.
    public func settle(_ original: WrittenOriginal) throws -> WrittenOriginal {
        guard let temp = original.unsettledPath else { return original }
        do {
            let fd: FileDescriptor
            do {
                fd = try naming("open", FilePath(temp)) {
                    try FileDescriptor.open(FilePath(temp), .readOnly, options: [.closeOnExec])
                }
            } catch {
                _ = unlink(temp)
                throw error
            }
            try naming("close", original.path) {
                try fd.closeAfter {
                    do {
                        try Self.syncAndRename(fd, temp, to: original.path.string)
                    } catch {
                        _ = unlink(temp)
                        throw error
                    }
                }
            }
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: original.path.string))
            return WrittenOriginal(asset: original.asset, path: original.path)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
    }

    /// `fsync` of the open temporary file, its rename onto `path` (never replacing a file),
    /// and on vfat and exFAT `fsync` again.
    private static func syncAndRename(_ fd: FileDescriptor, _ temp: String, to path: String) throws {
        try naming("fsync", FilePath(temp)) { try fd.sync() }
        try DurableFiles.rename(FilePath(temp), to: FilePath(path), replace: false)
        if fd.needsSyncAfterRename { try naming("fsync", FilePath(path)) { try fd.sync() } }
    }

    /// Indexes a written original (settling it first when it was written unsynced), in the
    /// album titled `album` in the same change batch when given and it exists (otherwise
    /// outside any album: never lost). Removes the file again when indexing fails.
    public func add(_ original: WrittenOriginal, toAlbum album: String? = nil) throws -> Asset {
        let original = try settle(original)
        let albumID = try album.flatMap { title in try albums().first { $0.title == title }?.id }
        _ = try performChanges { batch in
            let id = batch.adopt(original)
            if let albumID { batch.addAssets([id], to: albumID) }
        }
        return original.asset
    }

    /// Removes a written original that will not be indexed.
    public func discard(_ original: WrittenOriginal) {
        guard let temp = original.unsettledPath else { return discardOriginal(original.asset) }
        _ = unlink(temp)
    }

    /// Throws `storageFull` when less than the reserve (plus `bytes`) is free.
    func checkReserve(adding bytes: Int64) throws {
        if let free = freeBytes(), free - bytes < options.reservedBytes {
            throw LibraryError.storageFull(
                mount: FilePath(POSIXFiles.mountPoint(of: layout.root)), bytesLeft: free,
                reservedBytes: options.reservedBytes)
        }
    }

    /// Free bytes on the library's file system, counting a recording's index room
    /// (`IndexRoom`) as free: it is part of the reserve, given back before the clip's entry.
    func freeBytes() -> Int64? {
        POSIXFiles.freeBytes(at: layout.root).map { $0 + IndexRoom.heldBytes(in: self) }
    }

    func openNew(_ path: String) throws -> FileDescriptor {
        try naming("open", FilePath(path)) {
            try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        }
    }
}
