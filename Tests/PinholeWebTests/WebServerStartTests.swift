// The server on a real socket: start errors that name the key, loopback without a PIN, and
// hostile clients (huge headers, a client that never finishes its request).

import Logging
import PinholeConfiguration
import PinholeCore
import PinholeTestTools
import SystemPackage
import XCTest

@testable import PinholeWeb

#if canImport(Glibc)
    import Glibc
#endif

final class WebServerStartTests: WebTestCase {
    private func start(
        _ options: WebServerOptions, hasPIN: Bool = true, backend: FakeWebBackend? = nil
    ) throws -> WebServer {
        let clock = self.clock
        return try WebServer(
            options: options, backend: backend ?? FakeWebBackend(library: library), hasPIN: hasPIN,
            now: { clock.now }, logger: Logger(label: "test"))
    }

    /// The port of a started server.
    private func port(_ server: WebServer) -> UInt16 { UInt16(server.address.split(separator: ":").last!)! }

    func testListenValuesAreCheckedWithTheFileLineAndKey() throws {
        for bad in [
            "8080", "localhost", "localhost:0", "localhost:70000", "[::1]8080", "host name:80", ":80", "a:b",
        ] {
            XCTAssertThrowsError(try Configuration.parse("[web]\nlisten = \"\(bad)\"\n", file: "p.toml"), bad)
            {
                let text = "\($0)"
                XCTAssertTrue(text.contains("p.toml:2"), text)
                XCTAssertTrue(text.contains("[web] listen"), text)
            }
        }
        let good = try Configuration.parse("[web]\nlisten = \"[::]:8443\"\nopen = true\n", file: "p.toml")
        XCTAssertEqual(good.web.host, "::")
        XCTAssertEqual(good.web.port, 8443)
        XCTAssertTrue(good.web.open)
        XCTAssertFalse(try Configuration.parse("", file: "p.toml").web.enabled)
        XCTAssertThrowsError(
            try Configuration.parse(
                "[web]\nlisten = \"0.0.0.0:80\"\ncertificate = \"/c.pem\"\n", file: "p.toml")
        ) {
            XCTAssertTrue("\($0)".contains("[web] key is missing"), "\($0)")
        }
    }

    func testAPortInUseIsAClearErrorNamingTheKey() throws {
        let first = try start(WebServerOptions(host: "127.0.0.1", port: 0))
        defer { first.stop() }
        let port = Int(first.address.split(separator: ":").last!)!
        var options = WebServerOptions(host: "127.0.0.1", port: port)
        options.source = "/etc/pinhole/pinhole.toml:7"
        XCTAssertThrowsError(try start(options)) {
            let text = "\($0)"
            XCTAssertTrue(text.contains("/etc/pinhole/pinhole.toml:7: [web] listen"), text)
            XCTAssertTrue(text.contains("port \(port) is in use"), text)
        }
    }

    func testAMissingCertificateIsAClearErrorNamingTheKey() throws {
        var options = WebServerOptions(host: "127.0.0.1", port: 0)
        options.certificate = "/nonexistent/cert.pem"
        options.key = "/nonexistent/key.pem"
        XCTAssertThrowsError(try start(options)) {
            XCTAssertTrue("\($0)".contains("[web] certificate '/nonexistent/cert.pem'"), "\($0)")
        }
    }

    func testWithoutAPINItListensOnLoopbackOnlyUnlessOpen() throws {
        let closed = try start(WebServerOptions(host: "0.0.0.0", port: 0), hasPIN: false)
        defer { closed.stop() }
        XCTAssertTrue(closed.address.hasPrefix("127.0.0.1:"), closed.address)
        XCTAssertTrue(closed.loopbackOnly)
        XCTAssertTrue(closed.warning?.contains("loopback only") ?? false)
        var options = WebServerOptions(host: "0.0.0.0", port: 0)
        options.open = true
        let open = try start(options, hasPIN: false)
        defer { open.stop() }
        XCTAssertTrue(open.address.hasPrefix("0.0.0.0:"), open.address)
        XCTAssertTrue(open.warning?.contains("anyone on the network") ?? false)
        let pinned = try start(WebServerOptions(host: "0.0.0.0", port: 0))
        defer { pinned.stop() }
        XCTAssertTrue(pinned.address.hasPrefix("0.0.0.0:"))
        XCTAssertNil(pinned.warning)
    }

    func testAPINChangeEndsEverySession() throws {
        let backend = FakeWebBackend(library: library)
        let server = try start(WebServerOptions(host: "127.0.0.1", port: 0), backend: backend)
        defer { server.stop() }
        let login = try RawClient(port: port(server))
        try login.send(
            "POST /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 8\r\n\r\npin=2468")
        let answer = login.receiveAll()
        let cookie = try XCTUnwrap(answer.firstMatch(of: /pinhole_session=[0-9a-f]{64}/)).output
        func grid() throws -> String {
            let client = try RawClient(port: port(server))
            try client.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: \(cookie)\r\n\r\n")
            return String(client.receiveAll().prefix(12))
        }
        XCTAssertEqual(try grid(), "HTTP/1.1 200")
        backend.pinChanges.add(1, ordering: .relaxed)  // `pin set` or `pin clear` on any console
        XCTAssertEqual(try grid(), "HTTP/1.1 303")
    }

    func testHTTPSIsServedWithACertificateMadeAsTheDocsSay() throws {
        // docs/WEB.md's command, for 127.0.0.1 instead of the board's mDNS name.
        let folder = library.directory + "-tls"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days",
                "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout",
                folder + "/web.key",
                "-out", folder + "/web.crt",
            ])
        XCTAssertEqual(made.status, 0, made.output)
        var options = WebServerOptions(host: "127.0.0.1", port: 0)
        options.certificate = FilePath(folder + "/web.crt")
        options.key = FilePath(folder + "/web.key")
        let server = try start(options)
        defer { server.stop() }
        // curl checks the certificate against the one made, and the cookie is Secure.
        let fetched = try run(
            "/usr/bin/curl",
            [
                "--silent", "--show-error", "--include", "--max-time", "30", "--cacert", folder + "/web.crt",
                "--data", "pin=2468", "https://127.0.0.1:\(port(server))/login",
            ])
        XCTAssertEqual(fetched.status, 0, fetched.output)
        XCTAssertTrue(fetched.output.hasPrefix("HTTP/1.1 303"), fetched.output)
        XCTAssertTrue(fetched.output.contains("; Secure"), fetched.output)
        let plain = try run(
            "/usr/bin/curl", ["--silent", "--max-time", "30", "http://127.0.0.1:\(port(server))/login"])
        XCTAssertNotEqual(
            plain.status, 0, "plain HTTP on the HTTPS port must not be answered: \(plain.output)")
    }

    /// Runs a program to its end: its status and its output, then its errors.
    private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ExternalTool.run(program, arguments)
        return (result.status, result.outputText + result.errorText)
    }

    func testHugeHeadersAndAStalledClientDoNotStopOthersBeingServed() throws {
        let server = try start(WebServerOptions(host: "127.0.0.1", port: 0))
        defer { server.stop() }
        let port = UInt16(server.address.split(separator: ":").last!)!
        // A client that sends half a request and then nothing.
        let stalled = try RawClient(port: port)
        try stalled.send("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        // Headers far beyond the server's limit: refused with a 4xx or the connection closed.
        let huge = try RawClient(port: port)
        try huge.send(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\n\r\n")
        let hugeAnswer = huge.receiveAll()
        XCTAssertTrue(hugeAnswer.isEmpty || hugeAnswer.hasPrefix("HTTP/1.1 4"), String(hugeAnswer.prefix(80)))
        // Meanwhile an ordinary request is answered.
        let other = try RawClient(port: port)
        try other.send("GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = other.receiveAll()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), String(answer.prefix(80)))
        XCTAssertTrue(answer.contains("Log in"))
        stalled.close()
    }
}

struct ConnectFailed: Error {
    var errno: Int32
}

/// A blocking TCP client on loopback for requests no HTTP client would send.
final class RawClient {
    private var fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw ConnectFailed(errno: errno) }
    }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }  // the server may close on us: that is an answer too
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Everything until the server closes the connection.
    func receiveAll() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            out += buffer[0..<count]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The next byte, nil once the server has closed the connection.
    func receiveByte() -> UInt8? {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 1 ? byte : nil
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
