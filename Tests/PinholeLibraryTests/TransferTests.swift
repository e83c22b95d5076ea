// Tests of importing a folder of JPEGs, exporting originals and edits, and saving/reverting edits.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibraryCommandLine
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class TransferTests: LibraryTestCase {
    func testImportReadsExifSkipsDuplicatesAndReportsFailures() throws {
        let source = TemporaryDirectory("pinhole-import-source")
        try FileManager.default.createDirectory(atPath: source.join("sub"), withIntermediateDirectories: true)
        var metadata = PhotoMetadata(pixelWidth: 96, pixelHeight: 64, orientation: .right)
        metadata.make = "Acme"
        metadata.model = "Box"
        metadata.captureTime = WallTime(secondsSince1970: 1_600_000_000, utcOffsetSeconds: 3600)
        metadata.iso = 400
        let withExif = try exifJPEG(metadata: metadata)
        writeFile(source.join("a.JPG"), contents: Data(withExif))
        writeFile(source.join("sub/b.jpeg"), contents: Data(TestJPEG.make()))
        writeFile(source.join("sub/copy-of-a.jpg"), contents: Data(withExif))
        writeFile(source.join("broken.jpg"), contents: Data(TestJPEG.make().prefix(100)))
        writeFile(source.join("notes.txt"), contents: Data("x".utf8))

        let library = try openLibrary()
        var seen: [TransferProgress] = []
        let report = try library.importFolder(FilePath(source.path), batchSize: 2) {
            seen.append($0); return true
        }
        XCTAssertEqual(report.imported.count, 2)
        XCTAssertEqual(report.duplicates, [source.join("sub/copy-of-a.jpg")])
        XCTAssertEqual(Array(report.failures.keys), [source.join("broken.jpg")])
        XCTAssertEqual(seen.map(\.completed), [1, 2, 3, 4])
        XCTAssertEqual(seen.last?.total, 4)

        let imported = try XCTUnwrap(library.asset(id: report.imported[0]))
        XCTAssertEqual(imported.make, "Acme")
        XCTAssertEqual(imported.orientation, .right)
        XCTAssertEqual(imported.iso, 400)
        XCTAssertEqual(imported.created.iso8601, "2020-09-13T13:26:40.000+01:00")
        XCTAssertTrue(imported.path.hasPrefix("originals/2020/09/13/"))

        let again = try library.importFolder(FilePath(source.path))
        XCTAssertEqual(again.imported, [])
        XCTAssertEqual(again.duplicates.count, 3)
        XCTAssertTrue(try library.fsck().isClean)
    }

    func testImportCanBeStoppedFromProgress() throws {
        let source = TemporaryDirectory("pinhole-import-source")
        for seed in 0..<5 {
            writeFile(source.join("p\(seed).jpg"), contents: Data(TestJPEG.make(seed: seed)))
        }
        let library = try openLibrary()
        let report = try library.importFolder(FilePath(source.path), batchSize: 10) { $0.completed < 2 }
        XCTAssertTrue(report.cancelled)
        XCTAssertEqual(report.imported.count, 2)
        XCTAssertEqual(try library.count(.all), 2)
    }

    func testExportOriginalsAndRenderedEditsOfAnAlbum() throws {
        let library = try openLibrary()
        let taken = WallTime(secondsSince1970: 1_795_000_000, utcOffsetSeconds: 3600)
        let a = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata(taken: taken))
        let b = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata(taken: taken))
        _ = try library.add(jpeg: TestJPEG.make(seed: 2), metadata: testMetadata(taken: taken))
        let album = try library.performChanges {
            $0.addAssets([a.id, b.id], to: $0.createAlbum(title: "Out"))
        }.createdAlbumIDs[0]
        let rendered = TestJPEG.make(width: 32, height: 32, seed: 7)
        try library.saveEdit(
            of: b.id, adjustment: AdjustmentData(formatIdentifier: "test", formatVersion: "1", data: [1]),
            renderedJPEG: rendered)

        let out = TemporaryDirectory("pinhole-export")
        var calls = 0
        let report = try library.export(
            library.albumQuery(album), to: FilePath(out.join("x")), version: .current
        ) {
            _ in
            calls += 1
            return true
        }
        XCTAssertEqual(calls, 2)
        XCTAssertEqual(
            report.written.map { ($0 as NSString).lastPathComponent },
            ["20261118_120640_\(a.id.suffix(12)).jpg", "20261118_120640_\(b.id.suffix(12)).jpg"])
        XCTAssertEqual(
            FileManager.default.contents(atPath: report.written[0]).map(Array.init), TestJPEG.make())
        XCTAssertEqual(FileManager.default.contents(atPath: report.written[1]).map(Array.init), rendered)
        let second = try library.export(library.albumQuery(album), to: FilePath(out.join("x")))
        XCTAssertEqual(second.written, [])
        XCTAssertEqual(second.skipped.count, 2)
    }

    func testEditsCanBeReopenedChangedAndReverted() throws {
        let library = try openLibrary()
        let original = TestJPEG.make()
        let asset = try library.add(jpeg: original, metadata: testMetadata())
        let recorder = DetailsRecorder()
        let token = library.observe(library.query(for: .edited), recorder.handler)

        let recipe = AdjustmentData(
            formatIdentifier: "org.pinhole.adjustments", formatVersion: "1", data: Array("{}".utf8))
        let first = try library.saveEdit(
            of: asset.id, adjustment: recipe, renderedJPEG: TestJPEG.make(width: 48, height: 64))
        XCTAssertEqual(first.revision, 1)
        XCTAssertEqual(first.renderSize, PixelSize(width: 48, height: 64))
        XCTAssertEqual(try library.edit(of: asset.id), first)
        XCTAssertEqual(try library.asset(id: asset.id)?.isEdited, true)
        XCTAssertEqual(recorder.all.last?.insertedIDs, [asset.id])
        XCTAssertEqual(try library.originalData(of: asset), original, "the original is never modified")

        clock.advance(seconds: 1)
        var changed = recipe
        changed.data = Array("{\"exposure\":1}".utf8)
        let second = try library.saveEdit(
            of: asset.id, adjustment: changed, renderedJPEG: TestJPEG.make(width: 40, height: 30))
        XCTAssertEqual(second.revision, 2)
        XCTAssertEqual(try library.edit(of: asset.id)?.adjustment, changed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.join(first.renderPath)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.join(second.renderPath)))
        XCTAssertEqual(
            try library.currentFilePath(of: try XCTUnwrap(library.asset(id: asset.id))),
            FilePath(dir.join(second.renderPath)))
        XCTAssertTrue(try library.fsck().isClean)

        let text = try LibraryCommandLine.execute(["edit", "show", asset.id], library: library)
        XCTAssertTrue(text.hasPrefix("revision 2, org.pinhole.adjustments v1"), text)
        XCTAssertEqual(
            try LibraryCommandLine.execute(["edit", "revert", asset.id], library: library), "ok 1")
        XCTAssertNil(try library.edit(of: asset.id))
        XCTAssertEqual(try library.asset(id: asset.id)?.editRevision, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.join(second.renderPath)))
        XCTAssertEqual(recorder.all.last?.removedIDs, [asset.id])
        XCTAssertThrowsError(try library.revertEdit(of: asset.id)) { error in
            XCTAssertEqual(error as? LibraryError, .notEdited(id: asset.id))
        }
        XCTAssertThrowsError(try library.saveEdit(of: asset.id, adjustment: recipe, renderedJPEG: [1, 2, 3]))
        withExtendedLifetime(token) {}
    }

    func testImportAndExportCommands() throws {
        let source = TemporaryDirectory("pinhole-import-source")
        writeFile(source.join("one.jpg"), contents: Data(TestJPEG.make()))
        let library = try openLibrary()
        XCTAssertEqual(
            try LibraryCommandLine.execute(["import", source.path], library: library),
            "imported 1, duplicates 0, failed 0")
        let out = TemporaryDirectory("pinhole-export")
        let json = try LibraryCommandLine.execute(["export", out.path, "--json"], library: library)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual((object["written"] as? [String])?.count, 1)
        XCTAssertThrowsError(
            try LibraryCommandLine.execute(["import", source.join("one.jpg")], library: library))
    }
}
