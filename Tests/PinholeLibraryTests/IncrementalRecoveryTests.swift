// Tests of the open-time recovery pass skipping directories unchanged since they were verified.

import Foundation
import GRDB
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class IncrementalRecoveryTests: LibraryTestCase {
    /// Sets the modification time of every directory under `originals/` an hour back, as if
    /// the photos had been taken long ago (recent directories are never recorded as verified).
    private func ageDirectories(_ root: String) throws {
        let enumerator = FileManager.default.enumerator(atPath: root + "/originals")
        var directories = [root + "/originals"]
        while let relative = enumerator?.nextObject() as? String {
            let path = root + "/originals/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                directories.append(path)
            }
        }
        let past = Date(timeIntervalSinceNow: -3600)
        for path in directories {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path)
        }
    }

    private func verifiedDirectories(_ library: PhotoLibrary) throws -> [String] {
        try library.read { db in
            try String.fetchAll(db, sql: "SELECT path FROM verified_directory ORDER BY path")
        }
    }

    /// Opens the library, returns what its recovery pass reported and the verified
    /// directories, and closes it again (only a library's first opener repairs it).
    private func reopen() throws -> (report: RecoveryReport, verified: [String]) {
        let library = try openLibrary()
        return (library.recoveryReport, try verifiedDirectories(library))
    }

    private func makeLibrary(days: [Int64]) throws -> [Asset] {
        let library = try openLibrary()
        return try days.enumerated().map { index, day in
            let taken = WallTime(secondsSince1970: 1_700_000_000 + day * 86_400)
            return try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata(taken: taken))
        }
    }

    func testVerifiedDirectoriesAreSkippedButChangesInThemAreFound() throws {
        let assets = try makeLibrary(days: [0, 0, 1, 2])
        try ageDirectories(dir.path)
        let first = try reopen()
        XCTAssertTrue(first.report.isClean)
        XCTAssertEqual(
            first.verified,
            [
                "originals", "originals/2023", "originals/2023/11", "originals/2023/11/14",
                "originals/2023/11/15",
                "originals/2023/11/16",
            ])

        // Removing a file changes its directory's time: the next pass lists it again.
        try FileManager.default.removeItem(atPath: dir.join(assets[1].path))
        // Removing a whole verified directory: its rows are found missing too.
        try FileManager.default.removeItem(atPath: dir.join("originals/2023/11/16"))
        let second = try reopen()
        XCTAssertEqual(second.report.missingFiles, [assets[1].id, assets[3].id].sorted())
        XCTAssertFalse(
            second.verified.contains("originals/2023/11/14"), "a directory with problems is not verified")
        // Problems are reported at every open until fixed.
        XCTAssertEqual(try reopen().report.missingFiles, [assets[1].id, assets[3].id].sorted())
    }

    func testAPhotoInADirectoryNeverVerifiedIsStillChecked() throws {
        let assets = try makeLibrary(days: [0])
        try ageDirectories(dir.path)
        XCTAssertEqual(try reopen().verified.count, 4)
        // A new photo in a new (recent, so unverified) directory, whose directory then disappears.
        let late = try makeLibrary(days: [100])[0]
        XCTAssertTrue(try reopen().report.isClean)
        try FileManager.default.removeItem(atPath: dir.join(POSIXFiles.parentDirectory(of: late.path)))
        XCTAssertEqual(try reopen().report.missingFiles, [late.id])
        XCTAssertEqual(try reopen().report.missingFiles, [late.id])
        XCTAssertEqual(assets.count, 1)
    }

    func testAFileSlippedIntoAVerifiedDirectoryWithItsTimeRestoredIsLeftToFsck() throws {
        let assets = try makeLibrary(days: [0])
        try ageDirectories(dir.path)
        XCTAssertTrue(try reopen().report.isClean)
        let folder = POSIXFiles.parentDirectory(of: dir.join(assets[0].path))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        writeFile(folder + "/stray.txt", contents: Data("x".utf8))
        try FileManager.default.setAttributes(
            [.modificationDate: attributes[.modificationDate]!], ofItemAtPath: folder)
        let library = try openLibrary()
        XCTAssertTrue(library.recoveryReport.isClean, "the open-time pass trusts the directory's time")
        XCTAssertEqual(
            try library.fsck().orphanFiles, ["originals/2023/11/14/stray.txt"], "fsck lists everything")
    }

    func testAnOriginalAdoptedOutsideADayDirectoryStaysPut() throws {
        _ = try makeLibrary(days: [0])
        let id = "01900000-0000-7000-8000-0000000000aa"
        writeFile(dir.join("originals/2023/\(id).jpg"), contents: Data(TestJPEG.make(seed: 4)))
        XCTAssertEqual(try reopen().report.adoptedAssets, [id])
        let again = try reopen().report
        XCTAssertTrue(again.isClean, again.lines.joined(separator: "; "))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.join("originals/2023/\(id).jpg")))
    }
}
