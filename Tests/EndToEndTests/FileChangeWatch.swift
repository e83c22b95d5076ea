// Waiting on files without polling: inotify watches that wake a wait when a file or folder changes.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// inotify watches on a few files or folders; `waitForChange(until:)` blocks until one of
/// them changes (written, created in, renamed into, deleted from) or a deadline passes.
final class FileChangeWatch {
    private let descriptor: Int32

    /// Watches `paths` (each must exist: watch the folder for a file still to come).
    init(_ paths: [URL]) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let mask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)
        for path in paths where inotify_add_watch(descriptor, path.path, mask) < 0 {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// Blocks until a watched path changes or `deadline` passes; reads the events away.
    func waitForChange(until deadline: Date) {
        var pollfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = max(0, min(deadline.timeIntervalSinceNow * 1000, Double(Int32.max)))
        guard poll(&pollfd, 1, Int32(milliseconds.rounded(.up))) > 0 else { return }
        var events = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &events, events.count) > 0 {}
    }
}
