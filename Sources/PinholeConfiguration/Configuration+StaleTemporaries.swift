// Removing the temporary files a power cut left beside the configuration or settings file.

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore
import PinholeSystem
import SystemPackage

extension Configuration {
    /// Removes the temporary files that an interrupted write of `file` left in its directory:
    /// `.<name>.<random>.tmp` (the durable writer's), `<name>.tmp-<pid>` and `<name>.tmp`
    /// (older writers'). With `olderThanSeconds`, only files not modified for that long go,
    /// so that a write in progress in another process keeps its file; at start (nil) every
    /// one goes. Returns the paths removed; a file that cannot be removed is left alone.
    @discardableResult
    public static func removeStaleTemporaries(of file: FilePath, olderThanSeconds: Int64? = nil) -> [FilePath]
    {
        let directory = DurableFiles.parentDirectory(of: file)
        guard let name = file.lastComponent?.string, !name.isEmpty else { return [] }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var removed: [FilePath] = []
        for entry in FileSystem.list(directory).sorted() where isTemporary(entry, of: name) {
            let path = directory.appending(entry)
            var info = stat()
            guard lstat(path.string, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if let olderThanSeconds, Int64(now.tv_sec) - Int64(info.st_mtim.tv_sec) < olderThanSeconds {
                continue
            }
            if unlink(path.string) == 0 { removed.append(path) }
        }
        // The removals are durable with the directory (a failure here only leaves them to the next pass).
        if !removed.isEmpty { try? DurableFiles.syncDirectory(directory) }
        return removed
    }

    /// Whether `entry` is one of the temporary names used while writing `name`.
    static func isTemporary(_ entry: String, of name: String) -> Bool {
        if entry == name + ".tmp" { return true }
        if entry.hasPrefix(name + ".tmp-") { return true }
        let prefix = "." + name + "."
        return entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") && entry.count > prefix.count + 4
    }
}
