// A shared object loaded on first use with dlopen: the shims of large C libraries that only some runs need.

import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A shared object opened with `dlopen`, looked for beside the executable (a SwiftPM build
/// directory, where `swift build` puts a dynamic library product next to `pinhole` and the test
/// bundle), then in `../lib/pinhole` (the .deb: /usr/bin/pinhole and /usr/lib/pinhole/…).
/// Never closed: its functions stay valid for the life of the process.
public struct SharedObject: @unchecked Sendable {
    /// The file that was opened.
    public let path: FilePath
    private let handle: UnsafeMutableRawPointer

    /// Why no candidate loaded: the loader's message for each, in the order tried.
    public struct LoadFailure: Error, CustomStringConvertible {
        /// The loader's messages (`dlerror`), one a candidate.
        public var reasons: [String]
        /// The messages joined.
        public var description: String {
            reasons.isEmpty ? "the executable's folder is unknown" : reasons.joined(separator: "; ")
        }
    }

    /// Where `fileName` may be, in the order tried: beside `executable`, then in `../lib/pinhole`.
    public static func candidates(_ fileName: String, beside executable: FilePath?) -> [FilePath] {
        guard let folder = executable?.removingLastComponent() else { return [] }
        return [
            folder.appending(fileName),
            folder.removingLastComponent().appending("lib").appending("pinhole").appending(fileName),
        ]
    }

    /// The running executable (`/proc/self/exe`), nil where it cannot be read.
    public static func executable() -> FilePath? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return FilePath(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Opens the first of `candidates` that loads (`RTLD_NOW | RTLD_LOCAL`: every symbol it
    /// needs is resolved now, and none of its own leak into the process's namespace).
    public static func open(_ candidates: [FilePath]) throws(LoadFailure) -> SharedObject {
        var failures: [String] = []
        for path in candidates {
            if let handle = dlopen(path.string, RTLD_NOW | RTLD_LOCAL) {
                return SharedObject(path: path, handle: handle)
            }
            failures.append(lastLoaderError())
        }
        throw LoadFailure(reasons: failures)
    }

    /// The address of `name` in the object; the loader's message when it has none.
    public func symbol(_ name: String) -> Result<UnsafeMutableRawPointer, LoadFailure> {
        guard let address = dlsym(handle, name) else {
            return .failure(LoadFailure(reasons: [Self.lastLoaderError()]))
        }
        return .success(address)
    }

    private static func lastLoaderError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown loader error"
    }
}
