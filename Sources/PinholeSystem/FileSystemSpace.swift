// Free space on a file system: the one statvfs(3) call.

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Space on the file system holding a path.
public enum FileSystemSpace {
    /// Bytes available to unprivileged users on the file system holding `path`
    /// (`statvfs(3)`: `f_bavail × f_frsize`).
    public static func availableBytes(at path: FilePath) throws(Errno) -> Int64 {
        var info = statvfs()
        let failure = path.withPlatformString { name -> Errno? in
            do throws(Errno) {
                try retryingInterrupts { statvfs(name, &info) }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
