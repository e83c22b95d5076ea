// Photo counts the database maintains on every change, so counting a smart album reads a few rows.

import GRDB

/// The `asset_tally` table: the number of assets per combination of the states the smart
/// albums filter on (hidden, deleted, favorite, edited, camera), kept up to date by
/// triggers on the `asset` table (schema migration `v5-maintained-counts`).
enum AssetTally {
    /// The tally table, its triggers, and its first filling from the existing assets.
    static let creationSQL = """
        CREATE TABLE asset_tally (
            hidden INTEGER NOT NULL,
            deleted INTEGER NOT NULL,
            favorite INTEGER NOT NULL,
            edited INTEGER NOT NULL,
            camera TEXT NOT NULL,
            n INTEGER NOT NULL,
            PRIMARY KEY (hidden, deleted, favorite, edited, camera)
        ) WITHOUT ROWID;
        INSERT INTO asset_tally (hidden, deleted, favorite, edited, camera, n)
            SELECT \(key("")), COUNT(*) FROM asset GROUP BY 1, 2, 3, 4, 5;
        CREATE TRIGGER asset_tally_insert AFTER INSERT ON asset BEGIN
            \(increment("NEW."))
        END;
        CREATE TRIGGER asset_tally_delete AFTER DELETE ON asset BEGIN
            \(decrement("OLD."))
        END;
        CREATE TRIGGER asset_tally_update
            AFTER UPDATE OF hidden, deleted_ns, favorite, edit_revision, camera_id ON asset
            WHEN (\(key("OLD."))) IS NOT (\(key("NEW.")))
        BEGIN
            \(decrement("OLD."))
            \(increment("NEW."))
        END;
        """

    /// The tally key of an asset row: the raw hidden and favorite values (queries compare
    /// them with 0 and 1), deleted as 0/1, the sign of the edit revision, the camera or ''.
    private static func key(_ row: String) -> String {
        "\(row)hidden, \(row)deleted_ns IS NOT NULL, \(row)favorite, "
            + "(\(row)edit_revision > 0) - (\(row)edit_revision < 0), ifnull(\(row)camera_id, '')"
    }

    private static func increment(_ row: String) -> String {
        """
        INSERT INTO asset_tally (hidden, deleted, favorite, edited, camera, n) VALUES (\(key(row)), 1)
                ON CONFLICT (hidden, deleted, favorite, edited, camera) DO UPDATE SET n = n + 1;
        """
    }

    private static func decrement(_ row: String) -> String {
        """
        UPDATE asset_tally SET n = n - 1 WHERE (hidden, deleted, favorite, edited, camera) = (\(key(row)));
        """
    }

    /// SQL summing the tally rows that make up `query`'s count, or nil when one of its
    /// filters is not a tally key (dates, albums, identifiers, …: those count rows).
    static func count(_ query: AssetQuery) -> (String, StatementArguments)? {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        var hasHiddenFilter = false
        for filter in query.filters {
            switch filter {
            case let .favorite(value):
                conditions.append(value ? "favorite = 1" : "favorite = 0")
            case let .hidden(value):
                hasHiddenFilter = true
                conditions.append(value ? "hidden = 1" : "hidden = 0")
            case let .edited(value):
                conditions.append(value ? "edited = 1" : "edited = 0")
            case let .camera(id) where !id.isEmpty:
                conditions.append("camera = ?")
                arguments.append(id)
            default:
                return nil
            }
        }
        if !hasHiddenFilter && !query.includesHidden { conditions.append("hidden = 0") }
        switch query.trash {
        case .excluded: conditions.append("deleted = 0")
        case .only: conditions.append("deleted = 1")
        case .included: break
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT ifnull(SUM(n), 0) FROM asset_tally" + whereClause, StatementArguments(arguments))
    }

    /// The cameras that took at least one photo in the library (deleted or hidden included).
    static let camerasSQL =
        "SELECT DISTINCT camera FROM asset_tally WHERE camera <> '' AND n > 0 ORDER BY camera"
}
