// The Library pages against a stand-in library that answers the `library` command language:
// albums, paging, photo details, and the commands the actions send.

import PinholeConsole
import XCTest

/// Answers `library` words with canned JSON and records the changes asked for.
final class FakeLibrary {
    var favorites: Set<String> = []
    var commands: [[String]] = []
    let photos = (1...30).map { String(format: "p%02d", $0) }

    func run(_ words: [String]) throws -> String {
        commands.append(words)
        let words = words.first == "library" ? Array(words.dropFirst()) : words
        switch words.first {
        case "albums":
            return
                #"{"albums":[{"id":"a1","title":"Summer","count":2,"position":0,"created":"x"}],"folders":[],"#
                + #""smart":[{"id":"smart:all","title":"All Photos","count":30},{"id":"smart:favorites","title":"Favorites","count":\#(favorites.count)}]}"#
        case "smart", "list":
            let offset = Int(words[(words.firstIndex(of: "--offset") ?? 0) + 1]) ?? 0
            let limit = Int(words[(words.firstIndex(of: "--limit") ?? 0) + 1]) ?? 10
            let page = photos.dropFirst(offset).prefix(limit)
            return "[" + page.map(row).joined(separator: ",") + "]"
        case "show":
            let id = words[1]
            return
                #"{"id":"\#(id)","file":"/lib/\#(id).jpg","created":"2026-11-21T08:00:00.000+00:00","added":"2026-11-21T08:00:01.000+00:00","camera":"imx477","make":"Pinhole","model":"imx477","width":4056,"height":3040,"orientation":1,"exposureTime":0.008,"iso":200,"fNumber":2.8,"favorite":\#(favorites.contains(id)),"edited":false,"editRevision":0,"fileSize":3500000}"#
        case "favorite":
            if words.contains("--off") {
                favorites.remove(words.last!)
            } else {
                favorites.insert(words.last!)
            }
            return "ok 1"
        default:
            throw ConsoleError.usage("unexpected library command \(words)")
        }
    }

    private func row(_ id: String) -> String {
        #"{"id":"\#(id)","created":"2026-11-21T08:00:00.000+00:00","camera":"imx477","width":4056,"height":3040,"favorite":\#(favorites.contains(id)),"edited":false}"#
    }
}

final class LibraryPagesTests: XCTestCase {
    func testBrowseAllPhotosPageByPageOpenAPhotoAndFavoriteIt() throws {
        let library = FakeLibrary()
        let harness = try ConsoleHarness(quietFocus: true, library: { try library.run($0) })
        harness.type("4")  // Library (no PIN set: open)
        XCTAssertTrue(harness.terminal.line(0).contains("Main menu > Library"), harness.terminal.line(0))
        XCTAssertTrue(harness.terminal.line(3).hasPrefix(" 1  All photos"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(3).hasSuffix("30"), harness.terminal.line(3))
        harness.type("\r")
        XCTAssertTrue(harness.terminal.text.contains("page 1/3, 30 photos"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(4).contains("2026-11-21 08:00:00"), harness.terminal.text)
        harness.type("\u{1B}[6~")  // Page Down
        XCTAssertTrue(harness.terminal.text.contains("page 2/3"), harness.terminal.text)
        XCTAssertEqual(library.commands.last, ["smart", "all", "--limit", "12", "--offset", "12", "--json"])
        harness.type("n")
        harness.type("n")  // past the last page: refused
        XCTAssertTrue(harness.terminal.text.contains("page 3/3"), harness.terminal.text)
        harness.type("\r")  // the first photo of page 3: p25
        XCTAssertTrue(harness.terminal.line(0).contains("> Photo"), harness.terminal.line(0))
        XCTAssertTrue(harness.terminal.text.contains("/lib/p25.jpg"), harness.terminal.text)
        XCTAssertTrue(
            harness.terminal.text.contains("    Favorite                    no"), harness.terminal.text)
        harness.type("1", settle: .seconds(1))  // Favorite
        XCTAssertEqual(library.favorites, ["p25"])
        XCTAssertTrue(harness.terminal.text.contains(" 1  Unfavorite"), harness.terminal.text)
        harness.type("\u{1B}[D")  // Left: back to the list, reloaded
        XCTAssertTrue(harness.terminal.line(4).contains("*"), harness.terminal.line(4))
    }

    func testDeleteNeedsTheWordAndBrokenAnswersShowAReason() throws {
        let library = FakeLibrary()
        let harness = try ConsoleHarness(
            quietFocus: true,
            library: { words in
                if words.contains("delete") { throw ConsoleError.failed("disk full") }
                return try library.run(words)
            })
        harness.type("4")
        harness.type("4")  // Albums
        XCTAssertTrue(harness.terminal.text.contains("Summer"), harness.terminal.text)
        harness.type("\r\r")  // All Photos, then the first photo
        harness.type("\u{1B}[B\u{1B}[B\u{1B}[B\u{1B}[B\r")  // Delete
        XCTAssertEqual(harness.terminal.line(22), "Move to Recently Deleted? (Esc cancels)")
        XCTAssertEqual(harness.terminal.line(23), "Type delete to confirm:")
        harness.type("y\r")
        XCTAssertTrue(
            harness.terminal.line(22).hasPrefix("cancelled: nothing was done"), harness.terminal.line(22))
        XCTAssertFalse(library.commands.contains { $0.contains("delete") })
        harness.type("\r")  // Delete again
        harness.type("delete\r", settle: .seconds(1))
        XCTAssertEqual(harness.terminal.line(22), "error 70: disk full")
    }
}
