// The appliance's clip store on the photo library: recordings grow in the library's own files.

import PinholeCore
import PinholeImaging
import SystemPackage

/// Clips into the library (`PhotoLibrary.beginClip`): durable at each fragment, named and
/// indexed as video assets when they end. Used from the recorder's own thread.
public final class LibraryClipStore: ClipStore, @unchecked Sendable {
    /// The library the clips go into.
    public let library: PhotoLibrary

    /// A store on `library`.
    public init(library: PhotoLibrary) { self.library = library }

    /// Starts a clip in the library (`PhotoLibrary.beginClip`).
    public func beginClip(startedAt: WallTime?) throws -> any ClipRecording {
        LibraryClipRecording(file: try library.beginClip(created: startedAt))
    }
}

/// One recording: the library's clip file behind the recorder's sink.
final class LibraryClipRecording: ClipRecording {
    let file: LibraryClipFile

    init(file: LibraryClipFile) { self.file = file }

    func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        do {
            try file.write(bytes)
        } catch LibraryError.storageFull(let mount, let left, let reserved) {
            // The file system itself refused the write (ENOSPC) that the reserve let through:
            // something besides the library is filling the card.
            let cause =
                !file.fileSystemFull
                ? ""
                : " (the file system said ENOSPC: another program filled \(mount) past the library's "
                    + "\(LibraryError.megabytes(file.library.options.reservedBytes)) MB reserve while recording)"
            throw .storage(
                "storage full\(cause): the clip ends here, kept up to its last whole fragment; free space on"
                    + " \(mount) (\(LibraryError.spaceLeft(left, reserved: reserved)))")
        } catch {
            throw .storage("\(error)")
        }
    }

    func fragmentCompleted() throws(VideoError) {
        do { try file.sync() } catch { throw .storage("\(error)") }
    }

    func complete(_ facts: ClipFacts) throws -> SavedClip {
        var record = ClipRecord(
            size: facts.size, frameRate: Double(facts.fps), codec: facts.codec,
            duration: .microseconds(facts.durationMicroseconds))
        record.triggerOffset = .microseconds(facts.triggerMicroseconds)
        record.make = facts.metadata.make
        record.model = facts.metadata.model
        record.created = facts.metadata.creationTime
        record.latitude = facts.metadata.latitude
        record.longitude = facts.metadata.longitude
        record.altitude = facts.metadata.altitude
        record.clockTrust = facts.metadata.clockTrust
        record.orientation = Orientation(mountRotation: facts.metadata.rotationDegrees)
        // Indexing tells the library's observers (the status line, the menu) as a photo does.
        let asset = try file.complete(record)
        return SavedClip(
            id: asset.id, path: file.absolutePath, byteCount: asset.fileSize,
            frameCount: file.framesKept ?? facts.frameCount,
            durationSeconds: Double(asset.duration?.nanoseconds ?? facts.durationMicroseconds * 1000) / 1e9)
    }

    func discard() { file.discard() }
}

extension LibraryClipStore {
    /// A Live Photo's motion clip: written into memory (a few MB for 3 s), then stored beside
    /// the still by `PhotoLibrary.attachMotion(to:clipBytes:stillOffset:)`.
    public func attachMotion(
        toPhoto photoID: String, write: (any ClipSink) throws(VideoError) -> MotionWindow
    ) throws -> FilePath {
        let sink = MemoryClipSink()
        let window = try write(sink)
        let asset = try library.attachMotion(
            to: photoID, clipBytes: sink.bytes, stillOffset: .microseconds(window.stillOffsetMicroseconds))
        return library.motionFilePath(of: asset) ?? library.fileURLPath(of: asset)
    }
}
