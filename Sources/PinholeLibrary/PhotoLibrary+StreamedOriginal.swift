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

/// An original written durably under its final name by `writeOriginal(metadata:producing:)`,
/// not yet in the index: `add(_:toAlbum:)` indexes it, `discard(_:)` removes it. One never
/// indexed (the process stopped between the two) is adopted by the next recovery pass.
public struct WrittenOriginal: Sendable {
    let asset: Asset
    /// The file's absolute path.
    public let path: FilePath
    /// Its size in bytes.
    public var byteCount: Int64 { asset.fileSize }
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
    /// `fsync`, a rename onto the final name that never replaces a file (on vfat and exFAT
    /// `fsync` again), `fsync` of the directory (as `add(jpeg:metadata:)` does). May run on several threads at once.
    /// - Throws: `LibraryError.storageFull` when the photo would leave less than the reserve
    ///   free (checked before and after writing), `.fileSystem` naming the call and path, or
    ///   what `produce` throws; no file is left behind then.
    public func writeOriginal(
        metadata: PhotoMetadata, producing produce: (any ByteSink) throws -> Void
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
                        try naming("fsync", FilePath(temp)) { try fd.sync() }
                        try DurableFiles.rename(FilePath(temp), to: FilePath(absolute), replace: false)
                    } catch {
                        _ = unlink(temp)
                        throw error
                    }
                    if fd.needsSyncAfterRename { try naming("fsync", FilePath(absolute)) { try fd.sync() } }
                }
            }
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
            let asset = Asset(
                id: id, path: relative, metadata: metadata, added: added, fileSize: sink.count,
                checksum: Checksum.string(crc32: sink.crc ^ 0xFFFF_FFFF))
            return WrittenOriginal(asset: asset, path: FilePath(absolute))
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
    }

    /// Indexes a written original, in the album titled `album` in the same change batch when
    /// given and it exists (otherwise outside any album: never lost). Removes the file again
    /// when indexing fails.
    public func add(_ original: WrittenOriginal, toAlbum album: String? = nil) throws -> Asset {
        let albumID = try album.flatMap { title in try albums().first { $0.title == title }?.id }
        _ = try performChanges { batch in
            let id = batch.adopt(original)
            if let albumID { batch.addAssets([id], to: albumID) }
        }
        return original.asset
    }

    /// Removes a written original that will not be indexed.
    public func discard(_ original: WrittenOriginal) {
        discardOriginal(original.asset)
    }

    /// Throws `storageFull` when less than the reserve (plus `bytes`) is free.
    func checkReserve(adding bytes: Int64) throws {
        if let free = POSIXFiles.freeBytes(at: layout.root), free - bytes < options.reservedBytes {
            throw LibraryError.storageFull(
                mount: FilePath(POSIXFiles.mountPoint(of: layout.root)), bytesLeft: free)
        }
    }

    func openNew(_ path: String) throws -> FileDescriptor {
        try naming("open", FilePath(path)) {
            try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        }
    }
}
