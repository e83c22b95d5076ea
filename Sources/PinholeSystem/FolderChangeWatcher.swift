// Watching one folder with inotify: a thread that calls back when a file in it is written, created or removed.

import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Calls `onChange` on its own thread each time a file directly in a folder is written,
/// created, moved in or out, or removed (inotify; not recursive). The library uses it to notice
/// another process's commits, which write the database's write-ahead log beside it, without
/// polling. Events that arrive together are read away and answered with one call; the next
/// call comes only after `onChange` returns.
public final class FolderChangeWatcher: Sendable {
    /// The folder watched.
    public let folder: FilePath
    private let inotify: FileDescriptor
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    private let thread = Mutex<SystemThread?>(nil)

    /// Starts watching `folder`.
    /// - Throws: `SystemFailure` when inotify is not available (too many watches: raise
    ///   `fs.inotify.max_user_watches`) or the folder cannot be watched.
    public init(folder: FilePath, onChange: @escaping @Sendable () -> Void) throws(SystemFailure) {
        self.folder = folder
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw currentErrno.failure("inotify_init1", folder) }
        inotify = FileDescriptor(rawValue: descriptor)
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        guard inotify_add_watch(descriptor, folder.string, mask) >= 0 else {
            let failure = currentErrno.failure("inotify_add_watch", folder)
            try? inotify.close()
            throw failure
        }
        do {
            wake = try FileDescriptor.pipe(options: .closeOnExec)
        } catch {
            try? inotify.close()
            throw error.failure("pipe", folder)
        }
        let events = inotify
        let stop = wake.readEnd
        do {
            let started = try SystemThread.start { Self.run(events: events, stop: stop, onChange: onChange) }
            thread.withLock { $0 = started }
        } catch {
            for descriptor in [inotify, wake.readEnd, wake.writeEnd] { try? descriptor.close() }
            throw error.failure("pthread_create", folder)
        }
    }

    deinit { stop() }

    /// Stops watching and waits for the thread to end; no call of `onChange` begins after it
    /// returns. Calling it again does nothing.
    public func stop() {
        guard
            let running = thread.withLock({ current -> SystemThread? in
                defer { current = nil }
                return current
            })
        else { return }
        _ = try? wake.writeEnd.writeAll([UInt8(1)])
        running.join()
        for descriptor in [inotify, wake.readEnd, wake.writeEnd] { try? descriptor.close() }
    }

    /// The thread: waits for events or the stop byte; reads all events waiting, then calls back once.
    private static func run(
        events: FileDescriptor, stop: FileDescriptor, onChange: @Sendable () -> Void
    ) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let ready = try? FileDescriptor.waitForInput([events, stop]), ready.count == 2,
                !ready[1].any, !ready[0].failed
            else { return }
            var read = false
            while buffer.withUnsafeMutableBytes({ Glibc.read(events.rawValue, $0.baseAddress, $0.count) }) > 0
            {
                read = true
            }
            if read { onChange() }
        }
    }
}
