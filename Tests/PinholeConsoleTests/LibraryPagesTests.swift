// The Library pages against a stand-in library read through LibraryReading: albums, paging,
// photo details, and the `library` commands the actions send.

import Foundation
import PinholeConsole
import PinholeCore
import XCTest
import SystemPackage

/// A stand-in library: pages read through `LibraryReading`, changes through `library`
/// words; records what was asked. Used from the loop's worker thread while the test waits.
final class FakeLibrary: LibraryReading, @unchecked Sendable {
    private let lock = NSLock()
    private var favoriteIDs: Set<String> = []
    private var asked: [String] = []
    private var changes: [[String]] = []
    let photos = (1...30).map { String(format: "p%02d", $0) }
    /// The upright picture every photo's details carry (nil: none).
    let preview: RawImage?

    init(preview: RawImage? = nil) { self.preview = preview }

    var favorites: Set<String> { lock.withLock { favoriteIDs } }
    /// Reads asked for: `albums`, `photos SOURCE OFFSET LIMIT`, `photo ID`.
    var reads: [String] { lock.withLock { asked } }
    /// `library` words run.
    var commands: [[String]] { lock.withLock { changes } }

    func albums() throws -> [LibraryAlbumRow] {
        lock.withLock {
            asked.append("albums")
            return [
                LibraryAlbumRow(id: "smart:all", title: "All Photos", count: 30),
                LibraryAlbumRow(id: "smart:favorites", title: "Favorites", count: favoriteIDs.count),
                LibraryAlbumRow(id: "a1", title: "Summer", count: 2),
            ]
        }
    }

    func photos(in source: LibraryAlbumRow, offset: Int, limit: Int) throws -> [LibraryPhotoRow] {
        lock.withLock {
            asked.append("photos \(source.id) \(offset) \(limit)")
            return photos.dropFirst(offset).prefix(limit).map { id in
                var row = LibraryPhotoRow(
                    id: id, created: "2026-11-21T08:00:00.000+00:00", camera: "imx477", width: 4056,
                    height: 3040,
                    favorite: favoriteIDs.contains(id), edited: false, deleted: nil)
                if id == "p30" {  // the last one is a clip
                    row.clipKind = "video"
                    row.clipLength = "3.0 s"
                }
                return row
            }
        }
    }

    func photo(id: String) throws -> LibraryPhotoDetail? {
        lock.withLock {
            asked.append("photo \(id)")
            var detail = LibraryPhotoDetail(
                id: id, file: FilePath("/lib/\(id).jpg"), created: "2026-11-21T08:00:00.000+00:00",
                added: "2026-11-21T08:00:01.000+00:00", width: 4056, height: 3040,
                favorite: favoriteIDs.contains(id), edited: false)
            detail.camera = "imx477"
            detail.make = "Pinhole"
            detail.model = "imx477"
            detail.exposureTime = 0.008
            detail.iso = 200
            detail.fNumber = 2.8
            detail.fileSize = 3_500_000
            detail.preview = preview
            if id == "p30" {
                detail.clipKind = "video"
                detail.clipLength = "3.0 s"
                detail.frameRate = 30
            }
            return detail
        }
    }

    func run(_ words: [String]) throws -> String {
        try lock.withLock {
            changes.append(words)
            switch words.first {
            case "favorite":
                if words.contains("--off") {
                    favoriteIDs.remove(words.last!)
                } else {
                    favoriteIDs.insert(words.last!)
                }
                return "ok 1"
            default:
                throw ConsoleError.usage("unexpected library command \(words)")
            }
        }
    }
}

final class LibraryPagesTests: XCTestCase {
    func testBrowseAllPhotosPageByPageOpenAPhotoAndFavoriteIt() throws {
        let library = FakeLibrary()
        let harness = try ConsoleHarness(quietFocus: true, library: { try library.run($0) }, reader: library)
        harness.type("4")  // Library (no PIN set: open)
        XCTAssertTrue(harness.terminal.line(0).contains("Main menu > Library"), harness.terminal.line(0))
        XCTAssertTrue(harness.terminal.line(3).hasPrefix(" 1  All photos"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(3).hasSuffix("30"), harness.terminal.line(3))
        harness.type("\r")
        XCTAssertTrue(harness.terminal.text.contains("page 1/3, 30 photos"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(4).contains("2026-11-21 08:00:00"), harness.terminal.text)
        harness.type("\u{1B}[6~")  // Page Down
        XCTAssertTrue(harness.terminal.text.contains("page 2/3"), harness.terminal.text)
        XCTAssertEqual(library.reads.last, "photos smart:all 12 12")
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

    func testAClipShowsItsLengthInTheListAndOnItsPage() throws {
        let library = FakeLibrary()
        let harness = try ConsoleHarness(quietFocus: true, library: { try library.run($0) }, reader: library)
        harness.type("4")
        harness.type("\r")
        harness.type("n")
        harness.type("n")  // page 3: p25 … p30
        let line = try XCTUnwrap(
            harness.terminal.text.split(separator: "\n").first { $0.contains("clip 3.0 s") })
        XCTAssertTrue(line.contains("4056x3040"), harness.terminal.text)
        for _ in 0..<5 { harness.type("\u{1B}[B") }
        harness.type("\r")
        XCTAssertTrue(harness.terminal.text.contains("/lib/p30.jpg"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.text.contains("Duration"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.text.contains("3.0 s"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.text.contains("poster frame"), harness.terminal.text)
    }

    func testAChangeElsewhereReloadsTheShownLibraryPageButNotOtherPages() throws {
        let library = FakeLibrary()
        let harness = try ConsoleHarness(quietFocus: true, library: { try library.run($0) }, reader: library)
        harness.console.libraryChanged()
        harness.wait(.milliseconds(10))
        XCTAssertEqual(library.reads, [], "the main page shows no library data")
        harness.type("4")
        harness.type("\r")  // All photos
        let before = library.reads.count
        harness.console.libraryChanged()  // e.g. `pinhole library delete` in another process
        harness.wait(.milliseconds(10))
        XCTAssertEqual(Array(library.reads.dropFirst(before)), ["albums", "photos smart:all 0 12"])
    }

    func testDeleteNeedsTheWordAndBrokenAnswersShowAReason() throws {
        let library = FakeLibrary()
        let harness = try ConsoleHarness(
            quietFocus: true,
            library: { words in
                if words.contains("delete") { throw ConsoleError.failed("disk full") }
                return try library.run(words)
            }, reader: library)
        harness.type("4")
        harness.type("4")  // Albums
        XCTAssertTrue(harness.terminal.text.contains("Summer"), harness.terminal.text)
        harness.type("\r")  // All Photos (loaded on the worker) …
        harness.type("\r")  // … then the first photo
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

    func testThePhotoPageShowsThePictureInHalfBlocksAboveItsItems() throws {
        // An upright portrait picture as the reader hands it over: dark top half, light bottom half.
        let picture = RawImage(
            format: .rgb888, width: 30, height: 40,
            planes: [
                ImagePlane(
                    bytes: (0..<40).flatMap { y in [UInt8](repeating: y < 20 ? 0 : 255, count: 90) },
                    stride: 90)
            ])
        let library = FakeLibrary(preview: picture)
        let harness = try ConsoleHarness(quietFocus: true, library: { try library.run($0) }, reader: library)
        harness.type("4")
        harness.type("\r")  // All photos
        harness.type("\r")  // the first photo
        XCTAssertTrue(harness.terminal.line(0).contains("> Photo"), harness.terminal.line(0))
        // 80x24: the picture takes at most half of the 18 body rows, 14 columns for 3:4, centred.
        let rows = (3..<12).map { harness.terminal.line($0) }
        let left = (80 - 14) / 2
        for (index, row) in rows.enumerated() {
            let cells = Array(row.padding(toLength: 80, withPad: " ", startingAt: 0))[left..<(left + 14)]
            let expected: Character = index < 4 ? " " : index == 4 ? "▄" : "█"
            XCTAssertEqual(Set(cells), [expected], "picture row \(index): \(row)\n\(harness.terminal.text)")
        }
        XCTAssertEqual(harness.terminal.line(12), "", "one blank row under the picture")
        XCTAssertTrue(harness.terminal.line(13).hasPrefix(" 1  Favorite"), harness.terminal.text)
        harness.type("1", settle: .seconds(1))  // the actions still work under the picture
        XCTAssertEqual(library.favorites, ["p01"])
    }
}
