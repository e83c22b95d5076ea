// Router tests of the library pages: keyset paging, the photo page, Range, archives,
// typed commands, and requests that must serve nothing.

import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PinholeConsole
import XCTest

@testable import PinholeWeb

final class WebLibraryRouteTests: WebTestCase {
    func testTheGridPagesWithTheLibrarysKeysetUntilTheEnd() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let first = String(
                buffer: try await client.execute(uri: "/", method: .get, headers: session.headers).body)
            XCTAssertEqual(first.matches(of: /class="tile"/).count, 60)
            var next = try XCTUnwrap(first.firstMatch(of: /id="more" data-href="([^"]+)"/)?.1)
            var seen = 60
            while true {
                let uri = String(next).replacingOccurrences(of: "&amp;", with: "&")
                let page = String(
                    buffer: try await client.execute(uri: uri, method: .get, headers: session.headers).body)
                seen += page.matches(of: /class="tile"/).count
                guard let more = page.firstMatch(of: /id="next" data-href="([^"]+)"/)?.1 else { break }
                next = more
            }
            XCTAssertEqual(seen, 130)
        }
    }

    func testThePhotoPageShowsEveryFieldEscapedAndItsLocation() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let id = library.ids[3]
            let page = String(
                buffer: try await client.execute(uri: "/photo/\(id)", method: .get, headers: session.headers)
                    .body)
            XCTAssertTrue(page.contains("46.5, 6.6"))
            XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            XCTAssertFalse(page.contains("<script>alert(1)"))
            XCTAssertTrue(page.contains("Birds &lt;&amp;&gt;"))
            XCTAssertTrue(page.contains("/photo/\(id)/original"))
            XCTAssertTrue(page.contains(">ISO<"))
        }
    }

    func testTheOriginalHonoursRangeAndRefusesARangePastTheEnd() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let uri = "/photo/\(library.ids[0])/original"
            let whole = try await client.execute(uri: uri, method: .get, headers: session.headers)
            XCTAssertEqual(whole.status, .ok)
            XCTAssertEqual(Array(buffer: whole.body), library.bytes)
            XCTAssertTrue(whole.headers[.contentDisposition]?.hasPrefix("attachment") ?? false)
            let cases: [(String, HTTPResponse.Status, Range<Int>?)] = [
                ("bytes=10-19", .partialContent, 10..<20), ("bytes=4990-", .partialContent, 4990..<5000),
                ("bytes=-5", .partialContent, 4995..<5000),
                ("bytes=4999-99999", .partialContent, 4999..<5000),
                ("bytes=5000-", .rangeNotSatisfiable, nil), ("bytes=99999999999-", .rangeNotSatisfiable, nil),
                ("bytes=20-10", .ok, 0..<5000), ("bytes=1-2,5-6", .ok, 0..<5000),
                ("lines=1-2", .ok, 0..<5000),
            ]
            for (range, status, bytes) in cases {
                var headers = session.headers
                headers[.range] = range
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                XCTAssertEqual(response.status, status, range)
                if let bytes {
                    XCTAssertEqual(Array(buffer: response.body), Array(library.bytes[bytes]), range)
                } else {
                    XCTAssertEqual(response.headers[.contentRange], "bytes */5000", range)
                    XCTAssertEqual(response.body.readableBytes, 0, range)
                }
            }
        }
    }

    func testTraversalAndForeignPathsServeNothing() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            for uri in [
                "/photo/../../../etc/passwd/original", "/photo/..%2f..%2f..%2fetc%2fpasswd/original",
                "/photo/%2e%2e%2f%2e%2e%2fetc%2fpasswd/original",
                "/photo/%252e%252e%252fetc%252fpasswd/original",
                "/photo/\(library.ids[0].uppercased())/original", "/album/..%2f..%2fetc",
                "/grid?source=../../etc&after=x", "/grid?source=smart:all&after=../../etc/passwd",
                "/photo/\(library.ids[0])%00/original", "/etc/passwd", "/..%2f..%2fetc%2fpasswd",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: session.headers)
                XCTAssertTrue((400..<500).contains(Int(response.status.code)), "\(uri): \(response.status)")
                XCTAssertFalse(String(buffer: response.body).contains("root:"), uri)
            }
        }
    }

    func testPhotoActionsAreTypedLibraryCommands() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        let album = "0190a5c0-0000-7000-8000-aaaaaaaaaaaa"
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            let id = library.ids[1]
            let unconfirmed = try await client.execute(
                uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                body: session.form("action=delete"))
            XCTAssertEqual(unconfirmed.status, .conflict)
            XCTAssertTrue(String(buffer: unconfirmed.body).contains("Type delete to confirm"))
            for action in ["favorite", "unfavorite", "hide", "unhide", "delete&confirm=delete", "restore"] {
                let response = try await client.execute(
                    uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                    body: session.form("action=\(action)"))
                XCTAssertEqual(response.status, .seeOther, action)
            }
            for body in ["action=album-add&album=\(album)", "action=album-remove&album=\(album)"] {
                _ = try await client.execute(
                    uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                    body: session.form(body))
            }
            for hostile in ["action=purge", "action=album-add&album=--all", "action=delete%20--all"] {
                let response = try await client.execute(
                    uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                    body: session.form(hostile))
                XCTAssertEqual(response.status, .badRequest, hostile)
            }
            // A form that does not decode cannot carry its token either.
            let broken = try await client.execute(
                uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                body: session.form("action=%ZZ"))
            XCTAssertEqual(broken.status, .forbidden)
        }
        let id = library.ids[1]
        let expected: [ConsoleInvocation] = [
            ConsoleInvocation(LibraryWordsCommand(["favorite", id])),
            ConsoleInvocation(LibraryWordsCommand(["favorite", id, "--off"])),
            ConsoleInvocation(LibraryWordsCommand(["hide", id])),
            ConsoleInvocation(LibraryWordsCommand(["hide", id, "--off"])),
            ConsoleInvocation(LibraryWordsCommand(["delete", id])),
            ConsoleInvocation(LibraryWordsCommand(["restore", id])),
            ConsoleInvocation(LibraryWordsCommand(["album", "add", album, id])),
            ConsoleInvocation(LibraryWordsCommand(["album", "remove", album, id])),
        ]
        XCTAssertEqual(backend.ran, expected)
    }

    func testAnErrorFromTheCommandIsAnsweredAsAConflict() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library) { _ in "error 69: no such photo" }
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            let response = try await client.execute(
                uri: "/photo/\(library.ids[0])/action", method: .post, headers: session.postHeaders,
                body: session.form("action=restore"))
            XCTAssertEqual(response.status, .conflict)
            XCTAssertTrue(String(buffer: response.body).contains("no such photo"))
        }
    }

    func testSelectedPhotosDownloadAsAZipOfTheOriginals() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let ids = Array(library.ids.prefix(3))
            let response = try await client.execute(
                uri: "/archive", method: .post, headers: session.postHeaders,
                body: session.form("ids=" + ids.joined(separator: ",")))
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "application/zip")
            let zip = Array(buffer: response.body)
            // Three local headers, three data descriptors, three directory entries, one end record.
            let entry = 30 + 40 + 5000 + 16  // local header and name, data, data descriptor
            let directory = 46 + 40  // central directory record and name
            XCTAssertEqual(zip.count, 3 * entry + 3 * directory + 22)
            XCTAssertEqual(Array(zip.prefix(4)), [0x50, 0x4B, 0x03, 0x04] as [UInt8])
            var crc = CRC32()
            library.bytes.withUnsafeBytes { crc.update($0) }
            let descriptor = Array(zip[(entry - 16)..<entry])
            XCTAssertEqual(
                Array(descriptor[4..<8]), withUnsafeBytes(of: crc.value.littleEndian) { Array($0) })
            let bad = try await client.execute(
                uri: "/archive", method: .post, headers: session.postHeaders,
                body: session.form("ids=../../etc/passwd"))
            XCTAssertEqual(bad.status, .notFound)
        }
    }

    func testCRC32MatchesTheStandardCheckValue() {
        var crc = CRC32()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        XCTAssertEqual(crc.value, 0xCBF4_3926)
    }

    func testCameraFormsBecomeTypedCommandsAndHostileValuesRunNothing() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            for body in [
                "command=shutter", "command=switch", "command=torch-on", "command=af-point&x=0.25&y=0.75",
                "command=ev&value=-1.5", "command=flash&value=auto", "command=exposure-auto",
                "command=af-mode&value=continuous", "command=exposure-manual&time=8000&gain=2.5",
            ] {
                let response = try await client.execute(
                    uri: "/camera/command", method: .post, headers: session.postHeaders,
                    body: session.form(body))
                XCTAssertEqual(response.status, .ok, body)
            }
            for hostile in [
                "command=af-point&x=2&y=0.5", "command=af-point&x=nan&y=0.5", "command=ev&value=inf",
                "command=flash&value=always", "command=shutdown", "command=", "command=ev&value=1e400",
                "command=exposure-manual&time=0&gain=1", "command=exposure-manual&time=8000&gain=nan",
                "command=exposure-manual&gain=1",
            ] {
                let response = try await client.execute(
                    uri: "/camera/command", method: .post, headers: session.postHeaders,
                    body: session.form(hostile))
                XCTAssertEqual(response.status, .badRequest, hostile)
            }
        }
        let expected: [ConsoleInvocation] = [
            ConsoleInvocation(CaptureCommand.now), ConsoleInvocation(CameraCommand.switchNext),
            ConsoleInvocation(TorchCommand(on: true)), ConsoleInvocation(AFCommand.point(x: 0.25, y: 0.75)),
            ConsoleInvocation(EVCommand(stops: -1.5)), ConsoleInvocation(FlashCommand(mode: .auto)),
            ConsoleInvocation(ExposureCommand.auto), ConsoleInvocation(AFCommand.mode(.continuous)),
            ConsoleInvocation(ExposureCommand.manual(timeUs: 8000, gain: 2.5)),
        ]
        XCTAssertEqual(backend.ran, expected)
    }

    func testTheManualExposureFormSendsEveryShutterSpeedAsTheConsolesCommand() throws {
        let page = CameraPage.render(rotation: 0)
        let fields = try XCTUnwrap(
            page.firstMatch(of: /data-command="exposure-manual" data-fields="([^"]+)"/)?.1)
        for id in fields.split(separator: " ") {
            XCTAssertTrue(page.contains("id=\"\(id)\""), "the form has its field \(id)")
        }
        let values = page.matches(of: /<option value="([0-9]+)"/).map { String($0.1) }
        XCTAssertEqual(values.count, CameraPage.shutterSpeeds.count)
        for value in values {
            let form = try XCTUnwrap(WebForm("command=exposure-manual&time=\(value)&gain=1"))
            XCTAssertEqual(
                ConsoleInvocation(try WebRoutes.cameraCommand(form)),
                ConsoleInvocation(ExposureCommand.manual(timeUs: Int(value)!, gain: 1)), value)
        }
    }
}
