// The library pages' state: albums, a paged photo list, one photo's details.

/// Library data the menu asks the shell for.
public enum LibraryRequest: Hashable, Sendable {
    /// Albums and smart albums with counts.
    case albums
    /// A page of photos of a source (`smart:NAME` or `album:ID`).
    case photos(source: String, offset: Int, limit: Int)
    /// One photo's metadata.
    case photo(id: String)
}

/// Library data the shell hands back.
public enum LibraryData: Sendable {
    /// The albums.
    case albums([String])
    /// A page of photos.
    case photos(source: String, offset: Int, total: Int, rows: [String])
    /// One photo's details.
    case photo(id: String, fields: [String])
    /// The request failed.
    case failed(String)
}

/// The library pages' state (filled in by the Library page).
public struct LibraryBrowser: Sendable {
    /// An empty browser.
    public init() {}

    func items(for page: MenuPageID) -> [MenuItem] { [.info("The library browser is not available yet")] }
    mutating func opened(_ page: MenuPageID) -> [MenuEffect] { [] }
    mutating func local(_ name: String) -> ([MenuEffect], MenuPageID?) { ([], nil) }
    mutating func turnPage(forward: Bool) -> [MenuEffect] { [] }
    mutating func receive(_ data: LibraryData) {}
    mutating func answered(_ command: String, failed: Bool) -> [MenuEffect] { [] }
}
