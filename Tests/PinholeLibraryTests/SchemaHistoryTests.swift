// Libraries made by every earlier schema open with today's code and keep their photos.

import Foundation
import GRDB
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

extension LibrarySchema {
    /// The migrations as they shipped: each registered under the identifier it had then.
    static var shippedMigrator: DatabaseMigrator {
        makeMigrator { name in renamedIdentifiers.first { $0.now == name }?.shipped ?? name }
    }
}

final class SchemaHistoryTests: LibraryTestCase {
    /// For each earlier schema (migrated up to it by the shipped migrations, under their
    /// shipped identifiers) a library holding one photo opens, is brought to today's schema
    /// and identifiers, and still has its photo, clean under fsck.
    func testALibraryMadeByEachEarlierSchemaOpensWithItsPhoto() throws {
        let template = try openLibrary()
        let photo = try template.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let row = try XCTUnwrap(
            try template.pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM asset") })
        let original = try Data(contentsOf: URL(fileURLWithPath: template.fileURLPath(of: photo).string))
        let shipped = LibrarySchema.shippedMigrator
        XCTAssertEqual(shipped.migrations.count, LibrarySchema.migrator.migrations.count)
        for identifier in shipped.migrations {
            let old = TemporaryDirectory("pinhole-schema")
            let file = old.join(photo.path)
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            writeFile(file, contents: original)
            let queue = try DatabaseQueue(path: old.join("library.sqlite"))
            try shipped.migrate(queue, upTo: identifier)
            try queue.write { db in
                // The photo's row as that schema had it: the columns it knew.
                let columns = try db.columns(in: "asset").map(\.name)
                try db.execute(
                    sql: "INSERT INTO asset (\(columns.joined(separator: ", "))) VALUES ("
                        + columns.map { _ in "?" }.joined(separator: ", ") + ")",
                    arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
            }
            try queue.close()

            let library = try PhotoLibrary.open(at: FilePath(old.path), now: clock.now)
            XCTAssertEqual(
                try library.asset(id: photo.id)?.checksum, photo.checksum, "made up to \(identifier)")
            let applied = try library.pool.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            XCTAssertEqual(Set(applied), Set(LibrarySchema.migrator.migrations), "made up to \(identifier)")
            let fsck = try library.fsck(verifyChecksums: true)
            XCTAssertTrue(fsck.isClean, "made up to \(identifier): " + fsck.lines.joined(separator: "\n"))
        }
    }

    /// Migration identifiers have one style: `vN-what-it-does`, N counting from 1.
    func testMigrationIdentifiersHaveOneStyle() {
        for (index, identifier) in LibrarySchema.migrator.migrations.enumerated() {
            XCTAssertNotNil(identifier.wholeMatch(of: /v[1-9][0-9]*-[a-z0-9]+(-[a-z0-9]+)*/), identifier)
            XCTAssertTrue(identifier.hasPrefix("v\(index + 1)-"), identifier)
        }
    }
}
