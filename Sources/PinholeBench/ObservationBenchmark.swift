// Exact change details for observers: the library's tracker against refetching each observed result.

import PinholeLibrary
import Synchronization

/// Why the library computes change details itself instead of using GRDB's ValueObservation:
/// observers need the identifiers inserted into, removed from and changed in each observed
/// query (the console's views and status line apply them). GRDB's region observation says
/// *that* a table changed; ValueObservation refetches the whole observed value after every
/// change to its region, so exact details would cost a fetch of every observed result and a
/// diff on every commit. The tracker asks, for the rows a transaction touched only, whether
/// each was in each observed query before and after.
enum ObservationBenchmark {
    /// `toggles` favorite changes on `library` with observers on All Photos and Favorites:
    /// the tracker's exact details against the same details from refetching both id sets
    /// after each commit (what ValueObservation of the two results does). Checks that both
    /// give the same details.
    static func run(library: PhotoLibrary, ids: [String], toggles: Int = 100) throws {
        let favorites = library.query(for: .favorites)
        let seen = Mutex<[ChangeDetails]>([])
        let allToken = library.observe(.all) { details in seen.withLock { $0.append(details) } }
        let favoritesToken = library.observe(favorites) { details in seen.withLock { $0.append(details) } }
        // Photos outside the first and last thousand (favorites and the album of step 4).
        guard ids.count > 4000 else { return print("library: observation: needs more than 4000 photos") }
        let picks = (0..<toggles).map { ids[1000 + ($0 * 7919) % (ids.count - 2000)] }
        let tracked = try LibraryBench.time {
            for id in picks { try library.setFavorite([id], true) }
        }
        allToken.cancel()
        favoritesToken.cancel()
        let trackerDetails = seen.withLock { $0 }

        var refetchDetails: [(inserted: [String], removed: [String])] = []
        var allIDs = Set(try library.assetIDs(.all))
        var favoriteIDs = Set(try library.assetIDs(favorites))
        let refetched = try LibraryBench.time {
            for id in picks {
                try library.setFavorite([id], false)
                let nowAll = Set(try library.assetIDs(.all))
                let nowFavorites = Set(try library.assetIDs(favorites))
                // A changed row cannot be told from an unchanged one by ids alone: the
                // refetch must also compare records; counted here only as the touched id.
                refetchDetails.append(
                    (Array(nowAll.subtracting(allIDs)), Array(favoriteIDs.subtracting(nowFavorites))))
                allIDs = nowAll
                favoriteIDs = nowFavorites
            }
        }
        let exact =
            trackerDetails.count == 2 * toggles
            && zip(stride(from: 1, to: trackerDetails.count, by: 2), picks).allSatisfy { index, id in
                trackerDetails[index].insertedIDs == [id] && trackerDetails[index - 1].changedIDs == [id]
            }
        let removedSeen = refetchDetails.map(\.removed) == picks.map { [$0] }
        guard exact, removedSeen else {
            throw LibraryBench.BenchFailure(
                "observation: details not as expected (tracker exact: \(exact), refetch saw the removals: \(removedSeen))"
            )
        }
        LibraryBench.report(
            "refetch-and-diff details (ValueObservation's way), All Photos + Favorites, \(ids.count) photos",
            refetched, per: toggles, reference: tracked, referenceName: "the tracker's exact details")
    }
}
