// Collections of photos: user albums (ordered), folders of albums, and smart albums.

import PinholeCore

/// A user-made album: an ordered list of photos, optionally inside a folder.
public struct Album: Sendable, Codable, Hashable, Identifiable {
    /// Stable unique identifier.
    public var id: String
    /// The title shown to the user.
    public var title: String
    /// The folder it is in, or nil at the top level.
    public var folderID: String?
    /// Position among the albums and folders of its folder.
    public var position: Int
    /// When it was created.
    public var created: WallTime
    /// Number of photos in it that are not deleted (hidden included).
    public var count: Int
}

/// A folder of albums (and of other folders).
public struct AlbumFolder: Sendable, Codable, Hashable, Identifiable {
    /// Stable unique identifier.
    public var id: String
    /// The title shown to the user.
    public var title: String
    /// The folder it is in, or nil at the top level.
    public var parentID: String?
    /// Position within its parent.
    public var position: Int
    /// When it was created.
    public var created: WallTime
}

/// Albums computed from a query rather than kept by the user.
public enum SmartAlbum: Sendable, Hashable, Codable {
    /// Every photo not deleted and not hidden.
    case allPhotos
    /// Photos added within `LibraryOptions.recentlyAddedDays`, newest first.
    case recentlyAdded
    /// Favorites.
    case favorites
    /// Photos taken by one camera of the appliance.
    case camera(String)
    /// Photos with a saved edit.
    case edited
    /// Hidden photos.
    case hidden
    /// Deleted photos, until purged; most recently deleted first.
    case recentlyDeleted
    /// Clips (video assets).
    case videos
    /// Stills paired with a clip.
    case livePhotos

    /// A stable identifier, e.g. `smart:favorites`, `smart:camera:front`.
    public var id: String {
        switch self {
        case .allPhotos: return "smart:all"
        case .recentlyAdded: return "smart:recent"
        case .favorites: return "smart:favorites"
        case let .camera(camera): return "smart:camera:" + camera
        case .edited: return "smart:edited"
        case .hidden: return "smart:hidden"
        case .recentlyDeleted: return "smart:deleted"
        case .videos: return "smart:videos"
        case .livePhotos: return "smart:live"
        }
    }

    /// The title shown to the user.
    public var title: String {
        switch self {
        case .allPhotos: return "All Photos"
        case .recentlyAdded: return "Recently Added"
        case .favorites: return "Favorites"
        case let .camera(camera): return "Camera \(camera)"
        case .edited: return "Edited"
        case .hidden: return "Hidden"
        case .recentlyDeleted: return "Recently Deleted"
        case .videos: return "Videos"
        case .livePhotos: return "Live Photos"
        }
    }

    /// The query that computes the album at time `now`.
    public func query(now: WallTime, options: LibraryOptions) -> AssetQuery {
        switch self {
        case .allPhotos:
            return .all
        case .recentlyAdded:
            let since = now.adding(.seconds(-86_400 * options.recentlyAddedDays))
            return AssetQuery.all.filter(.addedSince(since)).sorted(by: .added, ascending: false)
        case .favorites:
            return AssetQuery.all.filter(.favorite(true))
        case let .camera(camera):
            return AssetQuery.all.filter(.camera(camera))
        case .edited:
            return AssetQuery.all.filter(.edited(true))
        case .hidden:
            return AssetQuery.all.filter(.hidden(true))
        case .recentlyDeleted:
            return AssetQuery.all.trash(.only).includingHidden().sorted(by: .deleted, ascending: false)
        case .videos:
            return AssetQuery.all.filter(.mediaType(.video))
        case .livePhotos:
            return AssetQuery.all.filter(.mediaType(.live))
        }
    }

    /// Parses an identifier or a short name (`all`, `recent`, `favorites`, `edited`, `hidden`,
    /// `deleted`, `videos`, `live`, `camera:ID`).
    public init?(name: String) {
        let text = name.hasPrefix("smart:") ? String(name.dropFirst(6)) : name
        switch text {
        case "all": self = .allPhotos
        case "recent": self = .recentlyAdded
        case "favorites": self = .favorites
        case "edited": self = .edited
        case "hidden": self = .hidden
        case "deleted": self = .recentlyDeleted
        case "videos": self = .videos
        case "live": self = .livePhotos
        default:
            guard text.hasPrefix("camera:"), text.count > 7 else { return nil }
            self = .camera(String(text.dropFirst(7)))
        }
    }
}
