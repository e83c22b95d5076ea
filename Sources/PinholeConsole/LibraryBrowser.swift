// The library pages' state and items: albums, a paged photo list, one photo's details
// with its actions (favorite, add to album, delete/restore, rotate, crop, revert).

/// Library data the menu asks the shell for.
public enum LibraryRequest: Hashable, Sendable {
    /// Albums and smart albums with counts.
    case albums
    /// A page of photos of an album or smart album.
    case photos(source: LibraryAlbumRow, offset: Int, limit: Int)
    /// One photo's metadata.
    case photo(id: String)
}

/// Library data the shell hands back.
public enum LibraryData: Sendable {
    /// The smart albums, then the user albums.
    case albums([LibraryAlbumRow])
    /// A page of photos.
    case photos(source: LibraryAlbumRow, offset: Int, rows: [LibraryPhotoRow])
    /// One photo's details.
    case photo(LibraryPhotoDetail)
    /// The request failed.
    case failed(String)
}

/// The library pages' state. Loads go out as `MenuEffect.load`; changes are `library …`
/// commands, after which whatever is shown is loaded again.
public struct LibraryBrowser: Sendable {
    /// Photos per page of the list.
    public static let pageSize = 12
    private(set) var albums: [LibraryAlbumRow] = []
    private(set) var source: LibraryAlbumRow?
    private(set) var offset = 0
    private(set) var photos: [LibraryPhotoRow] = []
    private(set) var photo: LibraryPhotoDetail?
    private(set) var problem: String?

    /// An empty browser.
    public init() {}

    mutating func opened(_ page: MenuPageID) -> [MenuEffect] {
        problem = nil
        switch page {
        case .library, .albums: return [.load(.albums)]
        default: return []
        }
    }

    mutating func local(_ name: String) -> ([MenuEffect], MenuPageID?) {
        problem = nil
        if name.hasPrefix("source:") {
            let id = String(name.dropFirst(7))
            guard let album = albums.first(where: { $0.id == id }) else { return ([.bell], nil) }
            source = album
            offset = 0
            photos = []
            return ([.load(.photos(source: album, offset: 0, limit: Self.pageSize))], .photos)
        }
        if name.hasPrefix("photo:") {
            let id = String(name.dropFirst(6))
            photo = nil
            return ([.load(.photo(id: id))], .photo)
        }
        return ([.bell], nil)
    }

    mutating func turnPage(forward: Bool) -> [MenuEffect] {
        guard let source else { return [.bell] }
        let next = offset + (forward ? Self.pageSize : -Self.pageSize)
        guard next >= 0, next < max(source.count, 1) else { return [.bell] }
        offset = next
        return [.load(.photos(source: source, offset: next, limit: Self.pageSize))]
    }

    mutating func receive(_ data: LibraryData) {
        switch data {
        case .albums(let rows):
            albums = rows
            if let current = source, let updated = rows.first(where: { $0.id == current.id }) {
                source = updated
            }
        case .photos(let from, let at, let rows):
            guard from.id == source?.id else { return }
            offset = at
            photos = rows
        case .photo(let detail): photo = detail
        case .failed(let why): problem = why
        }
    }

    /// After a `library` command changed something: load again what is shown.
    mutating func answered(_ command: any ConsoleCommand, failed: Bool) -> [MenuEffect] {
        guard command is LibraryWordsCommand, !failed else { return [] }
        return reload()
    }

    /// Loads again what is shown (albums, the page of photos, the photo).
    func reload() -> [MenuEffect] {
        var effects: [MenuEffect] = [.load(.albums)]
        if let source { effects.append(.load(.photos(source: source, offset: offset, limit: Self.pageSize))) }
        if let photo { effects.append(.load(.photo(id: photo.id))) }
        return effects
    }

    // MARK: Items

    /// The items of a library page; `cameras` name the cameras in photo lists and details.
    func items(for page: MenuPageID, cameras: [MenuSnapshot.Camera] = []) -> [MenuItem] {
        var items: [MenuItem]
        switch page {
        case .library: items = libraryItems()
        case .albums: items = albumItems()
        case .photos: items = photoListItems(cameras)
        default: items = photoItems(cameras)
        }
        if let problem { items.insert(.info("! " + problem), at: 0) }
        return items
    }

    private func libraryItems() -> [MenuItem] {
        func count(_ id: String) -> String { albums.first { $0.id == id }.map { "\($0.count)" } ?? "" }
        return [
            MenuItem("All photos", value: count("smart:all"), action: .local("source:smart:all")),
            MenuItem("Favorites", value: count("smart:favorites"), action: .local("source:smart:favorites")),
            MenuItem(
                "Recently deleted", value: count("smart:deleted"), action: .local("source:smart:deleted")),
            MenuItem("Albums", value: "albums and smart albums", action: .open(.albums)),
            MenuItem(
                "Create album", value: "a new empty album",
                action: .ask(Prompt("New album's name", .word(before: ["library", "album", "create", "--"])))),
            MenuItem(
                "Export all photos", value: "copy originals to a directory",
                action: .ask(Prompt("Export to directory", .word(before: ["library", "export", "--"])))),
            MenuItem(
                "Export edited versions", value: "copy current versions to a directory",
                action: .ask(
                    Prompt("Export to directory", .word(before: ["library", "export", "--rendered", "--"])))),
            MenuItem("Check the library", value: "fsck", action: .run(LibraryWordsCommand(["fsck"]))),
        ]
    }

    private func albumItems() -> [MenuItem] {
        if albums.isEmpty { return [.info("loading…")] }
        return albums.map { MenuItem($0.title, value: "\($0.count)", action: .local("source:" + $0.id)) }
    }

    private func photoListItems(_ cameras: [MenuSnapshot.Camera]) -> [MenuItem] {
        guard let source else { return [.info("no album chosen")] }
        let pages = max(1, (source.count + Self.pageSize - 1) / Self.pageSize)
        var items: [MenuItem] = [
            .info(source.title, "page \(offset / Self.pageSize + 1)/\(pages), \(source.count) photos")
        ]
        if photos.isEmpty { items.append(.info(source.count == 0 ? "  no photos" : "  loading…")) }
        for photo in photos {
            let marks =
                (photo.favorite ? "*" : " ") + (photo.edited ? "e" : " ") + (photo.deleted != nil ? "d" : " ")
            let when = String(photo.created.prefix(19)).replacingT()
            let clip = photo.clipLength.map { "\(photo.clipKind == "live" ? "live" : "clip") \($0) " } ?? ""
            items.append(
                MenuItem(
                    "\(when) \(marks)",
                    value:
                        "\(clip)\(photo.width)x\(photo.height) \(CameraDisplayName.of(id: photo.camera, model: nil, among: cameras))",
                    action: .local("photo:" + photo.id)))
        }
        if !source.id.hasPrefix("smart:") {
            items.append(
                MenuItem(
                    "Export this album", value: "copy its photos to a directory",
                    action: .ask(
                        Prompt(
                            "Export to directory",
                            .word(before: ["library", "export", "--album", source.id, "--"])))))
        }
        items.append(.info("PgUp/PgDn or p/n: pages   * favorite  e edited  d deleted"))
        return items
    }

    private func photoItems(_ cameras: [MenuSnapshot.Camera]) -> [MenuItem] {
        guard let photo else { return [.info(problem == nil ? "loading…" : "")] }
        let id = photo.id
        var items: [MenuItem] = [
            photo.favorite
                ? MenuItem("Unfavorite", action: .run(LibraryWordsCommand(["favorite", "--off", "--", id])))
                : MenuItem("Favorite", action: .run(LibraryWordsCommand(["favorite", "--", id]))),
            MenuItem(
                "Add to album", value: "album name or id",
                action: .ask(
                    Prompt(
                        "Add to album (name or id)",
                        .word(before: ["library", "album", "add", "--"], after: [id])))),
            MenuItem(
                "Rotate 90°", value: "lossless, a new edit revision",
                action: .run(LibraryWordsCommand(["edit", "rotate", "--degrees", "90", "--", id]))),
            MenuItem(
                "Crop", value: "x,y,w,h of the rotated photo",
                action: .ask(
                    Prompt(
                        "Crop rectangle X,Y,W,H", .word(before: ["library", "edit", "crop", id, "--rect"])))),
        ]
        if photo.edited {
            items.append(
                MenuItem(
                    "Revert edit", value: "back to the original",
                    action: .run(LibraryWordsCommand(["edit", "revert", "--", id]))))
        }
        if photo.deleted == nil {
            items.append(
                MenuItem(
                    "Delete", value: "to Recently Deleted",
                    action: .run(LibraryWordsCommand(["delete", "--", id]))))
        } else {
            items.append(
                MenuItem(
                    "Restore", value: "from Recently Deleted",
                    action: .run(LibraryWordsCommand(["restore", "--", id]))))
        }
        items += photo.fields(cameras: cameras).map { MenuItem.info($0.0, $0.1) }
        return items
    }
}

extension String {
    /// "2026-11-21T08:58:10" → "2026-11-21 08:58:10".
    func replacingT() -> String { String(map { $0 == "T" ? " " : $0 }) }
}
