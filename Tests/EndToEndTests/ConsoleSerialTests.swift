// End to end: the appliance's console on one end of a pty pair, picocom (in tmux) or a
// raw file descriptor on the other; a cable unplugged and plugged back in; the menu on a
// terminal on standard input.

import Foundation
import XCTest

final class ConsoleSerialTests: XCTestCase {
    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
        cleanups = []
    }

    private func directory() throws -> URL {
        let url = try PinholeProcess.temporaryDirectory()
        cleanups.append { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func pinhole(_ arguments: [String], in directory: URL) throws -> BackgroundProcess {
        let binary = try PinholeProcess.binary()
        let process = try BackgroundProcess(
            binary.path,
            [
                "run", "--board", "sim", "--library",
                directory.appendingPathComponent("library").path,
            ] + arguments,
            errorFile: directory.appendingPathComponent("pinhole.log"))
        cleanups.append { process.stop() }
        return process
    }

    private func ptys(in directory: URL) throws -> (appliance: URL, terminal: URL, socat: BackgroundProcess) {
        let appliance = directory.appendingPathComponent("ttyAppliance")
        let terminal = directory.appendingPathComponent("ttyTerminal")
        let socat = try ConsoleTestTools.linkedPtys(
            appliance, terminal, log: directory.appendingPathComponent("socat.log"))
        cleanups.append { socat.stop() }
        return (appliance, terminal, socat)
    }

    func testMenuOverASerialLineWithPicocom() throws {
        let picocom = try ConsoleTestTools.tool("picocom")
        let dir = try directory()
        let (appliance, terminal, _) = try ptys(in: dir)
        let process = try pinhole(["--console", appliance.path], in: dir)
        let pane = try TmuxPane("\(picocom) -q -b 115200 \(terminal.path)")
        cleanups.append { pane.close() }
        XCTAssertTrue(pane.isAlive, "picocom runs")
        try pane.send("C-l")  // picocom may have connected after the first screen: redraw
        try pane.waitFor("Pinhole  Main menu")
        XCTAssertTrue(pane.screen.contains("imx477"), pane.screen)
        XCTAssertTrue(pane.screen.contains(" 1  Capture"), pane.screen)
        XCTAssertFalse(pane.screen.contains("Quit"), "a serial console does not offer to stop the appliance")

        try pane.send("1")
        try pane.waitFor("Main menu > Capture")
        try pane.send("Enter")
        try pane.waitFor("ok saved ")
        try pane.waitFor("|1 ph")  // "1 photos", or "1 ph" when the line is compacted

        try pane.send("Escape")  // a lone ESC (picocom passes it through) goes back
        try pane.waitFor(" Pinhole  Main menu  ")
        // Arrows in picocom's form, one key at a time as a person types (keys closer than a
        // few milliseconds are taken for line noise), each after the screen showed the last
        // one's move: Down four times, then Enter, on System.
        for _ in 0..<4 { try pane.press("Down") }
        try pane.send("Enter")
        try pane.waitFor("Main menu > System")
        try pane.send("BSpace")
        try pane.waitFor(" Pinhole  Main menu  ")
        XCTAssertTrue(process.process.isRunning, process.errors)
    }

    func testSerialDeviceSurvivesUnplugAndReplugAndAnswersInLineMode() throws {
        let dir = try directory()
        var (appliance, terminal, socat) = try ptys(in: dir)
        let process = try pinhole(["--console", appliance.path, "--console-mode", "line"], in: dir)
        var end = try RawTTY(path: terminal.path)
        // The appliance discards what arrived before it opened the device: ask until it answers.
        XCTAssertTrue(try end.ask("status\r", until: "ok camera imx477").hasPrefix("ok camera"))

        // Unplug: the far end disappears; the appliance keeps running and looks for the device.
        end.close()
        socat.stop()
        try ConsoleTestTools.wait(
            for: "the appliance to notice the hangup:\n\(process.errors)", watching: [process.errorFile]
        ) {
            process.errors.contains("went away")
        }
        XCTAssertTrue(process.process.isRunning, process.errors)

        // Plug back in: the same device name appears again.
        (appliance, terminal, socat) = try ptys(in: dir)
        try ConsoleTestTools.wait(
            for: "the appliance to reopen the device:\n\(process.errors)", watching: [process.errorFile]
        ) {
            process.errors.contains("is back")
        }
        end = try RawTTY(path: terminal.path)
        defer { end.close() }
        try end.write("bogus\r\nstatus\n")
        XCTAssertEqual(
            try end.readLine(containing: "error"), "error 64: unknown command 'bogus': type help for the list"
        )
        XCTAssertTrue(try end.readLine(containing: "ok camera").hasPrefix("ok camera imx477"))
        // An overlong line is refused; garbage starts a quiet wait (ConsoleNoiseTests).
        try end.write(String(repeating: "x", count: 5000) + "\r")
        XCTAssertTrue(try end.readLine(containing: "line too long").contains("error 64"))
        try end.write("status\r")
        XCTAssertTrue(try end.readLine(containing: "ok camera").hasPrefix("ok camera imx477"))
        try end.write(String(repeating: "\u{1B}[1;2;3", count: 50) + "\r")
        XCTAssertTrue(try end.readLine(containing: "event noise").contains("press Enter twice"))
    }

    func testMenuOnAStandardInputTerminalQuitsAndRestoresTheTerminal() throws {
        let dir = try directory()
        let binary = try PinholeProcess.binary()
        let library = dir.appendingPathComponent("library").path
        let marker = dir.appendingPathComponent("exited")
        let pane = try TmuxPane(
            "sh -c '\(binary.path) run --board sim --library \(library) 2>/dev/null; "
                + "stty -a | grep -q icanon && touch \(marker.path); echo after-exit; sleep 30'")
        cleanups.append { pane.close() }
        try pane.waitFor("Pinhole  Main menu")
        XCTAssertTrue(pane.screen.contains("[sim]"), pane.screen)
        try pane.send("End", "Enter")  // the last item: Quit
        try pane.waitFor("Type quit to confirm")
        try pane.send("quit", "Enter")
        try pane.waitFor("after-exit")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: marker.path), "the terminal is back in canonical mode")
    }
}

/// The far end of a pty opened raw, read line by line.
struct RawTTY {
    private var handle: FileHandle?
    private var buffer: [UInt8] = []

    init(path: String) throws {
        let fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var settings = termios()
        tcgetattr(fd, &settings)
        cfmakeraw(&settings)
        tcsetattr(fd, TCSANOW, &settings)
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func write(_ text: String) throws { try handle?.write(contentsOf: Data(text.utf8)) }

    func write(bytes: [UInt8]) throws { try handle?.write(contentsOf: Data(bytes)) }

    /// Reads and drops whatever output is waiting (so the far end never blocks on us).
    mutating func drain() {
        guard let handle else { return }
        var pollfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while poll(&pollfd, 1, 0) > 0 {
            let count = read(handle.fileDescriptor, &chunk, chunk.count)
            if count <= 0 { return }
        }
        buffer.removeAll()
    }

    /// Sends `text` every second until the output (screen updates, not lines) contains `text`.
    mutating func ask(_ text: String, untilScreenShows expected: String) throws {
        guard let handle else { throw ConsoleTestTools.TimedOut(what: "a closed tty") }
        buffer.removeAll()
        for _ in 0..<60 {
            try write(text)
            let deadline = Date().addingTimeInterval(1)
            while Date() < deadline {
                var pollfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
                if poll(&pollfd, 1, 100) > 0 {
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let count = read(handle.fileDescriptor, &chunk, chunk.count)
                    if count > 0 { buffer += chunk[0..<count] }
                }
                if String(decoding: buffer, as: UTF8.self).contains(expected) {
                    buffer.removeAll()
                    return
                }
            }
        }
        throw ConsoleTestTools.TimedOut(what: "'\(expected)' on the screen")
    }

    /// Sends `text` every second until a line containing `answer` arrives (60 s at most).
    mutating func ask(_ text: String, until answer: String) throws -> String {
        for _ in 0..<60 {
            try write(text)
            if let line = try readLine(containing: answer, timeout: 1) { return line }
        }
        throw ConsoleTestTools.TimedOut(what: "an answer containing '\(answer)'")
    }

    /// Reads until a line containing `text` arrives (60 s at most); returns that line.
    mutating func readLine(containing text: String) throws -> String {
        guard let line = try readLine(containing: text, timeout: 60) else {
            throw ConsoleTestTools.TimedOut(what: "a line containing '\(text)'")
        }
        return line
    }

    private mutating func readLine(containing text: String, timeout: TimeInterval) throws -> String? {
        guard let handle else { throw ConsoleTestTools.TimedOut(what: "a closed tty") }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            while let end = buffer.firstIndex(where: { $0 == 10 || $0 == 13 }) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                if line.contains(text) { return line }
            }
            var pollfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pollfd, 1, 200) > 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(handle.fileDescriptor, &chunk, chunk.count)
                if count > 0 { buffer += chunk[0..<count] }
            }
        }
        return nil
    }

    mutating func close() {
        try? handle?.close()
        handle = nil
    }
}
