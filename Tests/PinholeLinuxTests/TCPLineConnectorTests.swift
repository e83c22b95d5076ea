// The TCP line reader against a loopback server: greeting, lines, over-long lines, the server closing, close(); no descriptor left open.

import PinholeCore
@testable import PinholeLinux
import PinholeSystem
import SystemPackage
import XCTest

final class TCPLineConnectorTests: XCTestCase {
    /// What the reader thread delivered, waited for under the one lock.
    private final class Delivered: @unchecked Sendable {
        private let lock = ConditionLock()
        private var lines: [String] = []
        private var endings: [String] = []

        func line(_ bytes: [UInt8]) { update { lines.append(String(decoding: bytes, as: UTF8.self)) } }
        func closed(_ reason: String) { update { endings.append(reason) } }

        private func update(_ change: () -> Void) {
            lock.withLock {
                change()
                lock.broadcast()
            }
        }

        /// Waits (at most 20 s of real time: a bound, not a measurement) until `done` holds.
        func wait(_ done: ([String], [String]) -> Bool) -> (lines: [String], endings: [String]) {
            let deadline = monotonicNow().nanoseconds + 20_000_000_000
            lock.lock()
            defer { lock.unlock() }
            while !done(lines, endings) && monotonicNow().nanoseconds < deadline {
                lock.wait(untilMonotonicNanoseconds: deadline)
            }
            return (lines, endings)
        }
    }

    private func open(_ port: Int, _ delivered: Delivered, maxLine: Int = 16) -> any LineConnection {
        TCPLineConnector().open(
            host: "127.0.0.1", port: port, greeting: Array("?WATCH\n".utf8), maxLine: maxLine,
            onLine: delivered.line, onClosed: delivered.closed)
    }

    func testLinesArriveAfterTheGreetingAndTheServerClosingEndsThem() throws {
        let server = try LoopbackServer()
        let before = LoopbackServer.openDescriptors
        let delivered = Delivered()
        let connection = open(server.port, delivered)
        let peer = try server.accept()
        var greeting = [UInt8](repeating: 0, count: 7)
        XCTAssertEqual(try greeting.withUnsafeMutableBytes { try peer.read(into: $0) }, 7)
        XCTAssertEqual(String(decoding: greeting, as: UTF8.self), "?WATCH\n")
        _ = try peer.writeAll(Array("one\r\n\ntwo\n\(String(repeating: "x", count: 40))\nthree\npart".utf8))
        try peer.close()
        let (lines, endings) = delivered.wait { _, endings in !endings.isEmpty }
        XCTAssertEqual(lines, ["one", "two", String(repeating: "x", count: 17), "three"])
        XCTAssertEqual(endings, ["the server closed the connection"])
        connection.close()
        XCTAssertEqual(LoopbackServer.openDescriptors, before, "the socket and the wake-up pipe are closed")
    }

    func testCloseStopsTheReaderWithoutACallbackAndClosesEverything() throws {
        let server = try LoopbackServer()
        let before = LoopbackServer.openDescriptors
        let delivered = Delivered()
        let connection = open(server.port, delivered)
        let peer = try server.accept()
        defer { try? peer.close() }
        _ = try peer.writeAll(Array("ready\n".utf8))
        XCTAssertEqual(delivered.wait { lines, _ in !lines.isEmpty }.lines, ["ready"])
        connection.close()
        connection.close()
        XCTAssertEqual(delivered.wait { _, _ in true }.endings, [], "no callback after close()")
        XCTAssertEqual(LoopbackServer.openDescriptors, before + 1, "only the server's side is still open")
    }

    func testARefusedConnectionIsReportedAndLeavesNoDescriptorOpen() throws {
        let port = try LoopbackServer.closedPort()
        let before = LoopbackServer.openDescriptors
        let delivered = Delivered()
        let connection = open(port, delivered)
        let endings = delivered.wait { _, endings in !endings.isEmpty }.endings
        XCTAssertEqual(endings, ["connection refused or reset (Connection refused)"])
        connection.close()
        XCTAssertEqual(LoopbackServer.openDescriptors, before)
    }
}
