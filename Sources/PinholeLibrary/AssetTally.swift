// Photo counts the database maintains on every change, so counting a smart album reads a few rows.

import GRDB

/// The `asset_tally` table: the number of assets per combination of the states the smart
/// albums filter on (hidden, deleted, favorite, edited, camera, and since schema migration
/// `v10-tally-by-media-type` the media type), kept up to date by triggers on the `asset`
/// table (schema migration `v6-maintained-counts`).
enum AssetTally {
    /// The tally table, its triggers, and its first filling, as migration v6 shipped them
    /// (before the media type existed; never changed).
    static let creationSQL = creation(media: false)

    /// Migration v10: the tally again, keyed by the media type too, so that the Videos and
    /// Live Photos albums (and every count by media type) read a few rows, not a million.
    static let mediaTypeSQL = """
        DROP TRIGGER asset_tally_insert;
        DROP TRIGGER asset_tally_delete;
        DROP TRIGGER asset_tally_update;
        DROP TABLE asset_tally;
        """ + creation(media: true)

    private static func creation(media: Bool) -> String {
        let columns = "hidden, deleted, favorite, edited, camera" + (media ? ", media" : "")
        return """
            CREATE TABLE asset_tally (
                hidden INTEGER NOT NULL,
                deleted INTEGER NOT NULL,
                favorite INTEGER NOT NULL,
                edited INTEGER NOT NULL,
                camera TEXT NOT NULL,\(media ? "\n    media TEXT NOT NULL," : "")
                n INTEGER NOT NULL,
                PRIMARY KEY (\(columns))
            ) WITHOUT ROWID;
            INSERT INTO asset_tally (\(columns), n)
                SELECT \(key("", media: media)), COUNT(*) FROM asset GROUP BY \(media ? "1, 2, 3, 4, 5, 6" : "1, 2, 3, 4, 5");
            CREATE TRIGGER asset_tally_insert AFTER INSERT ON asset BEGIN
                \(increment("NEW.", media: media))
            END;
            CREATE TRIGGER asset_tally_delete AFTER DELETE ON asset BEGIN
                \(decrement("OLD.", media: media))
            END;
            CREATE TRIGGER asset_tally_update
                AFTER UPDATE OF hidden, deleted_ns, favorite, edit_revision, camera_id\(media ? ", media_type" : "") ON asset
                WHEN (\(key("OLD.", media: media))) IS NOT (\(key("NEW.", media: media)))
            BEGIN
                \(decrement("OLD.", media: media))
                \(increment("NEW.", media: media))
            END;
            """
    }

    /// The tally key of an asset row: the raw hidden and favorite values (queries compare
    /// them with 0 and 1), deleted as 0/1, the sign of the edit revision, the camera or '',
    /// and the media type.
    private static func key(_ row: String, media: Bool) -> String {
        "\(row)hidden, \(row)deleted_ns IS NOT NULL, \(row)favorite, "
            + "(\(row)edit_revision > 0) - (\(row)edit_revision < 0), ifnull(\(row)camera_id, '')"
            + (media ? ", \(row)media_type" : "")
    }

    private static func increment(_ row: String, media: Bool) -> String {
        let columns = "hidden, deleted, favorite, edited, camera" + (media ? ", media" : "")
        return """
            INSERT INTO asset_tally (\(columns), n) VALUES (\(key(row, media: media)), 1)
                    ON CONFLICT (\(columns)) DO UPDATE SET n = n + 1;
            """
    }

    private static func decrement(_ row: String, media: Bool) -> String {
        let columns = "hidden, deleted, favorite, edited, camera" + (media ? ", media" : "")
        return "UPDATE asset_tally SET n = n - 1 WHERE (\(columns)) = (\(key(row, media: media)));"
    }

    /// SQL summing the tally rows that make up `query`'s count, or nil when one of its
    /// filters is not a tally key (dates, albums, identifiers, …: those count rows).
    /// Needs migration v10 (the media column) for a media type filter.
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
            case let .mediaType(type):
                conditions.append("media = ?")
                arguments.append(type.rawValue)
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
