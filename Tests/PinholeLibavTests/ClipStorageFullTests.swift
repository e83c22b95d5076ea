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

    override func tearDown() {
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

        let rig = try SimulatedRecording(store: LibraryClipStore(library: library), bitRate: 200_000)
        let (loop, camera, recorder) = (rig.loop, rig.camera, rig.recorder)
        var events: [RecordingEvent] = []
        recorder.onEvent = { events.append($0) }
        try recorder.start(
            maxSeconds: 120, metadata: ClipMetadata(creationTime: loop.wallNow, make: "Pinhole"))
        loop.advance(by: .seconds(60))
        camera.stop()

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
}
