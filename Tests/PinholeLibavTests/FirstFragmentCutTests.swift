// Recordings cut before their first fragment was whole: the frames written whole are kept, an empty one is removed.

import Foundation
import PinholeCore
import PinholeLibav
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class FirstFragmentCutTests: XCTestCase {
    /// The library's recording file holding the first `count` bytes of a whole clip, as a
    /// power cut or a kill leaves it; returns its path and the clip's identifier.
    func recording(in directory: URL, holding bytes: Data, count: Int) throws -> (path: String, id: String) {
        let library = try LibraryClipFixtures.open(directory)
        let clip = try library.beginClip(created: nil)
        try bytes.prefix(count).withUnsafeBytes { try clip.write($0) }
        try clip.sync()
        return (clip.temporaryPath, clip.id)
    }

    /// Where each packet of `path` ends (byte offset after its last byte), in file order.
    func packetEnds(_ path: String) throws -> [Int] {
        let result = try ClipTools.run(
            "ffprobe", ["-v", "error", "-show_entries", "packet=pos,size", "-of", "csv=p=0", path])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields.count == 2 ? fields[0] + fields[1] : nil
        }
    }

    func assertNothingLeft(_ library: PhotoLibrary, recording: String, line: UInt = #line) throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: recording), "no orphan left", line: line)
        let quarantine = library.directory.appending("quarantine").string
        XCTAssertEqual(
            (try? FileManager.default.contentsOfDirectory(atPath: quarantine)) ?? [], [], line: line)
        let fsck = try library.fsck(verifyChecksums: true)
        XCTAssertTrue(fsck.isClean, "\(fsck.lines)", line: line)
        XCTAssertEqual(fsck.quarantinedFiles, 0, line: line)
    }

    func testARecordingCutBeforeItsFirstWholeFrameIsRemovedAndSaysSo() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let whole = try LibraryClipFixtures.wholeClip(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole.path))
        let header = Array(Set(whole.boundaries)).sorted()[0]
        let firstFrameEnd = try XCTUnwrap(packetEnds(whole.path).first)
        // The header alone (the first fragment still in the muxer's memory), a cut inside the
        // first fragment's header or first frame, and a file cut inside its own header.
        for (index, count) in [header, header + 100, firstFrameEnd - 1, 0, 20].enumerated() {
            let library = directory.appendingPathComponent("cut\(index)")
            let (path, id) = try recording(in: library, holding: bytes, count: count)
            let reopened = try LibraryClipFixtures.open(library)
            let report = reopened.recoveryReport
            XCTAssertEqual(report.removedRecordings, [id], "\(count): \(report.lines)")
            XCTAssertEqual(report.quarantinedFiles, [], "\(count): \(report.lines)")
            XCTAssertEqual(report.adoptedRecordings, [], "\(count): \(report.lines)")
            XCTAssertTrue(
                report.lines.contains(
                    "removed recording cut before its first frame \(id): not one whole frame in it, nothing to keep"
                ),
                "\(report.lines)")
            XCTAssertEqual(try reopened.count(.all), 0)
            try assertNothingLeft(reopened, recording: path)
            XCTAssertTrue(try LibraryClipFixtures.open(library).recoveryReport.isClean)
        }
    }

    func testARecordingCutInsideItsFirstFragmentKeepsEveryFrameWrittenWhole() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let whole = try LibraryClipFixtures.wholeClip(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole.path))
        let ends = Array(Set(whole.boundaries)).sorted()
        let cut = (ends[0] + ends[1]) / 2  // in the middle of the first fragment's frames
        let wholeBeforeCut = try packetEnds(whole.path).filter { $0 < cut }.count
        XCTAssertGreaterThan(wholeBeforeCut, 1)
        XCTAssertLessThan(wholeBeforeCut, 15)
        let path = try recording(in: directory, holding: bytes, count: cut).path

        let reopened = try LibraryClipFixtures.open(directory)
        let report = reopened.recoveryReport
        XCTAssertEqual(report.quarantinedFiles, [], "\(report.lines)")
        XCTAssertEqual(report.removedRecordings, [], "\(report.lines)")
        XCTAssertEqual(report.adoptedRecordings.count, 1, "\(report.lines)")
        XCTAssertTrue(
            report.adoptedRecordings.first?.hasSuffix(
                "(kept from its first fragment, cut before it was whole)")
                ?? false, "\(report.lines)")
        let clips = try reopened.assets(AssetQuery.all.filter(.mediaType(.video)))
        let clip = try XCTUnwrap(clips.first)
        XCTAssertEqual(clips.count, 1)
        let file = reopened.fileURLPath(of: clip).string
        XCTAssertTrue(file.hasSuffix("/\(clip.id).mp4"), file)
        // Every frame written whole before the cut, and each one decodes.
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(file), wholeBeforeCut)
        XCTAssertEqual(try ClipTools.decodeErrors(file), "")
        XCTAssertEqual(
            clip.duration, .microseconds(Int64((Double(wholeBeforeCut) * 1_000_000 / 15).rounded())))
        XCTAssertEqual(clip.pixelSize, LibraryClipFixtures.settings.size)
        try LibraryClipFixtures.assertCarriesTheWrittenMetadata(clip, file: file)
        try assertNothingLeft(reopened, recording: path)
        XCTAssertTrue(try LibraryClipFixtures.open(directory).recoveryReport.isClean)
    }
}
