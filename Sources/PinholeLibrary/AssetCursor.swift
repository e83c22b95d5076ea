// A keyset position in a query's order: where the next page starts, without counting rows.

/// The position just after one asset in a query's order, for keyset paging: the next page
/// starts at the first asset that sorts after it, however many assets came before.
///
/// Get one from `AssetPage.next` or `PhotoLibrary.cursor(after:in:)` and pass it with
/// `AssetQuery.after(_:)`. A cursor stays valid when assets are added or removed: the page
/// after it is what now follows that position. It belongs to a sort order; using it with
/// another order throws `LibraryError.invalidRequest`.
public struct AssetCursor: Sendable, Hashable {
    /// One sort-key value of the asset the cursor stands after.
    enum Key: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    /// The ORDER BY terms the keys belong to (checked when the cursor is used).
    let order: String
    /// The asset's values of the sort keys, most significant first, the tie-breaker last.
    let keys: [Key]
}
