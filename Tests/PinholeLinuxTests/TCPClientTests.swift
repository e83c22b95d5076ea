// The TCP client layer against a loopback server: connect, send, refusal, cancellation, timeout; no descriptor left open.

import PinholeCore
import PinholeSystem
import SystemPackage
import XCTest

final class TCPClientTests: XCTestCase {
    func testConnectsAndSendsEverything() throws {
        let server = try LoopbackServer()
        let socket = try TCPClient.connect(host: "127.0.0.1", port: server.port, timeoutMs: 5000)
        defer { try? socket.close() }
        let peer = try server.accept()
        defer { try? peer.close() }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        // More than the socket buffers hold: the sender waits for room while the peer reads.
        let sender = try SystemThread.start { try? TCPClient.send(bytes, on: socket, timeoutMs: 5000) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < bytes.count {
            let count = try buffer.withUnsafeMutableBytes { try peer.read(into: $0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        sender.join()
        XCTAssertEqual(received, bytes)
    }

    func testARefusedConnectionSaysSoAndLeavesNoDescriptorOpen() throws {
        let port = try LoopbackServer.closedPort()
        let before = LoopbackServer.openDescriptors
        XCTAssertThrowsError(try TCPClient.connect(host: "127.0.0.1", port: port, timeoutMs: 5000)) {
            XCTAssertEqual($0 as? TCPFailure, .refused(.connectionRefused))
            XCTAssertEqual("\($0)", "connection refused or reset (Connection refused)")
        }
        XCTAssertEqual(LoopbackServer.openDescriptors, before)
    }

    func testAWakeUpCancelsTheAttemptAndClosesItsSocket() throws {
        let server = try LoopbackServer()
        let wake = try FileDescriptor.pipe(options: .closeOnExec)
        defer {
            try? wake.readEnd.close()
            try? wake.writeEnd.close()
        }
        _ = try wake.writeEnd.writeAll([1])
        let before = LoopbackServer.openDescriptors
        XCTAssertThrowsError(
            try TCPClient.connect(host: "127.0.0.1", port: server.port, timeoutMs: 5000, cancel: wake.readEnd)
        ) { XCTAssertEqual($0 as? TCPFailure, .cancelled) }
        XCTAssertEqual(LoopbackServer.openDescriptors, before)
    }

    /// A server whose queue of unaccepted connections is full drops the next handshake, so
    /// that connection attempt gets no answer at all.
    func testNoAnswerTimesOutAndClosesItsSocket() throws {
        let server = try LoopbackServer(backlog: 0)
        var waiting: [FileDescriptor] = []
        defer { for socket in waiting { try? socket.close() } }
        let before = LoopbackServer.openDescriptors
        var outcome: TCPFailure?
        for _ in 0..<8 where outcome == nil {
            do {
                waiting.append(try TCPClient.connect(host: "127.0.0.1", port: server.port, timeoutMs: 100))
            } catch {
                outcome = error
            }
        }
        XCTAssertEqual(outcome, .timedOut(milliseconds: 100))
        XCTAssertEqual(outcome.map { "\($0)" }, "no answer within 100 ms")
        XCTAssertEqual(
            LoopbackServer.openDescriptors, before + waiting.count, "only the connected sockets are open")
    }

    func testSendingToAClosedPeerIsAnErrorNotASignal() throws {
        let server = try LoopbackServer()
        let socket = try TCPClient.connect(host: "127.0.0.1", port: server.port, timeoutMs: 5000)
        defer { try? socket.close() }
        try server.accept().close()
        // The first send may still be taken; the peer's reset fails a later one (EPIPE or
        // ECONNRESET) without SIGPIPE ending the test process.
        var failure: TCPFailure?
        for _ in 0..<100 where failure == nil {
            do {
                try TCPClient.send(Array(repeating: 0x41, count: 4096), on: socket, timeoutMs: 5000)
            } catch {
                failure = error
            }
        }
        guard case .refused(let code) = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertTrue([Errno.brokenPipe, .connectionReset].contains(code), "\(code)")
    }
}
