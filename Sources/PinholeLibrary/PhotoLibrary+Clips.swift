// Clips recorded into the library: a hidden file that grows fragment by fragment, durable at each, named and indexed at the end.

import PinholeCore
import PinholeImaging
import PinholeLibav
import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the index records of a clip.
public struct ClipRecord: Sendable {
    /// Frame size.
    public var size: PixelSize
    /// Frames per second.
    public var frameRate: Double
    /// The codec (`h264`).
    public var codec: String
    /// Duration.
    public var duration: Duration
    /// Where the trigger falls inside the clip.
    public var triggerOffset: Duration?
    /// Camera make and model.
    public var make: String?
    /// Camera model.
    public var model: String?
    /// When recording started.
    public var created: WallTime?
    /// Where, when known.
    public var latitude: Double?
    /// Where, when known.
    public var longitude: Double?
    /// Where, when known.
    public var altitude: Double?
    /// How far `created` can be trusted.
    public var clockTrust: ClockTrust?
    /// How the frames are turned to be shown upright: the display matrix's clockwise
    /// rotation (from the mount and tilt when recorded), as the asset's orientation.
    public var orientation = Orientation.up

    /// Creates a record.
    public init(size: PixelSize, frameRate: Double, codec: String, duration: Duration) {
        self.size = size
        self.frameRate = frameRate
        self.codec = codec
        self.duration = duration
    }
}

/// A clip being recorded: `.ID.mp4.recording` in its day directory, appended to and made
/// durable at each fragment boundary (`sync`), renamed to `ID.mp4` without replacing anything
/// and indexed by `complete`. A file left by a power cut keeps its complete fragments and is
/// kept by the next recovery pass (see `PhotoLibrary+Recovery`).
public final class LibraryClipFile: @unchecked Sendable {
    let library: PhotoLibrary
    let id: String
    let created: WallTime
    /// The final path, relative to the library.
    public let relative: String
    /// The final path, absolute.
    public var absolutePath: FilePath { FilePath(library.layout.absolute(relative)) }
    /// The hidden path it grows under (as the library's file layer takes it).
    let temporaryPath: String
    /// The hidden file it grows under.
    public var temporaryFile: FilePath { FilePath(temporaryPath) }
    private let fd: FileDescriptor
    private var crc: UInt32 = 0xFFFF_FFFF
    /// Bytes written.
    public private(set) var byteCount: Int64 = 0
    /// The stored form of the checksum of the bytes written so far.
    var checksum: String { Checksum.string(crc32: crc ^ 0xFFFF_FFFF) }
    private var directorySynced = false
    private var closed = false
    /// Whether a write failed (a full card): `complete` then cuts the file back to its whole
    /// fragments.
    private var writeFailed = false
    /// Whether the file system itself refused a write (ENOSPC, EDQUOT) that the reserve had let
    /// through: another program filled the card during the recording.
    public private(set) var fileSystemFull = false
    /// Frames kept when `complete` cut the clip back after a failed write (read back by
    /// libavformat); nil otherwise.
    public private(set) var framesKept: Int?

    init(
        library: PhotoLibrary, id: String, created: WallTime, relative: String, temporaryPath: String,
        fd: FileDescriptor
    ) {
        self.library = library
        self.id = id
        self.created = created
        self.relative = relative
        self.temporaryPath = temporaryPath
        self.fd = fd
    }

    /// The suffix of a clip being recorded.
    static let recordingSuffix = ".recording"

    /// Appends bytes (write(2), all of them).
    /// - Throws: `LibraryError.storageFull` when they would leave less than the library's
    ///   reserve free (nothing is written then: the reserve keeps the index writable, so the
    ///   clip can still be named and indexed), or on ENOSPC; `.fileSystem`. After a failed
    ///   write the clip can only be completed (cut back to its whole fragments) or discarded.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        do {
            guard !writeFailed else {
                throw LibraryError.invalidRequest("the clip \(relative) stopped at a failed write")
            }
            try library.checkReserve(adding: Int64(bytes.count))
            try naming("write", FilePath(temporaryPath)) { _ = try fd.writeAll(bytes) }
        } catch let failure as POSIXFailure {
            writeFailed = true
            fileSystemFull = failure.isStorageFull
            throw LibraryError.from(failure, libraryPath: library.layout.root)
        } catch {
            writeFailed = true
            throw error
        }
        crc = Checksum.update(crc, with: bytes)
        byteCount += Int64(bytes.count)
    }

    /// Makes everything written so far durable: fsync, and the first time the directory too (so
    /// the file's name survives a power cut).
    public func sync() throws {
        do {
            try naming("fsync", FilePath(temporaryPath)) { try fd.sync() }
            if !directorySynced {
                try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: temporaryPath))
                directorySynced = true
            }
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: library.layout.root)
        }
    }

    /// Names the clip (fsync, a rename that never replaces, fsync of the directory) and indexes
    /// it as a video asset. Naming needs no free space, so a clip ended by a full disk is kept:
    /// after a failed write it is first cut back to its last whole fragment and read back by
    /// libavformat (the index then records the frames and duration kept, `framesKept`). One
    /// with no whole fragment stays hidden for the next start's recovery (quarantined there).
    /// - Throws: `LibraryError.clipNotIndexed` when the index entry could not be committed: the
    ///   named file stays, and the next open adopts it.
    public func complete(_ record: ClipRecord) throws -> Asset {
        guard !closed else { throw LibraryError.invalidRequest("the clip \(relative) was already closed") }
        closed = true
        let absolute = library.layout.absolute(relative)
        var record = record
        var (size, checksum) = (byteCount, self.checksum)
        do {
            try naming("close", FilePath(absolute)) {
                try fd.closeAfter {
                    if writeFailed { (size, checksum) = try cutBack(&record) }
                    try naming("fsync", FilePath(temporaryPath)) { try fd.sync() }
                    try DurableFiles.rename(FilePath(temporaryPath), to: FilePath(absolute), replace: false)
                }
            }
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: library.layout.root)
        }
        var asset = Asset(
            clipID: id, path: relative, record: record, added: library.now(),
            created: record.created ?? created, fileSize: size, checksum: checksum)
        asset.mediaType = .video
        let written = WrittenOriginal(asset: asset, path: FilePath(absolute))
        // The room kept for this entry: free again now, so that a card another program filled
        // past the reserve still takes the index's commit.
        IndexRoom.release(in: library)
        do {
            _ = try library.performChanges { batch in _ = batch.adoptKeeping(written) }
        } catch {
            throw LibraryError.clipNotIndexed(path: relative, reason: Self.reason(error))
        }
        return asset
    }

    /// Why indexing failed, in words that fit a clip ("storage full: the photo was not saved"
    /// would not).
    private static func reason(_ error: any Error) -> String {
        guard case let .storageFull(mount, left, reserved)? = error as? LibraryError else {
            return "\(error)"
        }
        return "storage full; free space on \(mount) (\(LibraryError.spaceLeft(left, reserved: reserved)))"
    }

    /// Cuts the file back to its last whole fragment (a write failed inside the next one) and
    /// takes the duration kept from libavformat; returns the new size and checksum.
    private func cutBack(_ record: inout ClipRecord) throws -> (Int64, String) {
        guard let whole = try MP4Fragments.wholeLength(of: temporaryPath) else {
            throw LibraryError.invalidImage(path: temporaryPath, reason: "not an MP4 after its failed write")
        }
        try naming("ftruncate", FilePath(temporaryPath)) { try fd.resize(to: whole) }
        let probed: ProbedClip
        do {
            probed = try LibavClipReader.probe(FilePath(temporaryPath))
        } catch {
            throw LibraryError.invalidImage(
                path: temporaryPath,
                reason:
                    "no whole fragment before the failed write (\(error)); the next start's recovery keeps it aside"
            )
        }
        record.duration = .microseconds(probed.durationMicroseconds)
        framesKept = probed.frameCount
        byteCount = whole
        return (whole, try Checksum.string(ofFile: temporaryPath))
    }

    /// Removes the file (a clip with no frame).
    public func discard() {
        guard !closed else { return }
        closed = true
        try? fd.close()
        _ = unlink(temporaryPath)
        IndexRoom.release(in: library)
    }
}

/// Room for a recording's index entry: a file of `LibraryOptions.clipIndexRoomBytes` in the
/// library's root (where fsck and recovery do not look), allocated when a clip begins and
/// removed just before its entry is committed. It is carved out of the reserve (the reserve
/// checks count it as free). The reserve keeps the index writable against the library's own
/// writes; when another program fills the card past it during a recording (the clip's next
/// write meets ENOSPC), this room still takes the commit. One recording runs at a time; a
/// room left by a power cut is reused by the next.
enum IndexRoom {
    static let name = ".clip-index-room"

    static func path(in library: PhotoLibrary) -> String { library.layout.root + "/" + name }

    /// Allocates the room (best effort: without it, a clip on a card filled by another program
    /// is kept for the next open to index instead).
    static func make(in library: PhotoLibrary) {
        let bytes = library.options.clipIndexRoomBytes
        guard bytes > 0 else { return }
        let fd = open(path(in: library), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        if posix_fallocate(fd, 0, off_t(bytes)) != 0 { _ = ftruncate(fd, 0) }
    }

    /// Frees the room.
    static func release(in library: PhotoLibrary) { _ = unlink(path(in: library)) }

    /// The bytes the room holds now (0 without one).
    static func heldBytes(in library: PhotoLibrary) -> Int64 { POSIXFiles.fileSize(path(in: library)) ?? 0 }
}

extension PhotoLibrary {
    /// Starts a clip recorded at `created` (now when nil): its hidden file in the day directory.
    /// - Throws: `LibraryError.storageFull` when less than the reserve is free, `.fileSystem`.
    public func beginClip(created: WallTime?) throws -> LibraryClipFile {
        let added = now()
        let id = Identifier.make(at: added)
        let when = created ?? added
        let relative = LibraryLayout.clipPath(id: id, created: when)
        let absolute = layout.absolute(relative)
        try checkReserve(adding: 0)
        do {
            try ensureDirectory(POSIXFiles.parentDirectory(of: absolute))
            let temporary =
                POSIXFiles.parentDirectory(of: absolute) + "/." + id + ".mp4"
                + LibraryClipFile.recordingSuffix
            let fd = try openNew(temporary)
            IndexRoom.make(in: self)
            return LibraryClipFile(
                library: self, id: id, created: when, relative: relative, temporaryPath: temporary, fd: fd)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
    }
}

extension Asset {
    /// The record of a new clip.
    init(
        clipID id: String, path: String, record: ClipRecord, added: WallTime, created: WallTime,
        fileSize: Int64,
        checksum: String
    ) {
        var metadata = PhotoMetadata(
            pixelWidth: record.size.width, pixelHeight: record.size.height, orientation: record.orientation)
        metadata.make = record.make
        metadata.model = record.model
        metadata.captureTime = created
        if let latitude = record.latitude, let longitude = record.longitude {
            metadata.gps = GPSFix(latitude: latitude, longitude: longitude, altitude: record.altitude)
        }
        metadata.clockTrust = record.clockTrust
        self.init(
            id: id, path: path, metadata: metadata, added: added, fileSize: fileSize, checksum: checksum)
        mediaType = .video
        duration = record.duration
        frameRate = record.frameRate
        codec = record.codec
        triggerOffset = record.triggerOffset
    }
}
