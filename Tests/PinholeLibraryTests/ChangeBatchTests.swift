// Tests of atomic change batches: albums, folders, favorites and their observers.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class ChangeBatchTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    private func addPhotos(_ count: Int, camera: String = "cam0") throws -> [String] {
        try (0..<count).map { seed in
            clock.advance(seconds: 1)
            return try library.add(jpeg: TestJPEG.make(seed: seed), metadata: testMetadata(camera: camera)).id
        }
    }

    func testBatchCreatesAnAlbumAndANewPhotoInIt() throws {
        let recorder = DetailsRecorder()
        let token = library.observe(.all, recorder.handler)
        var albumID = "", photoID = ""
        let result = try library.performChanges { batch in
            albumID = batch.createAlbum(title: "  Trip ")
            photoID = batch.createAsset(jpeg: TestJPEG.make(), metadata: testMetadata())
            batch.addAssets([photoID], to: albumID)
        }
        XCTAssertEqual(result.createdIDs, [albumID, photoID])
        XCTAssertEqual(result.createdAlbumIDs, [albumID])
        XCTAssertEqual(result.createdAssetIDs, [photoID])
        let album = try XCTUnwrap(library.album(id: albumID))
        XCTAssertEqual(album.title, "Trip")
        XCTAssertEqual(album.created, clock.time)
        XCTAssertEqual(album.count, 1)
        XCTAssertEqual(try library.assetIDs(library.albumQuery(albumID)), [photoID])
        let asset = try XCTUnwrap(library.asset(id: photoID))
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.fileURLPath(of: asset).string))
        XCTAssertEqual(recorder.all.count, 1)
        XCTAssertEqual(recorder.all.first?.insertedIDs, [photoID])
        XCTAssertEqual(recorder.all.first?.collectionIDs, [albumID])
        withExtendedLifetime(token) {}
    }

    func testAFailingBatchChangesNothing() throws {
        let existing = try addPhotos(1)[0]
        let recorder = DetailsRecorder()
        let token = library.observe(.all, recorder.handler)
        XCTAssertThrowsError(
            try library.performChanges { batch in
                let album = batch.createAlbum(title: "Doomed")
                let photo = batch.createAsset(jpeg: TestJPEG.make(seed: 9), metadata: testMetadata())
                batch.setFavorite([existing], true)
                batch.addAssets([photo, "01900000-0000-7000-8000-00000000dead"], to: album)
            }
        ) { error in
            XCTAssertEqual(error as? LibraryError, .assetNotFound(id: "01900000-0000-7000-8000-00000000dead"))
        }
        XCTAssertEqual(try library.albums(), [])
        XCTAssertEqual(try library.assetIDs(.all), [existing])
        XCTAssertEqual(try library.asset(id: existing)?.favorite, false)
        XCTAssertTrue(recorder.all.isEmpty)
        XCTAssertTrue(try library.fsck().isClean, fsckText(library))

        struct Stop: Error {}
        XCTAssertThrowsError(
            try library.performChanges { batch in
                batch.setFavorite([existing], true)
                throw Stop()
            })
        XCTAssertEqual(try library.asset(id: existing)?.favorite, false)
        withExtendedLifetime(token) {}
    }

    func testAlbumOrderMovesAndRemovals() throws {
        let ids = try addPhotos(4)
        let album = try library.performChanges { $0.createAlbum(title: "Ordered") }.createdAlbumIDs[0]
        _ = try library.performChanges { $0.addAssets([ids[2], ids[0], ids[1], ids[3], ids[0]], to: album) }
        XCTAssertEqual(try library.assetIDs(library.albumQuery(album)), [ids[2], ids[0], ids[1], ids[3]])
        _ = try library.performChanges { $0.moveAssets([ids[3]], in: album, to: 0) }
        XCTAssertEqual(try library.assetIDs(library.albumQuery(album)), [ids[3], ids[2], ids[0], ids[1]])
        _ = try library.performChanges { $0.removeAssets([ids[2]], from: album) }
        XCTAssertEqual(try library.assetIDs(library.albumQuery(album)), [ids[3], ids[0], ids[1]])
        XCTAssertThrowsError(try library.performChanges { $0.moveAssets([ids[2]], in: album, to: 0) })
        _ = try library.performChanges { $0.renameAlbum(album, to: "Renamed") }
        XCTAssertEqual(try library.album(id: album)?.title, "Renamed")
        _ = try library.performChanges { $0.deleteAlbum(album) }
        XCTAssertNil(try library.album(id: album))
        XCTAssertEqual(try library.count(.all), 4)
        XCTAssertThrowsError(try library.performChanges { $0.renameAlbum(album, to: "x") }) { error in
            XCTAssertEqual(error as? LibraryError, .albumNotFound(id: album))
        }
        XCTAssertThrowsError(try library.performChanges { _ = $0.createAlbum(title: "   ") })
    }

    func testFoldersHoldAlbumsAndDeleteWithThem() throws {
        let ids = try addPhotos(1)
        var outer = "", inner = "", albumA = "", albumB = ""
        _ = try library.performChanges { batch in
            outer = batch.createFolder(title: "Travel")
            inner = batch.createFolder(title: "2026", in: outer)
            albumA = batch.createAlbum(title: "Rome", in: inner)
            albumB = batch.createAlbum(title: "Top")
            batch.addAssets(ids, to: albumA)
        }
        XCTAssertEqual(try library.folders().map(\.id).sorted(), [outer, inner].sorted())
        XCTAssertEqual(try library.albums(in: inner).map(\.id), [albumA])
        XCTAssertEqual(try library.albums(in: nil).map(\.id), [albumB])
        _ = try library.performChanges { $0.moveAlbum(albumB, to: outer) }
        XCTAssertEqual(try library.albums(in: outer).map(\.id), [albumB])
        let recorder = DetailsRecorder()
        let token = library.observe(library.albumQuery(albumA), recorder.handler)
        _ = try library.performChanges { $0.deleteFolder(outer) }
        XCTAssertEqual(try library.folders(), [])
        XCTAssertEqual(try library.albums(), [])
        XCTAssertEqual(try library.count(.all), 1)
        XCTAssertEqual(recorder.all.first?.removedIDs, ids)
        XCTAssertEqual(Set(recorder.all.first?.collectionIDs ?? []), [outer, inner, albumA, albumB])
        XCTAssertThrowsError(try library.performChanges { _ = $0.createAlbum(title: "x", in: outer) }) {
            error in
            XCTAssertEqual(error as? LibraryError, .folderNotFound(id: outer))
        }
        withExtendedLifetime(token) {}
    }

    func testObserversSeeInsertedRemovedAndChanged() throws {
        let ids = try addPhotos(2)
        let all = DetailsRecorder(), favorites = DetailsRecorder()
        let tokens = [
            library.observe(.all, all.handler),
            library.observe(library.query(for: .favorites), favorites.handler),
        ]
        try library.setFavorite([ids[0]], true)
        XCTAssertEqual(all.all.last?.changedIDs, [ids[0]])
        XCTAssertEqual(favorites.all.last?.insertedIDs, [ids[0]])
        try library.delete([ids[0]])
        XCTAssertEqual(all.all.last?.removedIDs, [ids[0]])
        XCTAssertEqual(favorites.all.last?.removedIDs, [ids[0]])
        try library.setFavorite([ids[1]], false)
        XCTAssertEqual(favorites.all.count, 2, "unfavoriting a non-favorite does not concern Favorites")
        XCTAssertEqual(all.all.count, 3)
        withExtendedLifetime(tokens) {}
    }

    func testSmartAlbums() throws {
        let old = try addPhotos(1, camera: "back")[0]
        clock.advance(seconds: 40 * 86_400)
        let recent = try addPhotos(2, camera: "front")
        try library.setFavorite([recent[0]], true)
        _ = try library.performChanges { $0.setHidden([recent[1]], true) }
        XCTAssertEqual(
            try library.smartAlbums().map(\.id),
            [
                "smart:all", "smart:recent", "smart:favorites", "smart:videos", "smart:live",
                "smart:camera:back",
                "smart:camera:front", "smart:edited", "smart:hidden", "smart:deleted",
            ])
        XCTAssertEqual(try library.assetIDs(library.query(for: .allPhotos)), [old, recent[0]])
        XCTAssertEqual(try library.assetIDs(library.query(for: .recentlyAdded)), [recent[0]])
        XCTAssertEqual(try library.assetIDs(library.query(for: .favorites)), [recent[0]])
        XCTAssertEqual(try library.assetIDs(library.query(for: .camera("back"))), [old])
        XCTAssertEqual(try library.assetIDs(library.query(for: .hidden)), [recent[1]])
        XCTAssertEqual(try library.assetIDs(library.query(for: .edited)), [])
        XCTAssertEqual(SmartAlbum(name: "camera:front"), .camera("front"))
        XCTAssertEqual(SmartAlbum(name: "smart:deleted"), .recentlyDeleted)
        XCTAssertNil(SmartAlbum(name: "bogus"))
    }
}
