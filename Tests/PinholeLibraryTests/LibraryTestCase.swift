// The setup every library test class shares: a fresh folder, a manual clock, the library on them.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

/// The base of the library's test classes. Each test gets its own empty folder (`dir`,
/// removed after the test) and a wall clock that moves only when the test says (`clock`);
/// `openLibrary()` opens the library in that folder on that clock (again, to restart it or
/// to be a second opener). Classes whose every test starts from an open library say so
/// with `opensLibrary`, and find it in `library`.
class LibraryTestCase: XCTestCase {
    /// The test's own folder.
    private(set) var dir: TemporaryDirectory!
    /// The test's wall clock.
    private(set) var clock: ManualWallClock!
    /// The library opened before each test, when the class `opensLibrary`.
    var library: PhotoLibrary!

    /// Whether each test starts with `library` open in `dir` (false: the folder stays empty
    /// until the test opens it).
    class var opensLibrary: Bool { false }

    override func setUpWithError() throws {
        try super.setUpWithError()
        dir = TemporaryDirectory()
        clock = ManualWallClock()
        if Self.opensLibrary { library = try openLibrary() }
    }

    override func tearDown() {
        library = nil
        clock = nil
        dir = nil
        super.tearDown()
    }

    /// Opens the library in `dir` on `clock`.
    func openLibrary() throws -> PhotoLibrary {
        try PhotoLibrary.open(at: FilePath(dir.path), now: clock.now)
    }
}

extension PhotoLibrary {
    /// Inserts index rows as they are (no original files), announced like every write path.
    func insertRows(_ assets: [Asset]) throws {
        _ = try write { db, tracker in
            try tracker.willChange(db, assets: assets.map(\.id))
            for asset in assets { try asset.insert(db) }
        }
    }
}
