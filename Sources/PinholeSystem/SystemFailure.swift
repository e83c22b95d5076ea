// A failed system call: which operation, on which path, and its Errno.

import SystemPackage

/// A failed system call with the path it worked on.
public struct SystemFailure: Error, CustomStringConvertible, Equatable {
    /// The C function that failed (`open`, `rename`, `fsync`…).
    public var operation: String
    /// The path it was working on.
    public var path: FilePath
    /// Why.
    public var errno: Errno

    /// Describes a failure.
    public init(_ operation: String, _ path: FilePath, _ errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// True for "no space left" and "quota exceeded".
    public var isStorageFull: Bool { errno == .noSpace || errno == .diskQuotaExceeded }

    /// `operation(path) failed: reason (errno N)`.
    public var description: String {
        "\(operation)(\(path)) failed: \(errno) (errno \(errno.rawValue))"
    }
}

extension Errno {
    /// Attaches the operation and path this error came from.
    public func failure(_ operation: String, _ path: FilePath) -> SystemFailure {
        SystemFailure(operation, path, self)
    }
}

/// Runs `body`, turning a thrown `Errno` into a `SystemFailure` naming `operation` and `path`.
@discardableResult
public func naming<T>(_ operation: String, _ path: FilePath, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let code as Errno {
        throw SystemFailure(operation, path, code)
    }
}
