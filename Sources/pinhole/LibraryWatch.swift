// Keeps the appliance's view of the library true: photo count and change signals, from this
// process's commits and from other processes' (PRAGMA data_version).

import PinholeCore
import PinholeLibrary
import Synchronization

/// Watches the photo library for the status line and the menu. The photo count is kept from
/// change notifications (no `COUNT(*)` a second); changes committed by another process are
/// noticed by polling SQLite's `data_version` every `interval` on the loop's worker, after
/// which the count is read again. `onChange` runs on the loop after any change.
final class LibraryWatch: Sendable {
    /// How often another process's changes are looked for.
    static let interval: Duration = .seconds(1)

    private let library: PhotoLibrary
    private let loop: EventLoop
    private let state = Mutex(State())
    private let changed = Mutex<(@Sendable () -> Void)?>(nil)
    private struct State {
        var count: Int?
        var version: Int?
        var token: ObservationToken?
    }

    init(library: PhotoLibrary, loop: EventLoop) {
        self.library = library
        self.loop = loop
    }

    /// Photos in the library (not deleted, not hidden), as last counted and kept since.
    var count: Int? { state.withLock { $0.count } }

    /// Called on the loop after the library changed (here or in another process).
    func onChange(_ handler: @escaping @Sendable () -> Void) { changed.withLock { $0 = handler } }

    /// Counts once, then follows changes. Call on the loop.
    func start() {
        let token = library.observe(.all) { [weak self] details in
            guard let self else { return }
            state.withLock { state in
                state.count = state.count.map { $0 + details.insertedIDs.count - details.removedIDs.count }
            }
            notify()
        }
        let counted = try? library.count(.all)
        let version = try? library.externalDataVersion()
        state.withLock {
            $0.token = token
            $0.count = counted
            $0.version = version
        }
        schedulePoll()
    }

    private func schedulePoll() {
        loop.schedule(after: Self.interval) { [weak self] in
            guard let self else { return }
            let library = self.library
            loop.offload({ try? library.externalDataVersion() }) { [weak self] version in
                guard let self else { return }
                if let version, state.withLock({ $0.version }) != version {
                    recount(version: version)
                } else {
                    schedulePoll()
                }
            }
        }
    }

    /// Another process changed the library: count again, tell the console, poll on.
    private func recount(version: Int) {
        let library = self.library
        loop.offload({ try? library.count(.all) }) { [weak self] count in
            guard let self else { return }
            state.withLock {
                $0.version = version
                if let count { $0.count = count }
            }
            changed.withLock { $0 }?()
            schedulePoll()
        }
    }

    private func notify() {
        guard let handler = changed.withLock({ $0 }) else { return }
        loop.post { handler() }
    }
}
