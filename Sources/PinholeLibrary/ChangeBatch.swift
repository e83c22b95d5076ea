// A batch of library changes, recorded by `performChanges` and applied atomically.

import PinholeCore
import PinholeImaging

/// The changes of one `performChanges` call. Methods only record requests; nothing happens
/// until the body returns, then all requests are applied in one transaction: either every
/// change is made, or (on any error) none.
///
/// Objects created in the batch get their final identifiers immediately, so later requests
/// of the same batch can refer to them (e.g. create an album, then add a new photo to it).
public struct ChangeBatch {
    /// One recorded request.
    enum Request {
        case createAsset(id: String, jpeg: [UInt8], metadata: PhotoMetadata)
        case adoptAsset(Asset)
        case createAlbum(id: String, title: String, folderID: String?)
        case createFolder(id: String, title: String, parentID: String?)
        case renameAlbum(id: String, title: String)
        case renameFolder(id: String, title: String)
        case deleteAlbum(id: String)
        case deleteFolder(id: String)
        case moveAlbum(id: String, folderID: String?)
        case addAssets([String], albumID: String)
        case removeAssets([String], albumID: String)
        case moveAssets([String], albumID: String, toIndex: Int)
        case setFavorite([String], Bool)
        case setHidden([String], Bool)
        case delete([String])
        case restore([String])
        case redate([String], by: Duration)
    }

    /// When the batch was started (the library's clock).
    let time: WallTime
    private(set) var requests: [Request] = []
    private(set) var createdIDs: [String] = []
    /// Adopted originals that stay on disk when the batch fails (recorded clips: the next open
    /// adopts them), where a photo's is removed.
    private(set) var keptOnFailure: Set<String> = []

    init(time: WallTime) { self.time = time }

    /// A new identifier for an object created in this batch.
    private mutating func newID() -> String {
        let id = Identifier.make(at: time)
        createdIDs.append(id)
        return id
    }

    /// Adds a new photo (stored durably before the batch commits); returns its identifier.
    @discardableResult
    public mutating func createAsset(jpeg: [UInt8], metadata: PhotoMetadata) -> String {
        let id = newID()
        requests.append(.createAsset(id: id, jpeg: jpeg, metadata: metadata))
        return id
    }

    /// Adds a photo whose original is already written (`PhotoLibrary.writeOriginal(metadata:producing:)`);
    /// returns its identifier. If the batch fails, the original is removed.
    @discardableResult
    public mutating func adopt(_ original: WrittenOriginal) -> String {
        let id = original.asset.id
        createdIDs.append(id)
        requests.append(.adoptAsset(original.asset))
        return id
    }

    /// Adds a recorded clip whose file is already named (`LibraryClipFile.complete`); returns
    /// its identifier. If the batch fails, the file stays where it is and the next open adopts
    /// it: the frames it holds were recorded, and only the index entry is missing.
    @discardableResult
    mutating func adoptKeeping(_ original: WrittenOriginal) -> String {
        keptOnFailure.insert(original.asset.id)
        return adopt(original)
    }

    /// Creates an album (at the end of `folderID`, or of the top level); returns its identifier.
    @discardableResult
    public mutating func createAlbum(title: String, in folderID: String? = nil) -> String {
        let id = newID()
        requests.append(.createAlbum(id: id, title: title, folderID: folderID))
        return id
    }

    /// Creates a folder of albums; returns its identifier.
    @discardableResult
    public mutating func createFolder(title: String, in parentID: String? = nil) -> String {
        let id = newID()
        requests.append(.createFolder(id: id, title: title, parentID: parentID))
        return id
    }

    /// Renames an album.
    public mutating func renameAlbum(_ id: String, to title: String) {
        requests.append(.renameAlbum(id: id, title: title))
    }

    /// Renames a folder.
    public mutating func renameFolder(_ id: String, to title: String) {
        requests.append(.renameFolder(id: id, title: title))
    }

    /// Deletes an album; its photos stay in the library.
    public mutating func deleteAlbum(_ id: String) { requests.append(.deleteAlbum(id: id)) }

    /// Deletes a folder with the albums and folders in it; their photos stay in the library.
    public mutating func deleteFolder(_ id: String) { requests.append(.deleteFolder(id: id)) }

    /// Moves an album into a folder (nil: top level), at its end.
    public mutating func moveAlbum(_ id: String, to folderID: String?) {
        requests.append(.moveAlbum(id: id, folderID: folderID))
    }

    /// Appends photos to an album (photos already in it keep their place).
    public mutating func addAssets(_ ids: [String], to albumID: String) {
        requests.append(.addAssets(ids, albumID: albumID))
    }

    /// Removes photos from an album (they stay in the library).
    public mutating func removeAssets(_ ids: [String], from albumID: String) {
        requests.append(.removeAssets(ids, albumID: albumID))
    }

    /// Moves photos of an album so that the first is at `index` of the album's order.
    public mutating func moveAssets(_ ids: [String], in albumID: String, to index: Int) {
        requests.append(.moveAssets(ids, albumID: albumID, toIndex: index))
    }

    /// Marks or unmarks photos as favorite.
    public mutating func setFavorite(_ ids: [String], _ favorite: Bool) {
        requests.append(.setFavorite(ids, favorite))
    }

    /// Hides or unhides photos.
    public mutating func setHidden(_ ids: [String], _ hidden: Bool) {
        requests.append(.setHidden(ids, hidden))
    }

    /// Moves photos to Recently Deleted (photos already there are unchanged).
    public mutating func delete(_ ids: [String]) { requests.append(.delete(ids)) }

    /// Brings photos back from Recently Deleted (photos not deleted are unchanged).
    public mutating func restore(_ ids: [String]) { requests.append(.restore(ids)) }

    /// Moves photos' dates by `shift` (a clock that was wrong when they were taken): the
    /// index and every listing change; the originals stay untouched.
    public mutating func redate(_ ids: [String], by shift: Duration) {
        requests.append(.redate(ids, by: shift))
    }
}

/// What a committed batch did.
public struct ChangeResult: Sendable, Hashable {
    /// Identifiers of all objects created, in the order they were requested.
    public var createdIDs: [String]
    /// Identifiers of the photos created.
    public var createdAssetIDs: [String]
    /// Identifiers of the albums created.
    public var createdAlbumIDs: [String]
    /// Identifiers of the folders created.
    public var createdFolderIDs: [String]
    /// Identifiers of all photos the batch touched (created, changed, deleted, …).
    public var touchedAssetIDs: [String]
}
