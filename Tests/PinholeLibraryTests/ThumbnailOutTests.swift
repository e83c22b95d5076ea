// `library thumbnail --out FILE` replaces a file only with --force and never writes into the library or the configuration folder.

import Foundation
import PinholeCore
import PinholeLibraryCommandLine
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class ThumbnailOutTests: XCTestCase {
    func testOutNeverOverwritesWithoutForceNorWritesIntoProtectedFolders() throws {
        let dir = TemporaryDirectory()
        let config = TemporaryDirectory("pinhole-config")
        writeFile(config.join("pinhole.toml"), contents: Data("[library]\n".utf8))
        let library = try PhotoLibrary.open(
            at: FilePath(dir.path), options: LibraryOptions(protectedDirectories: [FilePath(config.path)]),
            now: ManualWallClock().now)
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let out = TemporaryDirectory("pinhole-out")
        let target = out.join("thumb.jpg")
        writeFile(target, contents: Data("precious".utf8))
        func thumbnail(_ file: String, _ extra: String...) throws -> String {
            try LibraryCommandLine.execute(
                ["thumbnail", asset.id, "--size", "32x24", "--out", file] + extra, library: library)
        }
        XCTAssertThrowsError(try thumbnail(target)) { error in
            XCTAssertTrue("\(error)".contains("exists: add --force to replace it"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "precious")
        XCTAssertTrue(try thumbnail(target, "--force").hasPrefix(target))
        XCTAssertEqual(FileManager.default.contents(atPath: target)?.prefix(2), Data([0xFF, 0xD8]))
        // Inside the library (also through a link to it) and inside the configuration folder.
        try FileManager.default.createSymbolicLink(atPath: out.join("lib"), withDestinationPath: dir.path)
        for file in [
            dir.join("originals/x.jpg"), dir.join("index.sqlite"), out.join("lib/y.jpg"),
            config.join("pinhole.toml"),
        ] {
            XCTAssertThrowsError(try thumbnail(file, "--force"), file) { error in
                XCTAssertTrue("\(error)".contains("write it elsewhere"), "\(error)")
            }
        }
        XCTAssertEqual(
            try String(contentsOfFile: config.join("pinhole.toml"), encoding: .utf8), "[library]\n")
    }
}
