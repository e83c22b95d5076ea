// Typed queries over the library's assets: filters, sort order, limit and offset.

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

/// A typed query: filters (all must hold), sort order, and an optional page (offset, limit).
///
/// Build one fluently: `AssetQuery.all.filter(.camera("cam0")).sorted(by: .created, ascending: false).limit(50)`.
public struct AssetQuery: Sendable, Hashable {
    /// Conditions, combined with AND.
    public var filters: [AssetFilter]
    /// Sort criteria, most significant first; ties end in insertion order.
    public var sort: [AssetSort]
    /// Maximum number of results, or nil for all.
    public var limit: Int?
    /// Number of leading results to skip.
    public var offset: Int
    /// Whether deleted photos are seen.
    public var trash: TrashScope
    /// Whether hidden photos are seen when no `.hidden` filter is given.
    public var includesHidden: Bool

    /// Creates a query.
    public init(
        filters: [AssetFilter] = [], sort: [AssetSort] = [AssetSort(.created)], limit: Int? = nil,
        offset: Int = 0, trash: TrashScope = .excluded, includesHidden: Bool = false
    ) {
        self.filters = filters
        self.sort = sort
        self.limit = limit
        self.offset = offset
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

    /// The same filters, without limit and offset (what counts and observers use).
    public var unpaged: AssetQuery { limit(nil, offset: 0) }
}

/// One page of a query's results, with the total count of the query without paging.
public struct AssetPage: Sendable, Hashable {
    /// The assets on this page.
    public var assets: [Asset]
    /// Index of the first asset of this page in the whole result.
    public var offset: Int
    /// Number of assets the query matches in total.
    public var totalCount: Int

    /// Whether more results follow this page.
    public var hasMore: Bool { offset + assets.count < totalCount }
}
