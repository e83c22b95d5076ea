// Cached thumbnails answered before the router, on a real socket: the same answer as the
// route's, only with a live session, only from memory, and in order behind other answers.

import Logging
import XCTest

@testable import PinholeWeb

/// An answer read off a raw connection.
private struct RawAnswer {
    var status: String
    var headers: [String]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }.map {
            String($0.dropFirst(name.count + 2))
        }
    }
}

final class WebThumbnailFastPathTests: WebTestCase {
    private func start() throws -> (server: WebServer, port: UInt16) {
        let clock = self.clock
        let server = try WebServer(
            options: WebServerOptions(host: "127.0.0.1", port: 0), backend: FakeWebBackend(library: library),
            hasPIN: true, now: { clock.now }, logger: Logger(label: "test"))
        return (server, UInt16(server.address.split(separator: ":").last!)!)
    }

    private func request(_ client: RawClient, _ head: String) throws -> RawAnswer {
        try client.send(head)
        return try XCTUnwrap(client.receiveOne())
    }

    private func logIn(port: UInt16) throws -> String {
        let client = try RawClient(port: port)
        let answer = try request(
            client,
            "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: 8\r\n\r\npin=2468")
        XCTAssertEqual(answer.status, "303")
        return String(try XCTUnwrap(answer.header("Set-Cookie")).split(separator: ";")[0])
    }

    /// A started server (stop it), a kept-alive connection logged in on it, and a request for
    /// the first photo's thumbnail, asked once on the connection (now in the server's memory).
    private func connectedWithTheThumbnailCached() throws -> (
        server: WebServer, client: RawClient, cookie: String, thumb: String
    ) {
        let (server, port) = try start()
        let cookie = try logIn(port: port)
        let client = try RawClient(port: port)
        let thumb = "GET /photo/\(library.ids[0])/thumb HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\n\r\n"
        XCTAssertEqual(try request(client, thumb).status, "200")
        return (server, client, cookie, thumb)
    }

    func testACachedThumbnailGetsTheRoutesAnswerOnlyWithALiveSession() throws {
        let (server, port) = try start()
        defer { server.stop() }
        let cookie = try logIn(port: port)
        let client = try RawClient(port: port)
        let thumb = "GET /photo/\(library.ids[0])/thumb HTTP/1.1\r\nHost: x\r\n"

        let stranger = try request(client, thumb + "\r\n")
        XCTAssertEqual(stranger.status, "303", "no session: the router's redirect to the login page")
        XCTAssertEqual(stranger.header("Location"), "/login")
        let routed = try request(client, thumb + "Cookie: a=b; \(cookie)\r\n\r\n")
        XCTAssertEqual(routed.status, "200")
        XCTAssertEqual(routed.body, library.bytes)
        XCTAssertEqual(
            server.fastPath.answered.load(ordering: .relaxed), 0, "read by the route, now in memory")

        let fast = try request(client, thumb + "Cookie: a=b; \(cookie)\r\n\r\n")
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 1)
        XCTAssertEqual(fast.status, "200")
        XCTAssertEqual(fast.body, library.bytes)
        let notDate = { (headers: [String]) in headers.filter { !$0.hasPrefix("Date: ") } }
        XCTAssertEqual(notDate(fast.headers), notDate(routed.headers), "the route's headers, in its order")
        XCTAssertNotNil(fast.header("Date"))

        let etag = try XCTUnwrap(fast.header("ETag"))
        let unchanged = try request(client, thumb + "Cookie: \(cookie)\r\nIf-None-Match: \(etag)\r\n\r\n")
        XCTAssertEqual(unchanged.status, "304")
        XCTAssertEqual(unchanged.body, [])
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 2)

        let bogus = try request(
            client, thumb + "Cookie: pinhole_session=\(String(repeating: "0", count: 64))\r\n\r\n")
        XCTAssertEqual(bogus.status, "303", "an unknown session: the router's redirect")
        clock.advance(.seconds(12 * 3600 + 1))
        // The first request after so long goes through the router anyway (its idle timer); the
        // second would not, but for the expired session.
        for _ in 0..<2 {
            let expired = try request(client, thumb + "Cookie: \(cookie)\r\n\r\n")
            XCTAssertEqual(expired.status, "303", "an expired session: the router's redirect")
        }
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 2)
    }

    func testAChangedPhotosThumbnailIsReadAgainByTheRoute() throws {
        let (server, client, _, thumb) = try connectedWithTheThumbnailCached()
        defer { server.stop() }
        XCTAssertEqual(try request(client, thumb).body, library.bytes)
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 1)
        let newer: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9]
        library.edit(library.ids[0], thumbnail: newer)
        XCTAssertEqual(try request(client, thumb).body, newer)
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 1, "the route read it again")
        XCTAssertEqual(library.thumbnailReads.load(ordering: .relaxed), 2)
    }

    func testAConnectionAskingOnlyForThumbnailsGoesThroughTheRouterOnceInAWhile() throws {
        let (server, client, _, thumb) = try connectedWithTheThumbnailCached()
        defer { server.stop() }
        XCTAssertEqual(try request(client, thumb).status, "200")
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 1)
        clock.advance(WebServer.idleTimeout / 2)
        XCTAssertEqual(try request(client, thumb).body, library.bytes)
        XCTAssertEqual(
            server.fastPath.answered.load(ordering: .relaxed), 1,
            "after half the idle timeout, one through the router (which times idleness)")
        XCTAssertEqual(try request(client, thumb).status, "200")
        XCTAssertEqual(server.fastPath.answered.load(ordering: .relaxed), 2)
    }

    func testPipelinedRequestsAreAnsweredInTheirOrder() throws {
        let (server, client, cookie, thumb) = try connectedWithTheThumbnailCached()
        defer { server.stop() }
        // A page the router answers, then the cached thumbnail, in one write.
        try client.send(
            "GET /photo/\(library.ids[1]) HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\n\r\n" + thumb)
        let page = try XCTUnwrap(client.receiveOne())
        let image = try XCTUnwrap(client.receiveOne())
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(image.header("Content-Type"), "image/jpeg")
        XCTAssertEqual(image.body, library.bytes)
    }

    func testOnlyTheExactThumbnailPathIsTaken() {
        let id = "0190a5c0-0000-7000-8000-000000000001"
        XCTAssertEqual(ThumbnailFastPath.thumbnailID("/photo/\(id)/thumb"), id)
        for path in [
            "/photo/\(id)/thumb?x=1", "/photo/\(id)/view", "/photo/\(id.uppercased())/thumb",
            "/photo/../\(id)/thumb", "/photo/\(id)/thumb/", "/photo/\(id)x/thumb",
        ] {
            XCTAssertNil(ThumbnailFastPath.thumbnailID(path), path)
        }
    }
}

extension RawClient {
    /// One answer of a kept-alive connection: its head, then its Content-Length's bytes (nil
    /// when the connection closes first).
    fileprivate func receiveOne() -> RawAnswer? {
        var bytes: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        while bytes.count < 4 || Array(bytes.suffix(4)) != end {
            guard let byte = receiveByte() else { return nil }
            bytes.append(byte)
        }
        let lines = String(decoding: bytes.dropLast(4), as: UTF8.self).components(separatedBy: "\r\n")
        let status = String(lines[0].split(separator: " ")[1])
        let headers = Array(lines.dropFirst())
        let length =
            headers.first { $0.lowercased().hasPrefix("content-length: ") }
            .flatMap { Int($0.dropFirst("content-length: ".count)) } ?? 0
        var body: [UInt8] = []
        while body.count < length {
            guard let byte = receiveByte() else { return nil }
            body.append(byte)
        }
        return RawAnswer(status: status, headers: headers, body: body)
    }
}
