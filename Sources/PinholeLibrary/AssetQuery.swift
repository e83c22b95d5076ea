// Typed queries over the library's assets: filters, sort order, limit, keyset or offset paging.

import PinholeCore
import PinholeImaging

/// A condition an asset must meet to be in a query's result.
public enum AssetFilter: Sendable, Hashable {
    /// Created (taken) in `[from, to)`; either bound may be nil.
    case created(from: WallTime?, to: WallTime?)
    /// Added to the library at or after this time.
    case addedSince(WallTime)
    /// Taken by the camera with this appliance identifier.
    case camera(String)
    /// Taken by a camera with this EXIF model.
    case model(String)
    /// In the user album with this identifier.
    case album(String)
    /// Favorite (true) or not (false).
    case favorite(Bool)
    /// Hidden (true) or not (false). Without this filter hidden assets are excluded unless
    /// the query `includesHidden`.
    case hidden(Bool)
    /// With this EXIF orientation.
    case orientation(Orientation)
    /// With (true) or without (false) a saved edit.
    case edited(Bool)
    /// With (true) or without (false) a GPS position.
    case hasLocation(Bool)
    /// Taken when the clock had this trust (photos from before trust was recorded count as
    /// `.unknown`).
    case clockTrust(ClockTrust)
    /// Taken within `kilometres` (great-circle distance) of a place.
    case near(latitude: Double, longitude: Double, kilometres: Double)
    /// Whether the flash fired.
    case flashFired(Bool)
    /// One of these identifiers.
    case ids([String])
    /// Of this media type (photo, video, Live Photo).
    case mediaType(MediaType)
}

/// What a query's result is ordered by.
public enum AssetSortKey: String, Sendable, Hashable, CaseIterable {
    /// Creation (capture) time.
    case created
    /// Time added to the library.
    case added
    /// Time of the last change to the record.
    case modified
    /// Time moved to Recently Deleted.
    case deleted
    /// File size.
    case fileSize
    /// The user's order within the album of an `.album` filter (falls back to creation time
    /// when the query has no album filter).
    case albumOrder
}

/// One sort criterion.
public struct AssetSort: Sendable, Hashable {
    /// The key.
    public var key: AssetSortKey
    /// Ascending (oldest/smallest first) when true.
    public var ascending: Bool

    /// Creates a sort criterion.
    public init(_ key: AssetSortKey, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}

/// Whether a query sees photos in Recently Deleted.
public enum TrashScope: String, Sendable, Hashable {
    /// Only photos not deleted (the default).
    case excluded
    /// Only photos in Recently Deleted.
    case only
    /// Both.
    case included
}

/// A typed query: filters (all must hold), sort order, and an optional page (a keyset
/// cursor or an offset, and a limit).
///
/// Build one fluently: `AssetQuery.all.filter(.camera("cam0")).sorted(by: .created, ascending: false).limit(50)`.
/// Page through a large result with keysets (`after(page.next)`): each page costs the same,
/// where an offset costs as many rows as it skips.
public struct AssetQuery: Sendable, Hashable {
    /// Conditions, combined with AND.
    public var filters: [AssetFilter]
    /// Sort criteria, most significant first; ties end in insertion order.
    public var sort: [AssetSort]
    /// Maximum number of results, or nil for all.
    public var limit: Int?
    /// Number of leading results to skip (after `after`, when both are given).
    public var offset: Int
    /// Keyset start: only assets that sort after this cursor are in the result.
    public var after: AssetCursor?
    /// Whether deleted photos are seen.
    public var trash: TrashScope
    /// Whether hidden photos are seen when no `.hidden` filter is given.
    public var includesHidden: Bool

    /// Creates a query.
    public init(
        filters: [AssetFilter] = [], sort: [AssetSort] = [AssetSort(.created)], limit: Int? = nil,
        offset: Int = 0, trash: TrashScope = .excluded, includesHidden: Bool = false,
        after: AssetCursor? = nil
    ) {
        self.filters = filters
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.after = after
        self.trash = trash
        self.includesHidden = includesHidden
    }

    /// Every photo not deleted and not hidden, oldest first.
    public static var all: AssetQuery { AssetQuery() }

    /// This query with one more filter.
    public func filter(_ filter: AssetFilter) -> AssetQuery {
        var copy = self
        copy.filters.append(filter)
        return copy
    }

    /// This query sorted by `key` only.
    public func sorted(by key: AssetSortKey, ascending: Bool = true) -> AssetQuery {
        var copy = self
        copy.sort = [AssetSort(key, ascending: ascending)]
        return copy
    }

    /// This query limited to `limit` results after skipping `offset`.
    public func limit(_ limit: Int?, offset: Int = 0) -> AssetQuery {
        var copy = self
        copy.limit = limit
        copy.offset = offset
        return copy
    }

    /// This query starting after `cursor` (keyset paging); nil starts at the beginning.
    public func after(_ cursor: AssetCursor?) -> AssetQuery {
        var copy = self
        copy.after = cursor
        return copy
    }

    /// This query with another trash scope.
    public func trash(_ scope: TrashScope) -> AssetQuery {
        var copy = self
        copy.trash = scope
        return copy
    }

    /// This query, also seeing hidden photos.
    public func includingHidden() -> AssetQuery {
        var copy = self
        copy.includesHidden = true
        return copy
    }

    /// The same filters, without limit, offset and cursor (what counts and observers use).
    public var unpaged: AssetQuery { limit(nil, offset: 0).after(nil) }
}

/// One page of a query's results, with the total count of the query without paging.
public struct AssetPage: Sendable, Hashable {
    /// The assets on this page.
    public var assets: [Asset]
    /// Index of the first asset of this page in the whole result, for pages fetched by
    /// offset; nil for pages fetched after a cursor (counting the rows before it would cost
    /// what keysets save).
    public var offset: Int?
    /// Number of assets the query matches in total.
    public var totalCount: Int
    /// Where the next page starts, or nil when no result follows this page.
    public var next: AssetCursor?

    /// Whether more results follow this page.
    public var hasMore: Bool { next != nil }
}
