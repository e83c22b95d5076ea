// Renders and exports of redated photos carry the corrected EXIF dates, read back by exiftool; originals never change.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibraryCommandLine
import PinholeTestTools
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class RedatedRenderTests: LibraryTestCase {
    private let taken = WallTime(secondsSince1970: 1_700_000_000, utcOffsetSeconds: 3600)

    /// exiftool's DateTimeOriginal, CreateDate and ModifyDate of `path`.
    private func exifDates(_ path: String) throws -> [String] {
        _ = try ExternalTool.locate("/usr/bin/exiftool")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-s3", "-DateTimeOriginal", "-CreateDate", "-ModifyDate", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, path)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func library() throws -> (PhotoLibrary, [Asset]) {
        let library = try openLibrary()
        let assets = try (0..<2).map { index in
            let metadata = testMetadata(taken: taken.adding(.seconds(Int64(index) * 60)))
            let jpeg = try ExifWriter.embed(metadata, thumbnail: nil, into: TestJPEG.make(seed: index))
            return try library.add(jpeg: jpeg, metadata: metadata)
        }
        return (library, assets)
    }

    func testStoredRendersAndExportsCarryTheCorrectedDatesAndOriginalsDoNot() throws {
        let (library, a) = try library()
        let originals = try a.map { try library.originalData(of: $0) }
        let old = a.map { [String](repeating: $0.created.exifDateTime, count: 3) }
        // Photo 0 is rotated (a lossless render, EXIF kept) before the redate; photo 1 gets a
        // tonal edit (re-encoded, no EXIF of its own) after it.
        _ = try LibraryCommandLine.execute(["edit", "rotate", a[0].id, "--degrees", "90"], library: library)
        let render0 = try library.currentFilePath(of: try XCTUnwrap(library.asset(id: a[0].id)))
        XCTAssertEqual(
            try exifDates(render0.string), old[0], "before the redate the render has the camera's date")

        _ = try LibraryCommandLine.execute(["redate", a[0].id, a[1].id, "--by", "7200"], library: library)
        _ = try LibraryCommandLine.execute(
            ["edit", "adjust", a[1].id, "--exposure", "0.5"], library: library)
        let moved = try a.map { try XCTUnwrap(library.asset(id: $0.id)) }
        let corrected = moved.map { [String](repeating: $0.created.exifDateTime, count: 3) }
        XCTAssertEqual(moved[0].created.exifDateTime, "2023:11:15 01:13:20", "taken 23:13:20 local, +2 h")

        XCTAssertEqual(
            try exifDates(render0.string), corrected[0], "the stored render was rewritten at the redate")
        XCTAssertEqual(
            try exifDates(try (library.currentFilePath(of: moved[1])).string), corrected[1],
            "a render made after the redate carries the corrected date")
        for (index, asset) in moved.enumerated() {
            XCTAssertEqual(
                try exifDates(library.fileURLPath(of: asset).string), old[index],
                "the original keeps its date")
            XCTAssertEqual(
                try library.originalData(of: asset), originals[index], "the original is never modified")
        }
        for version in [ExportVersion.original, .current] {
            let out = TemporaryDirectory("pinhole-export-\(version.rawValue)")
            let report = try library.export(.all, to: FilePath(out.path), version: version)
            XCTAssertEqual(report.written.count, 2)
            for (index, asset) in moved.enumerated() {
                let file = try XCTUnwrap(
                    report.written.first { $0.hasSuffix(String(asset.id.suffix(12)) + ".jpg") })
                XCTAssertEqual(try exifDates(file), corrected[index], "\(version) export of photo \(index)")
            }
        }
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean)
    }
}
