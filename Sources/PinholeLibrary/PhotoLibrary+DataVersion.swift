// Telling that another process changed the library: SQLite's data_version on the writer.

import GRDB

extension PhotoLibrary {
    /// SQLite's `PRAGMA data_version` on the writer connection. It changes when another
    /// process (`pinhole library …` next to `pinhole run`) commits a change, and not for this
    /// process's own writes, which observers already see. Poll it and compare: when it
    /// differs, re-read what you show.
    public func externalDataVersion() throws -> Int {
        do {
            return try pool.writeWithoutTransaction { db in
                try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            }
        } catch {
            throw mapped(error)
        }
    }
}
