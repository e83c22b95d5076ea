// Exports recorded before their files: one a power cut interrupts is reported at the next open and can be redone.

import Foundation
import PinholeCore
import PinholeLibraryCommandLine
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class ExportJournalTests: LibraryTestCase {
    /// A library with `count` photos, added one minute apart.
    private func fill(count: Int) throws -> [Asset] {
        let library = try openLibrary()
        return try (0..<count).map { index in
            let taken = WallTime(secondsSince1970: 1_790_000_000 + Int64(index) * 60, utcOffsetSeconds: 3600)
            return try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata(taken: taken))
        }
    }

    private func put(_ bytes: some Sequence<UInt8>, _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// What a power cut in the middle of an export leaves: the record, the first file whole,
    /// the second torn under its final name, the third never written.
    private func interruptedExport(_ out: TemporaryDirectory) throws -> [Asset] {
        let assets = try fill(count: 3)
        let library = try openLibrary()
        _ = try library.beginExportJob(assets.map(\.id), to: out.path, version: .original)
        let first = out.join(PhotoLibrary.exportName(of: assets[0]))
        try put(try library.originalData(of: assets[0]), first)
        let torn = try library.originalData(of: assets[1]).prefix(100)
        try put(torn, out.join(PhotoLibrary.exportName(of: assets[1])))
        let temporary = "." + PhotoLibrary.exportName(of: assets[2]) + ".k3j9.tmp"
        try put(torn, out.join(temporary))
        try put(torn, out.join(".someone-else.jpg.x.tmp"))
        return assets
    }

    func testAFinishedExportLeavesNoRecord() throws {
        let out = TemporaryDirectory("pinhole-stick")
        _ = try fill(count: 2)
        let report = try openLibrary().export(.all, to: FilePath(out.path))
        XCTAssertEqual(report.written.count, 2)
        let reopened = try openLibrary()
        XCTAssertEqual(reopened.recoveryReport.interruptedExports, [])
        XCTAssertEqual(try reopened.interruptedExports(), [])
        XCTAssertEqual(
            try LibraryCommandLine.execute(["exports"], library: reopened), "no interrupted exports")
    }

    func testAnExportInterruptedByACutIsReportedAtTheNextOpenAndRedone() throws {
        let out = TemporaryDirectory("pinhole-stick")
        let assets = try interruptedExport(out)

        let reopened = try openLibrary()
        let report = reopened.recoveryReport
        XCTAssertTrue(report.isClean, "the library itself needs no repair")
        let interrupted = try XCTUnwrap(report.interruptedExports.first)
        XCTAssertEqual(report.interruptedExports.count, 1)
        XCTAssertEqual(interrupted.directory, FilePath(out.path))
        XCTAssertEqual(interrupted.photoIDs, assets.map(\.id))
        XCTAssertEqual(interrupted.present, 2)
        XCTAssertTrue(report.lines.contains(interrupted.line), "\(report.lines)")
        XCTAssertTrue(
            interrupted.line.hasPrefix("export \(interrupted.id) to \(out.path) (")
                && interrupted.line.contains("did not finish: 2 of 3 files there")
                && interrupted.line.contains("library export --redo \(interrupted.id)"), interrupted.line)
        let listed = try LibraryCommandLine.execute(["exports"], library: reopened)
        XCTAssertEqual(listed, interrupted.line)

        let redo = try LibraryCommandLine.execute(
            ["export", "--redo", "\(interrupted.id)"], library: reopened)
        XCTAssertEqual(
            redo, "exported 2 (1 torn files replaced), 1 already whole, 0 photos no longer in the library")
        for asset in assets {
            XCTAssertEqual(
                bytes(out.join(PhotoLibrary.exportName(of: asset))), try reopened.originalData(of: asset),
                "every file whole after the redo")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".tmp") },
            [".someone-else.jpg.x.tmp"], "the export's temporary files are gone, no one else's")
        XCTAssertEqual(try reopened.interruptedExports(), [])
        XCTAssertEqual(
            try openLibrary().recoveryReport.interruptedExports, [],
            "reported until redone, then no more")
    }

    func testAnInterruptedExportStaysReportedUntilForgotten() throws {
        let out = TemporaryDirectory("pinhole-stick")
        _ = try interruptedExport(out)
        let id = try XCTUnwrap(
            try openLibrary().recoveryReport.interruptedExports.first?.id)
        let again = try openLibrary()
        XCTAssertEqual(
            again.recoveryReport.interruptedExports.map(\.id), [id], "still there at the next start")
        XCTAssertEqual(
            try LibraryCommandLine.execute(["export", "--forget", "\(id)"], library: again),
            "ok export \(id) forgotten")
        XCTAssertEqual(try again.interruptedExports(), [])
        XCTAssertThrowsError(try LibraryCommandLine.execute(["export", "--forget", "\(id)"], library: again))
        {
            XCTAssertTrue("\($0)".contains("no interrupted export \(id)"), "\($0)")
        }
    }

    func testARedoReportsPhotosPurgedSince() throws {
        let out = TemporaryDirectory("pinhole-stick")
        let assets = try interruptedExport(out)
        let library = try openLibrary()
        let id = try XCTUnwrap(library.recoveryReport.interruptedExports.first?.id)
        try library.delete([assets[2].id])
        try library.purge([assets[2].id])
        let report = try library.redoExport(id)
        XCTAssertEqual(report.gone, [assets[2].id])
        XCTAssertEqual(report.replaced, [out.join(PhotoLibrary.exportName(of: assets[1]))])
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: out.join(PhotoLibrary.exportName(of: assets[2]))))
    }

    func testAnExportThatFailsIsListedAtOnce() throws {
        let out = TemporaryDirectory("pinhole-stick")
        _ = try fill(count: 2)
        let library = try openLibrary()
        let blocked = out.join("file-not-folder")
        try put("x".utf8, blocked)
        XCTAssertThrowsError(try library.export(.all, to: FilePath(blocked + "/sub")))
        let listed = try library.interruptedExports()
        XCTAssertEqual(listed.map(\.directory), [FilePath(blocked + "/sub")])
        XCTAssertEqual(listed.first?.present, 0)
    }

    func testBadJournalCommandsAreRefusedWithTheirReason() throws {
        let library = try openLibrary()
        let cases: [([String], String)] = [
            (["export", "--redo", "7"], "no interrupted export 7"),
            (["export", "--redo", "x"], "--redo needs a non-negative whole number"),
            (["export", "--redo", "-1"], "--redo needs a non-negative whole number"),
            (["export", "/tmp/x", "--redo", "1"], "usage: library export --redo N"),
            (["export", "--forget", "3"], "no interrupted export 3"),
            (["exports", "extra"], "usage: library exports"),
        ]
        for (words, reason) in cases {
            XCTAssertThrowsError(try LibraryCommandLine.execute(words, library: library), "\(words)") {
                XCTAssertTrue("\($0)".contains(reason), "\(words): \($0)")
            }
        }
    }
}
