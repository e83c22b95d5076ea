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

    /// Why a shim's function table could not be taken.
    public enum TableFailure: Error {
        /// No candidate loaded.
        case notLoaded(LoadFailure)
        /// The object at `path` has no table function: it is not the shim asked for.
        case noTable(path: FilePath, LoadFailure)
        /// The table at `path` lacks entries (a shim of another version).
        case incomplete(path: FilePath)
    }

    /// Opens the first of `candidates` that loads and returns a copy of the function table that
    /// its C function `symbol` (`const Table *symbol(void)`) hands out, once `isComplete`
    /// accepts it (C allows null entries).
    public static func functionTable<Table>(
        _ symbol: String, from candidates: [FilePath], isComplete: (Table) -> Bool
    ) throws(TableFailure) -> Table {
        let object: SharedObject
        do {
            object = try open(candidates)
        } catch {
            throw .notLoaded(error)
        }
        let address: UnsafeMutableRawPointer
        switch object.symbol(symbol) {
        case .success(let found): address = found
        case .failure(let error): throw .noTable(path: object.path, error)
        }
        let tableFunction = unsafeBitCast(address, to: (@convention(c) () -> UnsafeRawPointer?).self)
        guard let table = tableFunction()?.load(as: Table.self), isComplete(table) else {
            throw .incomplete(path: object.path)
        }
        return table
    }

    private static func lastLoaderError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown loader error"
    }
}
