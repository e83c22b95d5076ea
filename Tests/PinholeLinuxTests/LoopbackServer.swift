// A TCP server on 127.0.0.1 for the client tests: listen, accept, read and write on the accepted socket.

import PinholeCore
import PinholeSystem
import SystemPackage
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A listening socket on a free loopback port (the peer the client code under test talks to).
final class LoopbackServer: Sendable {
    let listener: FileDescriptor
    let port: Int

    /// Listens with room for `backlog` connections not yet accepted.
    init(backlog: Int32 = 8) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, listening else {
            if fd >= 0 { try? FileDescriptor(rawValue: fd).close() }
            throw XCTSkip("cannot listen on 127.0.0.1")
        }
        listener = FileDescriptor(rawValue: fd)
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { try? listener.close() }

    /// Accepts the next connection (blocking).
    func accept() throws -> FileDescriptor {
        FileDescriptor(rawValue: try retryingInterrupts { Glibc.accept(listener.rawValue, nil, nil) })
    }

    /// A loopback port nothing listens on: bound, never listened on, closed.
    static func closedPort() throws -> Int {
        let server = try LoopbackServer()
        let port = server.port
        return port  // the listener closes with `server`
    }

    /// Descriptors this process has open now (/proc/self/fd's entries).
    static var openDescriptors: Int { FileSystem.list("/proc/self/fd").count }
}
