// Keeps the appliance's view of the library true: photo count and change signals, from this
// process's commits and from other processes' (their writes to the database's folder, then PRAGMA data_version).

import PinholeCore
import PinholeLibrary
import PinholeSystem
import Synchronization

/// Watches the photo library for the status line and the menu. The photo count is kept from
/// change notifications (no `COUNT(*)` a second). Another process's commit writes the
/// database's write-ahead log in the library folder: a `FolderChangeWatcher` wakes the loop,
/// which asks SQLite's `data_version` on the worker and, when it moved, counts again. Nothing
/// runs while nothing changes (no wake-up a second on an idle appliance). Where inotify is not
/// available, `data_version` is polled every `interval` instead. `onChange` runs on the loop
/// after any change.
final class LibraryWatch: Sendable {
    /// How often another process's changes are looked for when the folder cannot be watched.
    static let interval: Duration = .seconds(1)

    private let library: PhotoLibrary
    private let loop: EventLoop
    private let state = Mutex(State())
    private let changed = Mutex<(@Sendable () -> Void)?>(nil)
    private struct State {
        var count: Int?
        var version: Int?
        var token: ObservationToken?
        var watcher: FolderChangeWatcher?
        /// A data_version check is running on the worker.
        var checking = false
        /// The folder changed again while it ran: check once more after it.
        var changedSinceCheck = false
    }

    init(library: PhotoLibrary, loop: EventLoop) {
        self.library = library
        self.loop = loop
    }

    /// Photos in the library (not deleted, not hidden), as last counted and kept since.
    var count: Int? { state.withLock { $0.count } }

    /// Called on the loop after the library changed (here or in another process).
    func onChange(_ handler: @escaping @Sendable () -> Void) { changed.withLock { $0 = handler } }

    /// Counts once, then follows changes. Call on the loop. Returns why other processes'
    /// changes are polled for instead of watched (nil: they are watched).
    @discardableResult
    func start() -> SystemFailure? {
        let token = library.observe(.all) { [weak self] details in
            guard let self else { return }
            state.withLock { state in
                state.count = state.count.map { $0 + details.insertedIDs.count - details.removedIDs.count }
            }
            notify()
        }
        let counted = try? library.count(.all)
        let version = try? library.externalDataVersion()
        let loop = self.loop
        let watcher: FolderChangeWatcher?
        let failure: SystemFailure?
        do {
            watcher = try FolderChangeWatcher(folder: library.directory) { [weak self] in
                guard let self else { return }
                loop.post { self.folderChanged() }
            }
            failure = nil
        } catch {
            watcher = nil
            failure = error
        }
        state.withLock {
            $0.token = token
            $0.count = counted
            $0.version = version
            $0.watcher = watcher
        }
        if watcher == nil { schedulePoll() }
        return failure
    }

    /// On the loop: the library folder changed. One check at a time; a change during a check
    /// is checked again after it.
    private func folderChanged() {
        let start = state.withLock { state -> Bool in
            if state.checking {
                state.changedSinceCheck = true
                return false
            }
            state.checking = true
            state.changedSinceCheck = false
            return true
        }
        guard start else { return }
        checkVersion { [weak self] in
            guard let self else { return }
            let again = state.withLock { state -> Bool in
                state.checking = false
                return state.changedSinceCheck
            }
            if again { folderChanged() }
        }
    }

    private func schedulePoll() {
        loop.schedule(after: Self.interval) { [weak self] in
            self?.checkVersion { [weak self] in self?.schedulePoll() }
        }
    }

    /// Asks data_version on the worker; when another process moved it, counts again and tells
    /// the console. `then` runs on the loop when done.
    private func checkVersion(then: @escaping () -> Void) {
        let library = self.library
        loop.offload({ try? library.externalDataVersion() }) { [weak self] version in
            guard let self else { return }
            if let version, state.withLock({ $0.version }) != version {
                recount(version: version, then: then)
            } else {
                then()
            }
        }
    }

    /// Another process changed the library: count again, tell the console.
    private func recount(version: Int, then: @escaping () -> Void) {
        let library = self.library
        loop.offload({ try? library.count(.all) }) { [weak self] count in
            guard let self else { return }
            state.withLock {
                $0.version = version
                if let count { $0.count = count }
            }
            changed.withLock { $0 }?()
            then()
        }
    }

    private func notify() {
        guard let handler = changed.withLock({ $0 }) else { return }
        loop.post { handler() }
    }
}
