// Concurrent adds, batches, reads and observers on one library end in a consistent state.

import Foundation
import PinholeCore
import Synchronization
import XCTest

@testable import PinholeLibrary

final class ConcurrencyTests: LibraryTestCase {
    func testMixedConcurrentWorkLeavesAConsistentLibrary() throws {
        let library = try openLibrary()
        let album = try library.performChanges { $0.createAlbum(title: "Shared") }.createdAlbumIDs[0]
        let inserted = Mutex<Set<String>>([])
        let token = library.observe(.all) { details in inserted.withLock { $0.formUnion(details.insertedIDs) }
        }
        let added = Mutex<[String]>([])
        let failures = Mutex<[String]>([])

        DispatchQueue.concurrentPerform(iterations: 24) { index in
            do {
                switch index % 4 {
                case 0, 1:  // the capture path
                    let asset = try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata())
                    added.withLock { $0.append(asset.id) }
                case 2:  // a batch: new photo into the album, favorite it
                    let result = try library.performChanges { batch in
                        let id = batch.createAsset(jpeg: TestJPEG.make(seed: index), metadata: testMetadata())
                        batch.addAssets([id], to: album)
                        batch.setFavorite([id], true)
                    }
                    added.withLock { $0 += result.createdAssetIDs }
                default:  // the console reading
                    _ = try library.page(.all, offset: 0, pageSize: 10)
                    _ = try library.assets(library.albumQuery(album))
                    _ = try library.count(library.query(for: .favorites))
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let ids = Set(added.withLock { $0 })
        XCTAssertEqual(ids.count, 18)
        XCTAssertEqual(Set(try library.assetIDs(.all)), ids)
        XCTAssertEqual(try library.count(library.albumQuery(album)), 6)
        XCTAssertEqual(try library.count(library.query(for: .favorites)), 6)
        XCTAssertEqual(inserted.withLock { $0 }, ids, "observers saw every insertion exactly as committed")
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean)
        XCTAssertEqual(try library.maintain(), [])
        withExtendedLifetime(token) {}
    }
}
