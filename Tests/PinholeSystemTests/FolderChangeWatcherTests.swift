// Tests of the inotify folder watcher: a write in the folder calls back, nothing after stop, a missing folder is a clear error.

import PinholeSystem
import Synchronization
import SystemPackage
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class FolderChangeWatcherTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = "/tmp/pinhole-watch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertEqual(mkdir(directory, 0o755), 0)
    }

    override func tearDown() {
        unlink(directory + "/library.sqlite-wal")
        rmdir(directory)
        super.tearDown()
    }

    /// Counts calls and lets a test wait (a readiness wait, not a timing assertion) for one more.
    private final class Calls: Sendable {
        private let lock = ConditionLock()
        private let count = Mutex(0)

        var value: Int { count.withLock { $0 } }

        func record() {
            lock.withLock { count.withLock { $0 += 1 } }
            lock.broadcast()
        }

        /// Waits until at least `target` calls, for at most 30 s of real time.
        func wait(for target: Int) -> Bool {
            let deadline = monotonicNanoseconds() + 30_000_000_000
            lock.lock()
            defer { lock.unlock() }
            while value < target, monotonicNanoseconds() < deadline {
                lock.wait(untilMonotonicNanoseconds: deadline)
            }
            return value >= target
        }
    }

    private func append(_ text: String) throws {
        let file = try FileDescriptor.open(
            directory + "/library.sqlite-wal", .writeOnly, options: [.create, .append],
            permissions: [.ownerReadWrite])
        try file.closeAfter { _ = try file.writeAll(Array(text.utf8)) }
    }

    func testAWriteInTheFolderCallsBackAndStopEndsTheThread() throws {
        let calls = Calls()
        let watcher = try FolderChangeWatcher(folder: FilePath(directory)) { calls.record() }
        XCTAssertEqual(calls.value, 0, "nothing changed yet")
        try append("commit 1")
        XCTAssertTrue(calls.wait(for: 1), "the write was not noticed")
        let seen = calls.value
        try append("commit 2")
        XCTAssertTrue(calls.wait(for: seen + 1), "the second write was not noticed")

        // Stopping joins the thread and closes the descriptors; a second stop does nothing
        // (a stop that waited on a thread still blocked in poll would hang here).
        watcher.stop()
        watcher.stop()
        try append("after stop")
    }

    func testAMissingFolderIsAnErrorNamingIt() {
        XCTAssertThrowsError(try FolderChangeWatcher(folder: FilePath(directory + "/missing")) {}) { error in
            let failure = error as? SystemFailure
            XCTAssertEqual(failure?.operation, "inotify_add_watch")
            XCTAssertEqual(failure?.path, FilePath(directory + "/missing"))
            XCTAssertEqual(failure?.errno, .noSuchFileOrDirectory)
        }
    }
}
