// Clips and Live Photos in the gallery: a badge on their tile, a video element on their page
// playing the Range download, and the motion clip served with Range.

import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

@testable import PinholeWeb

/// The session's headers with a Range header.
private func ranged(_ session: LoggedIn, _ range: String) -> HTTPFields {
    var headers = session.headers
    headers[.range] = range
    return headers
}

final class WebClipTests: WebTestCase {
    override func setUp() {
        library = FakeLibrary(count: 5, clips: [1: "video", 2: "live"])
    }

    func testClipsAndLivePhotosCarryTheirKindAndLengthOnTheirTile() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let grid = String(
                buffer: try await client.execute(uri: "/", method: .get, headers: session.headers).body)
            let tiles = grid.split(separator: "<a class=\"tile\"").dropFirst().map(String.init)
            XCTAssertEqual(tiles.count, 5)
            XCTAssertTrue(tiles[1].contains("<span class=\"clip\">▶ 3.0 s</span>"), tiles[1])
            XCTAssertTrue(
                tiles[1].contains("src=\"/photo/\(library.ids[1])/thumb\""), "the poster is its thumbnail")
            XCTAssertTrue(tiles[2].contains("<span class=\"clip\">LIVE 3.0 s</span>"), tiles[2])
            XCTAssertFalse(tiles[0].contains("class=\"clip\""), "a photo has no badge")
        }
    }

    func testAClipsPagePlaysItsRangeDownloadAndALivePhotoItsMotionClip() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            func page(_ index: Int) async throws -> String {
                String(
                    buffer: try await client.execute(
                        uri: "/photo/\(library.ids[index])", method: .get, headers: session.headers
                    ).body)
            }
            let (photo, video, live) = (try await page(0), try await page(1), try await page(2))
            XCTAssertFalse(photo.contains("<video"))
            XCTAssertTrue(
                video.contains(
                    "<video id=\"clip\" controls playsinline preload=\"metadata\" poster=\"/photo/\(library.ids[1])/view\" src=\"/photo/\(library.ids[1])/original\">"
                ),
                video)
            XCTAssertTrue(live.contains("src=\"/photo/\(library.ids[2])/motion\""), live)
            XCTAssertTrue(
                live.contains("<img alt=\"photo \(library.ids[2])\""), "a Live Photo shows its still")

            let clip = try await client.execute(
                uri: "/photo/\(library.ids[1])/original", method: .get,
                headers: ranged(session, "bytes=100-199"))
            XCTAssertEqual(clip.status, .partialContent)
            XCTAssertEqual(clip.headers[.contentType], "video/mp4")
            XCTAssertEqual(Array(buffer: clip.body), Array(library.bytes[100...199]))
        }
    }

    func testTheMotionClipIsServedWithRangeAndOnlyForALivePhoto() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let uri = "/photo/\(library.ids[2])/motion"
            let whole = try await client.execute(uri: uri, method: .get, headers: session.headers)
            XCTAssertEqual(whole.status, .ok)
            XCTAssertEqual(whole.headers[.contentType], "video/mp4")
            XCTAssertEqual(Array(buffer: whole.body), library.motionBytes)
            let tail = try await client.execute(
                uri: uri, method: .get, headers: ranged(session, "bytes=-10"))
            XCTAssertEqual(tail.status, .partialContent)
            XCTAssertEqual(tail.headers[.contentRange], "bytes 2990-2999/3000")
            XCTAssertEqual(Array(buffer: tail.body), Array(library.motionBytes[2990...]))
            let past = try await client.execute(
                uri: uri, method: .get, headers: ranged(session, "bytes=3000-"))
            XCTAssertEqual(past.status, .rangeNotSatisfiable)
            for index in [0, 1] {
                let none = try await client.execute(
                    uri: "/photo/\(library.ids[index])/motion", method: .get, headers: session.headers)
                XCTAssertEqual(none.status, .notFound, "photo \(index) has no motion clip")
            }
        }
    }
}
