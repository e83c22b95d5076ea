// Thumbnails served from memory: read from the library once, revalidated by entity tag,
// dropped when the library reports the photo changed, bounded in bytes.

import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

@testable import PinholeWeb

final class WebThumbnailTests: WebTestCase {
    func testAThumbnailIsReadOnceThenServedFromMemoryUntilThePhotoChanges() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let uri = "/photo/\(library.ids[0])/thumb"
            let first = try await client.execute(uri: uri, method: .get, headers: session.headers)
            XCTAssertEqual(first.status, .ok)
            XCTAssertEqual(Array(buffer: first.body), library.bytes)
            XCTAssertEqual(first.headers[.contentType], "image/jpeg")
            let etag = try XCTUnwrap(first.headers[.eTag])
            let second = try await client.execute(uri: uri, method: .get, headers: session.headers)
            XCTAssertEqual(Array(buffer: second.body), library.bytes)
            XCTAssertEqual(second.headers[.eTag], etag)
            XCTAssertEqual(library.thumbnailReads.load(ordering: .relaxed), 1, "the second came from memory")

            var revalidate = session.headers
            revalidate[.ifNoneMatch] = "W/\"other\", \(etag)"
            let unchanged = try await client.execute(uri: uri, method: .get, headers: revalidate)
            XCTAssertEqual(unchanged.status, .notModified)
            XCTAssertEqual(unchanged.body.readableBytes, 0)

            let newer: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9]
            library.edit(library.ids[0], thumbnail: newer)
            let changed = try await client.execute(uri: uri, method: .get, headers: revalidate)
            XCTAssertEqual(changed.status, .ok, "the old tag no longer matches")
            XCTAssertEqual(Array(buffer: changed.body), newer)
            XCTAssertNotEqual(changed.headers[.eTag], etag)
            XCTAssertEqual(library.thumbnailReads.load(ordering: .relaxed), 2)

            let other = try await client.execute(
                uri: "/photo/\(library.ids[1])/thumb", method: .get, headers: session.headers)
            XCTAssertEqual(Array(buffer: other.body), library.bytes)
            XCTAssertEqual(library.thumbnailReads.load(ordering: .relaxed), 3)
            let missing = try await client.execute(
                uri: "/photo/0190a5c0-0000-7000-8000-ffffffffffff/thumb", method: .get,
                headers: session.headers)
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testTheCacheKeepsAtMostItsCapacityDroppingTheOldestFirst() {
        let cache = ThumbnailCache(capacity: 1000, largestEntry: 600)
        cache.follow(library)
        let bytes = [UInt8](repeating: 7, count: 300)
        for index in 0..<5 {
            _ = cache.keep(bytes, id: "p\(index)", size: 256, readAt: cache.generation())
        }
        XCTAssertEqual(cache.bytes, 900)
        XCTAssertNil(cache.entry(id: "p0", size: 256))
        XCTAssertNil(cache.entry(id: "p1", size: 256))
        XCTAssertNotNil(cache.entry(id: "p4", size: 256))
        XCTAssertNil(cache.entry(id: "p4", size: 1280))
        _ = cache.keep([UInt8](repeating: 1, count: 700), id: "big", size: 256, readAt: cache.generation())
        XCTAssertNil(cache.entry(id: "big", size: 256), "larger than an entry may be")
        cache.forget(["p3"])
        XCTAssertNil(cache.entry(id: "p3", size: 256))
        XCTAssertEqual(cache.bytes, 600)
    }

    func testAReadThatAChangeOvertookIsNotKept() {
        let cache = ThumbnailCache()
        cache.follow(library)
        let before = cache.generation()
        library.edit(library.ids[0], thumbnail: [1, 2, 3])
        let sent = cache.keep(library.bytes, id: library.ids[0], size: 256, readAt: before)
        XCTAssertEqual(Array(buffer: sent.body), library.bytes, "sent, but")
        XCTAssertNil(cache.entry(id: library.ids[0], size: 256), "not kept")
        _ = cache.keep([1, 2, 3], id: library.ids[0], size: 256, readAt: cache.generation())
        XCTAssertNotNil(cache.entry(id: library.ids[0], size: 256))
    }

    func testIfNoneMatchNamesTheTagInAListOrByStar() {
        XCTAssertTrue(ThumbnailCache.matches("\"a\"", "\"a\""))
        XCTAssertTrue(ThumbnailCache.matches(" \"b\" , W/\"a\" ", "\"a\""))
        XCTAssertTrue(ThumbnailCache.matches("*", "\"a\""))
        XCTAssertFalse(ThumbnailCache.matches("\"ab\"", "\"a\""))
        XCTAssertFalse(ThumbnailCache.matches(nil, "\"a\""))
        XCTAssertNotEqual(ThumbnailCache.etag([1, 2]), ThumbnailCache.etag([2, 1]))
    }
}
