// sd_notify datagrams on a real unix socket: readiness, status, and watchdog pings on virtual time.

import PinholeCore
import PinholeLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class SystemdNotifierTests: XCTestCase {
    private var fd: Int32 = -1
    private var path = ""

    override func setUpWithError() throws {
        path = "/tmp/pinhole-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        fd = try Self.bindDatagramSocket(path: path, abstract: false)
    }

    override func tearDown() {
        if fd >= 0 { close(fd) }
        unlink(path)
    }

    func testReadyAndStatusArriveAsOneDatagram() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        XCTAssertTrue(notifier.notify("READY=1\nSTATUS=running on board vm"))
        XCTAssertEqual(receiveAll(), ["READY=1\nSTATUS=running on board vm"])
    }

    func testWithoutNotifySocketNothingIsSentAndThereIsNoWatchdog() {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000"])
        XCTAssertNil(notifier.socketPath)
        XCTAssertNil(notifier.watchdogInterval)
        XCTAssertFalse(notifier.notify("READY=1"))
        let loop = EventLoop.virtual()
        notifier.startWatchdog(on: loop)
        XCTAssertEqual(loop.pendingTimerCount, 0)
        XCTAssertEqual(receiveAll(), [])
    }

    func testWatchdogPingsAtHalfThePeriodWhileTheLoopTurnsAndStopsWhenAsked() {
        let notifier = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "\(getpid())"])
        XCTAssertEqual(notifier.watchdogInterval, .seconds(10))
        let loop = EventLoop.virtual()
        notifier.startWatchdog(on: loop)
        XCTAssertEqual(receiveAll(), ["WATCHDOG=1"])  // at once
        loop.advance(by: .milliseconds(4999))
        XCTAssertEqual(receiveAll(), [])
        loop.advance(by: .milliseconds(1))
        XCTAssertEqual(receiveAll(), ["WATCHDOG=1"])
        loop.advance(by: .seconds(10))
        XCTAssertEqual(receiveAll(), ["WATCHDOG=1", "WATCHDOG=1"])
        notifier.stopWatchdog(on: loop)
        loop.advance(by: .seconds(60))
        XCTAssertEqual(receiveAll(), [])
    }

    func testAWatchdogMeantForAnotherProcessIsIgnored() {
        let notifier = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"],
            pid: 4242)
        XCTAssertNil(notifier.watchdogInterval)
    }

    func testBadWatchdogValuesAreIgnored() {
        for value in ["", "0", "-5", "ten", "99999999999999999999999"] {
            let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": value])
            XCTAssertNil(notifier.watchdogInterval, value)
        }
    }

    func testAbstractSocketNamesStartWithAt() throws {
        let name = "pinhole-notify-test-\(getpid())"
        let abstract = try Self.bindDatagramSocket(path: name, abstract: true)
        defer { close(abstract) }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name])
        XCTAssertTrue(notifier.notify("STOPPING=1"))
        XCTAssertEqual(Self.receiveAll(abstract), ["STOPPING=1"])
    }

    func testAMissingOrOverlongSocketIsAFailureNotACrash() {
        let before = LoopbackServer.openDescriptors
        XCTAssertFalse(SystemdNotifier(environment: ["NOTIFY_SOCKET": path + ".gone"]).notify("READY=1"))
        let long = "/tmp/" + String(repeating: "x", count: 200)
        XCTAssertFalse(SystemdNotifier(environment: ["NOTIFY_SOCKET": long]).notify("READY=1"))
        XCTAssertEqual(LoopbackServer.openDescriptors, before, "the socket is closed on failure too")
    }

    private func receiveAll() -> [String] { Self.receiveAll(fd) }

    private static func receiveAll(_ fd: Int32) -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 { break }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        return messages
    }

    private static func bindDatagramSocket(path: String, abstract: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes.insert(0, at: 0) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard status == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return fd
    }
}
