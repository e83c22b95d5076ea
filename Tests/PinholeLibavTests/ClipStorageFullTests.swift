// A full card through the real library: a recording from the simulated camera (real libx264) ends at the reserve and keeps what it recorded.

import Foundation
import PinholeCapture
import PinholeCore
import PinholeLibav
import PinholeSim
import PinholeTestTools
import XCTest

@testable import PinholeLibrary

final class ClipStorageFullTests: XCTestCase {
    private var mountPoint: String?
    /// A second, smaller file system mounted inside the first (unmounted before it).
    private var innerMountPoint: String?

    override func tearDown() {
        SmallFileSystem.unmount(innerMountPoint)
        SmallFileSystem.unmount(mountPoint)
    }

    /// A 16 MB tmpfs (as the library's storage-full tests use), or a skip where mounting is not allowed.
    private func smallFileSystem() throws -> URL {
        let directory = try ClipTools.temporaryDirectory(for: self)
        try SmallFileSystem.mount(megabytes: 16, on: directory.path)
        mountPoint = directory.path
        return directory
    }

    func testAFullCardEndsARecordingAtTheReserveAndKeepsItsWholeFragments() throws {
        let directory = try smallFileSystem()
        let library = try LibraryClipFixtures.open(directory)  // the default 8 MB reserve
        // Fill the card until 150 kB above the reserve are left: a few seconds at 200 kbit/s.
        let free = try XCTUnwrap(POSIXFiles.freeBytes(at: library.layout.root))
        let filler = directory.appendingPathComponent("filler").path
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: filler, contents: Data(count: Int(free - library.options.reservedBytes - 150_000))))

        let (recorder, events) = try recordOneMinute(into: library)
        guard case .saved(_, let clip, let note?)? = events.last else { return XCTFail("\(events)") }
        XCTAssertTrue(
            note.contains("storage full: the clip ends here, kept up to its last whole fragment"), note)
        XCTAssertTrue(note.contains(" MB free; the library keeps 8.0 MB in reserve"), note)
        XCTAssertNil(recorder.status, "the recording ended")
        XCTAssertGreaterThan(clip.frameCount, 10)
        XCTAssertLessThan(clip.frameCount, 600, "ended by the reserve, long before its 60 s")
        // The file holds whole fragments only: every frame decodes, as many as the clip says.
        XCTAssertEqual(try ClipTools.decodeErrors(clip.path.string), "")
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(clip.path.string), clip.frameCount)
        let asset = try XCTUnwrap(try library.assets(AssetQuery.all.filter(.mediaType(.video))).first)
        XCTAssertEqual(asset.fileSize, POSIXFiles.fileSize(clip.path.string))
        XCTAssertEqual(asset.duration, .milliseconds(100 * clip.frameCount))
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, "\((try? library.fsck().lines) ?? [])")
        // The reserve held: the index stays writable, and the clip can be deleted to make room.
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(POSIXFiles.freeBytes(at: library.layout.root)),
            library.options.reservedBytes - 65_536)
        try library.delete([asset.id])
        try library.purge([asset.id])
        XCTAssertEqual(try library.count(.all), 0)
    }

    /// Records from the simulated camera (real libx264, 200 kbit/s) into `library` for up to a
    /// minute, after `prepare` got the clip's creation time; returns the recorder and its events.
    private func recordOneMinute(
        into library: PhotoLibrary, prepare: (WallTime) throws -> Void = { _ in }
    ) throws -> (ClipRecorder, [RecordingEvent]) {
        let rig = try SimulatedRecording(store: LibraryClipStore(library: library), bitRate: 200_000)
        let (loop, camera, recorder) = (rig.loop, rig.camera, rig.recorder)
        try prepare(loop.wallNow)
        var events: [RecordingEvent] = []
        recorder.onEvent = { events.append($0) }
        try recorder.start(
            maxSeconds: 120, metadata: ClipMetadata(creationTime: loop.wallNow, make: "Pinhole"))
        loop.advance(by: .seconds(60))
        camera.stop()
        return (recorder, events)
    }

    /// The day directory of a clip recorded at `created` in `library`, on a tmpfs of its own of
    /// `kilobytes` kB: the library's reserve (read on the library's root) lets every write
    /// through, and the kernel refuses one with ENOSPC, as when another program fills the card
    /// during a recording.
    private func dayDirectoryOnItsOwnCard(_ library: PhotoLibrary, created: WallTime, kilobytes: Int) throws {
        let day = library.layout.absolute(LibraryLayout.clipPath(id: "x", created: created))
        let directory = String(day[..<day.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mounted = try ExternalTool.run(
            "mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", directory])
        XCTAssertEqual(mounted.status, 0, mounted.errorText)
        innerMountPoint = directory
    }

    func testARealENOSPCMidWriteEndsTheClipAtItsLastWholeFragmentAndSaysSo() throws {
        let directory = try smallFileSystem()
        let library = try LibraryClipFixtures.open(directory)
        let (_, events) = try recordOneMinute(into: library) { created in
            try self.dayDirectoryOnItsOwnCard(library, created: created, kilobytes: 400)
        }
        guard case .saved(_, let clip, let note?)? = events.last else { return XCTFail("\(events)") }
        XCTAssertTrue(
            note.contains(
                "storage full (the file system said ENOSPC: another program filled \(directory.path) past the"
                    + " library's 8.0 MB reserve while recording): the clip ends here, kept up to its last whole"
                    + " fragment; free space on "),
            note)
        XCTAssertGreaterThan(clip.frameCount, 10)
        XCTAssertLessThan(clip.frameCount, 600, "ended by ENOSPC, long before its 60 s")
        // Cut back to its last whole fragment: every frame decodes, as many as the clip says,
        // and the file ends where libavformat's last fragment ends.
        XCTAssertEqual(try ClipTools.decodeErrors(clip.path.string), "")
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(clip.path.string), clip.frameCount)
        XCTAssertEqual(
            try MP4Fragments.wholeLength(of: clip.path.string), POSIXFiles.fileSize(clip.path.string))
        let asset = try XCTUnwrap(try library.assets(AssetQuery.all.filter(.mediaType(.video))).first)
        XCTAssertEqual(asset.fileSize, POSIXFiles.fileSize(clip.path.string))
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, "\((try? library.fsck().lines) ?? [])")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: IndexRoom.path(in: library)), "the room is freed")
    }

    /// A recorded clip (three whole fragments) written into `library`, then the card filled
    /// to its last byte by another program; returns the clip file.
    private func recordedClipOnAFullCard(_ library: PhotoLibrary, in directory: URL) throws -> LibraryClipFile
    {
        let whole = try LibraryClipFixtures.wholeClip(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole.path))
        try FileManager.default.removeItem(atPath: whole.path)
        let clip = try library.beginClip(created: nil)
        try bytes.withUnsafeBytes { try clip.write($0) }
        try clip.sync()
        let filler = open(directory.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o644)
        defer { close(filler) }
        for chunk in [1 << 16, 4096, 1] {
            let block = [UInt8](repeating: 0, count: chunk)
            while block.withUnsafeBytes({ write(filler, $0.baseAddress, chunk) }) == chunk {}
        }
        XCTAssertEqual(POSIXFiles.freeBytes(at: library.layout.root), 0)
        return clip
    }

    private func record(_ library: PhotoLibrary) -> ClipRecord {
        ClipRecord(
            size: LibraryClipFixtures.settings.size, frameRate: 15, codec: "h264", duration: .seconds(3))
    }

    func testAClipOnACardAnotherProgramFilledIsIndexedInTheRoomKeptForIt() throws {
        let directory = try smallFileSystem()
        let library = try LibraryClipFixtures.open(directory)
        let clip = try recordedClipOnAFullCard(library, in: directory)
        let asset = try clip.complete(record(library))
        XCTAssertEqual(try library.asset(id: asset.id)?.mediaType, .video)
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(clip.absolutePath.string), 45)
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, "\((try? library.fsck().lines) ?? [])")
    }

    func testAClipWhoseEntryCannotBeCommittedStaysOnTheCardAndTheNextOpenAdoptsIt() throws {
        let directory = try smallFileSystem()
        var options = LibraryOptions()
        options.clipIndexRoomBytes = 0
        let id: String
        do {
            let library = try LibraryClipFixtures.open(directory, options: options)
            let clip = try recordedClipOnAFullCard(library, in: directory)
            id = String(clip.relative.split(separator: "/").last!.dropLast(4))
            XCTAssertThrowsError(try clip.complete(record(library))) { error in
                XCTAssertEqual(
                    "\(error)",
                    "the clip \(clip.relative) is kept on the card, but the library could not index it (storage"
                        + " full; free space on \(directory.path) (0.0 MB free)); the library adopts it when it next"
                        + " opens (restart Pinhole after freeing space)")
            }
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: clip.absolutePath.string), "the recorded clip is kept")
            XCTAssertEqual(try LibraryClipFixtures.decodedFrames(clip.absolutePath.string), 45)
        }

        try FileManager.default.removeItem(atPath: directory.appendingPathComponent("filler").path)
        let reopened = try LibraryClipFixtures.open(directory, options: options)
        XCTAssertEqual(reopened.recoveryReport.adoptedAssets, [id], "\(reopened.recoveryReport.lines)")
        XCTAssertEqual(try reopened.asset(id: id)?.mediaType, .video)
        XCTAssertTrue(try reopened.fsck(verifyChecksums: true).isClean)
    }
}
