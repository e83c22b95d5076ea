// The store's optional ability to put a saved photo into a named album (timelapse and trigger albums).

/// A photo store that keeps albums.
public protocol AlbumFiling: Sendable {
    /// Adds the stored photo `photoID` to the album titled `album`, creating the album when no
    /// album has that title.
    func file(_ photoID: String, inAlbum album: String) throws
}
