// `album current NAME`: every new photo lands in the album, and the choice survives a restart.

import Foundation
import XCTest

final class AlbumCurrentTests: XCTestCase {
    func testNewPhotosGoIntoTheCurrentAlbumAcrossARestart() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let arguments = ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"]
        let first = try PinholeProcess.run(
            arguments,
            input: "library album create Trip\nalbum current Nowhere\nalbum current Trip\ncapture\nquit\n")
        XCTAssertEqual(first.status, 0, first.error)
        let lines = first.lines
        XCTAssertEqual(lines.count, 5, first.output)
        let albumID = lines[0].split(separator: " ").last.map(String.init) ?? ""
        XCTAssertTrue(lines[1].hasPrefix("error"), lines[1])
        XCTAssertTrue(lines[1].contains("no album 'Nowhere'"), lines[1])
        XCTAssertEqual(lines[2], "ok album current Trip")
        XCTAssertTrue(lines[3].hasPrefix("ok saved"), lines[3])

        let second = try PinholeProcess.run(
            arguments, input: "settings\ncapture\nlibrary list --album \(albumID) --json\nquit\n")
        XCTAssertEqual(second.status, 0, second.error)
        XCTAssertTrue(second.lines[0].contains("camera.album=Trip"), second.lines[0])
        let listed = try JSONSerialization.jsonObject(with: Data(second.lines[2].utf8)) as? [Any]
        XCTAssertEqual(listed?.count, 2, "both photos are in the album: \(second.lines[2])")
    }
}
