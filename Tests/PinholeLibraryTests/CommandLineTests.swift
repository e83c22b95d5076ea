// Tests of the `library …` command language: text and JSON answers, errors.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
@testable import PinholeLibraryCommandLine

final class CommandLineTests: LibraryTestCase {
    private func makeLibrary(photos: Int) throws -> (PhotoLibrary, [Asset]) {
        let library = try openLibrary()
        var assets: [Asset] = []
        for seed in 0..<photos {
            let taken = WallTime(secondsSince1970: 1_795_000_000 + Int64(seed), utcOffsetSeconds: 3600)
            assets.append(
                try library.add(
                    jpeg: TestJPEG.make(seed: seed),
                    metadata: testMetadata(
                        camera: seed == 0 ? "front" : "back", taken: taken,
                        orientation: .right)))
            clock.advance(seconds: 1)
        }
        return (library, assets)
    }

    /// `pinhole library list` streams: one piece per photo (never the whole list in memory),
    /// and the pieces joined are exactly the answer `execute` returns, in JSON and in text,
    /// for a filtered list and an empty one; a refused command writes nothing.
    func testAStreamedListWritesOnePiecePerPhotoAndTheSameAnswer() throws {
        let (library, _) = try makeLibrary(photos: 3)
        for words in [
            ["list", "--json"], ["list"], ["list", "--camera", "back", "--json"],
            ["list", "--camera", "none"],
            ["list", "--camera", "none", "--json"], ["list", "--desc", "--limit", "2"],
        ] {
            var pieces: [String] = []
            try LibraryCommandLine.execute(words, library: library) { pieces.append($0) }
            XCTAssertEqual(
                pieces.joined(), try LibraryCommandLine.execute(words, library: library), "\(words)")
        }
        var pieces: [String] = []
        try LibraryCommandLine.execute(["list", "--json"], library: library) { pieces.append($0) }
        XCTAssertEqual(pieces.count, 3 + 2, "'[', one piece per photo, ']'")
        XCTAssertThrowsError(
            try LibraryCommandLine.execute(["list", "--bogus"], library: library) { pieces.append($0) })
        XCTAssertEqual(pieces.count, 5, "nothing written by a refused list")
    }

    func testListJSONHasTheContractFields() throws {
        let (library, assets) = try makeLibrary(photos: 2)
        let output = try LibraryCommandLine.execute(["list", "--json"], library: library)
        XCTAssertFalse(output.contains("\n"))
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.count, 2)
        let first = array[0]
        XCTAssertEqual(first["id"] as? String, assets[0].id)
        XCTAssertEqual(first["path"] as? String, assets[0].path)
        XCTAssertEqual(first["file"] as? String, dir.path + "/" + assets[0].path)
        XCTAssertEqual(first["created"] as? String, "2026-11-18T12:06:40.000+01:00")
        XCTAssertEqual(first["camera"] as? String, "front")
        XCTAssertEqual(first["width"] as? Int, 64)
        XCTAssertEqual(first["height"] as? Int, 48)
        XCTAssertEqual(first["orientation"] as? Int, 6)
        XCTAssertEqual(first["favorite"] as? Bool, false)
    }

    func testListFiltersAndLimits() throws {
        let (library, assets) = try makeLibrary(photos: 3)
        let back = try LibraryCommandLine.execute(
            ["list", "--camera", "back", "--desc", "--limit", "1"], library: library)
        XCTAssertEqual(back.split(separator: "\n").count, 1)
        XCTAssertTrue(back.hasPrefix(assets[2].id), back)
        XCTAssertEqual(
            try LibraryCommandLine.execute(["count", "--camera=back", "--json"], library: library),
            "{\"count\":2}")
        XCTAssertEqual(
            try LibraryCommandLine.execute(["list", "--camera", "none"], library: library), "no photos")
    }

    func testShowAcceptsAUniquePrefixAndFsckAnswers() throws {
        let (library, assets) = try makeLibrary(photos: 1)
        let text = try LibraryCommandLine.execute(
            ["show", String(assets[0].id.prefix(13))], library: library)
        XCTAssertTrue(text.contains("id: \(assets[0].id)"), text)
        XCTAssertTrue(text.contains("camera: front"), text)
        let json = try LibraryCommandLine.execute(["show", assets[0].id, "--json"], library: library)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["checksum"] as? String, assets[0].checksum)
        let fsck = try LibraryCommandLine.execute(["fsck", "--json"], library: library)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fsck.utf8)) as? [String: Any])
        XCTAssertEqual(report["clean"] as? Bool, true)
        XCTAssertTrue(
            try LibraryCommandLine.execute(["fsck"], library: library).contains(
                "fsck: clean; 1 photos indexed"))
    }

    func testBadInputGivesClearErrors() throws {
        let (library, _) = try makeLibrary(photos: 0)
        XCTAssertThrowsError(try LibraryCommandLine.execute(["frobnicate"], library: library)) { error in
            XCTAssertEqual("\(error)", "unknown library command 'frobnicate'; see `library help`")
        }
        XCTAssertThrowsError(try LibraryCommandLine.execute(["list", "--colour"], library: library)) {
            error in
            XCTAssertTrue("\(error)".contains("unknown option --colour"), "\(error)")
        }
        XCTAssertThrowsError(try LibraryCommandLine.execute(["list", "--limit", "many"], library: library)) {
            error in
            XCTAssertTrue("\(error)".contains("--limit needs a non-negative whole number"), "\(error)")
        }
        XCTAssertThrowsError(try LibraryCommandLine.execute(["show", "0000"], library: library)) { error in
            XCTAssertTrue("\(error)".contains("no photo with id 0000"), "\(error)")
        }
        XCTAssertTrue(try LibraryCommandLine.execute([], library: library).contains("library commands"))
    }

    /// A command with an option it does not take is refused before it changes anything: the
    /// command fuzzer's library found `library delete ID --bogus` deleting the photo and only
    /// then answering "unknown option" (and `purge --all --dry-run` emptying Recently Deleted).
    func testAnUnknownOptionIsRefusedBeforeAnythingChanges() throws {
        let (library, assets) = try makeLibrary(photos: 2)
        let first = assets[0].id
        let second = assets[1].id
        _ = try LibraryCommandLine.execute(["delete", second], library: library)
        let album = try LibraryCommandLine.execute(["album", "create", "Trip"], library: library)
        let exported = dir.path + "/stick"
        let thumb = dir.path + "/thumb.jpg"
        func snapshot() throws -> String {
            try LibraryCommandLine.execute(["list", "--json"], library: library)
                + (try LibraryCommandLine.execute(["list", "--deleted", "--json"], library: library))
                + (try LibraryCommandLine.execute(["albums", "--json"], library: library))
                + (try LibraryCommandLine.execute(["edit", "show", first], library: library, orNil: true))
        }
        let before = try snapshot()
        for words in [
            ["delete", first, "--bogus"], ["purge", "--all", "--dry-run"], ["purge", second, "--yes"],
            ["restore", second, "--bogus"], ["favorite", first, "--bogus"], ["hide", first, "--bogus"],
            ["album", "add", album, first, "--bogus"], ["album", "rename", album, "New", "--bogus"],
            ["album", "delete", album, "--bogus"], ["album", "create", "Other", "--bogus"],
            ["folder", "create", "F", "--bogus"], ["redate", first, "--by", "60", "--camera", "back"],
            ["edit", "rotate", first, "--exposure", "1"], ["edit", "revert", first, "--bogus"],
            ["export", exported, "--bogus"],
            ["thumbnail", first, "--size", "32x32", "--out", thumb, "--bogus"],
        ] {
            XCTAssertThrowsError(try LibraryCommandLine.execute(words, library: library), "\(words)") {
                error in
                XCTAssertTrue("\(error)".contains("unknown option --"), "\(words): \(error)")
            }
            XCTAssertEqual(try snapshot(), before, "\(words) changed the library")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: exported), "export wrote with a refused option")
        XCTAssertFalse(FileManager.default.fileExists(atPath: thumb), "thumbnail wrote with a refused option")
    }
}

extension LibraryCommandLine {
    /// The answer, or "none" where the command is refused (a photo without an edit).
    fileprivate static func execute(_ words: [String], library: PhotoLibrary, orNil: Bool) throws -> String {
        (try? execute(words, library: library)) ?? "none"
    }
}

final class CommandLineChangeTests: LibraryTestCase {
    func testAlbumFavoriteDeleteRestoreCommands() throws {
        let library = try openLibrary()
        let a = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let run = { (words: [String]) in try LibraryCommandLine.execute(words, library: library) }

        let created = try run(["album", "create", "Holiday", "--json"])
        let albumID = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: String])?["id"])
        XCTAssertEqual(try run(["album", "add", "Holiday", a.id]), "ok 1")
        XCTAssertTrue(try run(["album", "list", albumID]).hasPrefix(a.id))
        XCTAssertTrue(try run(["list", "--album", "Holiday"]).hasPrefix(a.id), "albums by title too")
        let albums = try run(["albums", "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(albums.utf8)) as? [String: Any])
        let albumList = try XCTUnwrap(object["albums"] as? [[String: Any]])
        XCTAssertEqual(albumList.first?["title"] as? String, "Holiday")
        XCTAssertEqual(albumList.first?["count"] as? Int, 1)
        let smart = try XCTUnwrap(object["smart"] as? [[String: Any]])
        XCTAssertEqual(smart.first?["title"] as? String, "All Photos")

        _ = try run(["favorite", a.id])
        XCTAssertEqual(try library.asset(id: a.id)?.favorite, true)
        XCTAssertTrue(try run(["list", "--favorites"]).contains("favorite"))
        _ = try run(["favorite", a.id, "--off"])
        XCTAssertEqual(try library.asset(id: a.id)?.favorite, false)
        _ = try run(["delete", a.id])
        XCTAssertEqual(try run(["list"]), "no photos")
        XCTAssertTrue(try run(["smart", "deleted"]).hasPrefix(a.id))
        _ = try run(["restore", a.id])
        XCTAssertEqual(try run(["count"]), "1")
        _ = try run(["delete", a.id])
        XCTAssertEqual(try run(["purge", "--all", "--json"]), "{\"ok\":[\"\(a.id)\"]}")
        XCTAssertEqual(try run(["count", "--deleted"]), "0")
        XCTAssertThrowsError(try run(["album", "add", "Nope", a.id])) { error in
            XCTAssertTrue("\(error)".contains("no album with id Nope"), "\(error)")
        }
    }
}

final class DateArgumentTests: LibraryTestCase {
    func testDatesTimesAndOffsets() throws {
        XCTAssertEqual(
            try DateArgument.parse("1970-01-02", option: "from"), WallTime(secondsSince1970: 86_400))
        XCTAssertEqual(
            try DateArgument.parse("2026-11-18T11:06:40Z", option: "from").secondsSince1970, 1_795_000_000)
        let offset = try DateArgument.parse("2026-11-18T12:06:40+01:00", option: "from")
        XCTAssertEqual(offset.secondsSince1970, 1_795_000_000)
        XCTAssertEqual(offset.utcOffsetSeconds, 3600)
        XCTAssertEqual(
            try DateArgument.parse("2026-11-18T06:06-05:00", option: "to").secondsSince1970, 1_794_999_960)
        for bad in ["yesterday", "2026-13-01", "2026-11-18T25:00", "2026-11-18T10:00+1"] {
            XCTAssertThrowsError(try DateArgument.parse(bad, option: "from"), bad)
        }
    }

    func testListFromTo() throws {
        let library = try openLibrary()
        let early = try library.add(
            jpeg: TestJPEG.make(), metadata: testMetadata(taken: WallTime(secondsSince1970: 1_795_000_000)))
        let late = try library.add(
            jpeg: TestJPEG.make(), metadata: testMetadata(taken: WallTime(secondsSince1970: 1_795_100_000)))
        XCTAssertTrue(
            try LibraryCommandLine.execute(["list", "--from", "2026-11-19"], library: library).hasPrefix(
                late.id))
        XCTAssertTrue(
            try LibraryCommandLine.execute(["list", "--to", "2026-11-19"], library: library).hasPrefix(
                early.id))
        XCTAssertEqual(
            try LibraryCommandLine.execute(
                ["count", "--from", "2026-11-18", "--to", "2026-11-20"], library: library), "2")
    }
}
