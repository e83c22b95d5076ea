// A real gpsd for the tracker's tests, reading an NMEA log the test writes into a pty.

import Foundation
import PinholeLinux
import PinholeSystem
import PinholeTestTools
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A real gpsd on a free port whose one device is a pty this test writes one of the NMEA logs
/// next to this file into.
///
/// gpsd gets the pty on its command line (`-n`: opened at start, before it serves anyone), so
/// it has its device before a client can ask. The log is written once for each client that
/// asks gpsd to WATCH, once gpsd has read that request (its `-D 3` log says so): gpsd is one
/// thread, so it reads the log only after it registered the watcher, and after the speed hunt
/// at activation, which flushes the pty. Nothing here is paced by the wall clock.
///
/// gpsfake ran gpsd before and, under load, lost the device: it adds it through gpsd's control
/// socket as soon as that socket's file exists, which gpsd creates (bind) before it listens. A
/// gpsd starved between the two refused gpsfake's connect; gpsfake said nothing, printed "log
/// cycle begins" and fed a device gpsd never had (the tests then found nothing listening, and
/// later "no GPS receiver"; reproduced by delaying gpsd's listen() with strace's fault injection).
final class FakeGPSD {
    let port: Int
    private let feed: NMEAFeed
    private var process: Process?
    private var reader: SystemThread?
    private let output = GPSDOutput()

    /// Starts gpsd on `port` or a free one.
    init(log: String, port: Int? = nil) throws {
        _ = try ExternalTool.locate("/usr/sbin/gpsd")
        self.port = try port ?? Self.freePort()
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("NMEA/\(log).nmea").path
        feed = try NMEAFeed(file: file)
        try start()
    }

    /// Starts gpsd again on the same port and pty (after `kill()`).
    func restart() throws {
        kill()
        try start()
    }

    private func start() throws {
        output.reset()
        let process = Process()
        let gpsd = ["/usr/sbin/gpsd", "-N", "-n", "-b", "-D", "3", "-S", String(port), feed.device]
        process.executableURL = URL(fileURLWithPath: gpsd[0])
        process.arguments = Array(gpsd.dropFirst())
        // Its own shared-memory segment (gpsd's default key is one for the whole machine).
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["GPSD_SHM_KEY": String(format: "0x4770%04X", port)], uniquingKeysWith: { $1 })
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        self.process = process
        let output = self.output
        let feed = self.feed
        let readEnd = errors.fileHandleForReading
        reader = try SystemThread.start {
            // gpsd's log, line by line, to its end: listening, and each client's WATCH.
            var pending: [UInt8] = []
            while true {
                let bytes = readEnd.availableData
                guard !bytes.isEmpty else { break }
                pending += bytes
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if line.contains("<= client(") && line.contains("?WATCH") { feed.writeOnce() }
                    output.append(line)
                }
            }
            output.ended()
        }
    }

    /// Waits (at most 20 s) until gpsd says it listens on its port, or fails if it ended.
    func waitUntilListening() throws {
        let text = try output.waitForListening(seconds: 20)
        XCTAssertTrue(Self.isListening(port), "gpsd listens on \(port) once it said so: \(text)")
    }

    /// Whether something accepts connections on the port now.
    static func isListening(_ port: Int) -> Bool {
        guard let socket = try? TCPClient.connect(host: "127.0.0.1", port: port, timeoutMs: 1000) else {
            return false
        }
        try? socket.close()
        return true
    }

    /// Stops gpsd and waits for it (the pty and its log stay, for `restart()`).
    func kill() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        process = nil
        reader?.join()
        reader = nil
    }

    deinit {
        kill()
        feed.close()
    }

    /// A TCP port nothing listens on right now.
    static func freePort() throws -> Int { try LoopbackServer.closedPort() }
}

/// gpsd's log as it comes, and whether it said it listens.
final class GPSDOutput: @unchecked Sendable {
    private let lock = ConditionLock()
    private var text = ""
    private var listening = false
    private var over = false

    func reset() { lock.withLock { (text, listening, over) = ("", false, false) } }

    func append(_ line: String) {
        lock.withLock {
            if line.contains("listening on port") { listening = true }
            if text.utf8.count < 20_000 { text += line + "\n" }
            lock.broadcast()
        }
    }

    func ended() {
        lock.withLock {
            over = true
            lock.broadcast()
        }
    }

    /// Blocks until gpsd said it listens (returns its log so far), it ended, or `seconds` passed.
    func waitForListening(seconds: Int64) throws -> String {
        let deadline = monotonicNanoseconds() + seconds * 1_000_000_000
        lock.lock()
        defer { lock.unlock() }
        while !listening, !over, monotonicNanoseconds() < deadline {
            lock.wait(untilMonotonicNanoseconds: deadline)
        }
        guard listening else {
            throw GPSDFailure(
                reason: over
                    ? "ended before it listened: \(text)" : "did not listen within \(seconds) s: \(text)")
        }
        return text
    }
}

/// A pty whose far end is gpsd's device, and a thread writing an NMEA log into it on request.
final class NMEAFeed: @unchecked Sendable {
    /// The device gpsd opens.
    let device: String
    private let master: Int32
    private let slave: Int32
    /// Wakes the writer when the feed closes (it may be waiting for gpsd to read).
    private let wake: [Int32]
    private let lines: [[UInt8]]
    private let lock = ConditionLock()
    private var passes = 0
    private var closing = false
    private var writer: SystemThread?

    init(file: String) throws {
        lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { Array(($0 + "\r\n").utf8) }
        master = PseudoTerminal.openMaster()
        guard master >= 0, let name = PseudoTerminal.slaveName(master) else {
            throw GPSDFailure(reason: "no pty for the NMEA log (errno \(errno))")
        }
        device = name
        // Held open here too, so that the line stays up while gpsd restarts; raw, as a serial GPS.
        slave = open(device, O_RDWR | O_NOCTTY)
        var pipeEnds: [Int32] = [-1, -1]
        guard slave >= 0, pipe(&pipeEnds) == 0 else {
            throw GPSDFailure(reason: "cannot open \(device) or a pipe (errno \(errno))")
        }
        wake = pipeEnds
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        writer = try SystemThread.start { [self] in run() }
    }

    /// Writes the whole log once more (on the writer's thread).
    func writeOnce() {
        lock.withLock {
            passes += 1
            lock.broadcast()
        }
    }

    private func run() {
        while true {
            lock.lock()
            while passes == 0, !closing { lock.wait() }
            let stop = closing
            if !stop { passes -= 1 }
            lock.unlock()
            if stop { return }
            for line in lines where !send(line) { return }
        }
    }

    /// Writes one line, waiting while gpsd has not read what came before; false once closing.
    private func send(_ line: [UInt8]) -> Bool {
        var offset = 0
        while offset < line.count {
            let written = line[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EINTR else { return false }
            var waits = [
                pollfd(fd: master, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&waits, 2, -1)
            if waits[1].revents != 0 { return false }
        }
        return true
    }

    /// Ends the writer and closes the pty.
    func close() {
        lock.withLock {
            closing = true
            lock.broadcast()
        }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        writer?.join()
        for fd in [slave, master, wake[0], wake[1]] { Glibc.close(fd) }
    }
}

/// glibc's pty calls, which Swift's Glibc module leaves out (they need _XOPEN_SOURCE).
enum PseudoTerminal {
    nonisolated(unsafe) private static let process = dlopen(nil, RTLD_NOW)

    /// A new pty's master, non-blocking, granted and unlocked (-1 on failure).
    static func openMaster() -> Int32 {
        typealias Call = @convention(c) (Int32) -> Int32
        guard let open = dlsym(process, "posix_openpt"), let grant = dlsym(process, "grantpt"),
            let unlock = dlsym(process, "unlockpt")
        else { return -1 }
        let master = unsafeBitCast(open, to: Call.self)(O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard master >= 0, unsafeBitCast(grant, to: Call.self)(master) == 0,
            unsafeBitCast(unlock, to: Call.self)(master) == 0
        else { return -1 }
        return master
    }

    /// The path of the master's far end.
    static func slaveName(_ master: Int32) -> String? {
        typealias Call = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
        guard let name = dlsym(process, "ptsname_r") else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        guard unsafeBitCast(name, to: Call.self)(master, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// gpsd did not come up: a failure, never a skip, so that the tracker's tests cannot pass without running.
struct GPSDFailure: Error, CustomStringConvertible {
    /// What went wrong, with gpsd's log.
    var reason: String
    var description: String { "gpsd \(reason)" }
}
