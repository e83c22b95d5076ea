// Helpers for the console's end-to-end tests: background processes, tmux panes, linked pty
// pairs (socat), and waiting for a screen to show something.

import Foundation
import PinholeTestTools
import XCTest

/// A program running in the background for the length of a test.
final class BackgroundProcess {
    let process = Process()
    let errorFile: URL

    init(_ executable: String, _ arguments: [String], errorFile: URL) throws {
        self.errorFile = errorFile
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: errorFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

enum ConsoleTestTools {
    /// The path of a tool; a failure when it is missing (tools/setup installs them all).
    static func tool(_ name: String) throws -> String {
        try ExternalTool.locate(name)
    }

    /// Runs a command to completion and returns its standard output (ExternalTool: its output
    /// goes to a temporary file, not a pipe, which a tmux client would hand to its server).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], capture: Bool = true) throws -> String {
        try ExternalTool.run(executable, arguments, captureOutput: capture).outputText
    }

    /// Checks `condition` each time one of `watching` (files, or folders for files still to
    /// come) changes, blocked in between, until it holds or `timeout` passes (a readiness wait
    /// for real processes, not a timing assertion).
    static func wait(
        for what: @autoclosure () -> String, watching: [URL], timeout: TimeInterval = 60,
        _ condition: () throws -> Bool
    ) throws {
        let watch = try FileChangeWatch(watching)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return }
            guard Date() < deadline else { throw TimedOut(what: what()) }
            watch.waitForChange(until: deadline)
        }
    }

    /// A readiness wait that ran out.
    struct TimedOut: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting for \(what)" }
    }

    /// Starts socat linking two ptys, reachable as `first` and `second` (symlinks).
    static func linkedPtys(_ first: URL, _ second: URL, log: URL) throws -> BackgroundProcess {
        let socat = try tool("socat")
        let process = try BackgroundProcess(
            socat,
            [
                "pty,raw,echo=0,link=\(first.path)", "pty,raw,echo=0,link=\(second.path)",
            ], errorFile: log)
        try wait(
            for: "socat's ptys",
            watching: [first.deletingLastPathComponent(), second.deletingLastPathComponent()]
        ) {
            FileManager.default.fileExists(atPath: first.path)
                && FileManager.default.fileExists(atPath: second.path)
        }
        return process
    }
}

/// A tmux session of 80×24 running one command, read with capture-pane. Everything the
/// command writes is also copied to a file (pipe-pane), so waits block until it writes.
final class TmuxPane {
    let name: String
    private let tmux: String
    /// The copy of the command's output: it changes whenever the screen may have.
    private let output: URL

    init(_ command: String) throws {
        tmux = try ConsoleTestTools.tool("tmux")
        name = "pinhole-test-\(UUID().uuidString.prefix(8))"
        output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(name).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        // The session starts with a shell waiting for a key of tmux's own, so that pipe-pane
        // is in place before the command writes anything.
        try ConsoleTestTools.run(
            tmux,
            [
                "new-session", "-d", "-s", name, "-x", "80", "-y", "24",
                "tmux wait-for \(name)-piped; exec env TERM=xterm " + command,
            ], capture: false)
        try ConsoleTestTools.run(tmux, ["pipe-pane", "-t", name, "cat >> '\(output.path)'"], capture: false)
        try ConsoleTestTools.run(tmux, ["wait-for", "-S", "\(name)-piped"], capture: false)
    }

    /// The pane's text, one line per row.
    var screen: String { (try? ConsoleTestTools.run(tmux, ["capture-pane", "-p", "-t", name])) ?? "" }

    /// The pane's text with its attributes (reverse video shows the menu's selection).
    private var styledScreen: String {
        (try? ConsoleTestTools.run(tmux, ["capture-pane", "-p", "-e", "-t", name])) ?? ""
    }

    /// Sends tmux key names ("Enter", "Down", "C-l") or literal text with `literal`.
    func send(_ keys: String..., literal: Bool = false) throws {
        try ConsoleTestTools.run(
            tmux, ["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys, capture: false)
    }

    /// Waits until the screen contains `text`.
    func waitFor(_ text: String, timeout: TimeInterval = 60) throws {
        try ConsoleTestTools.wait(
            for: "'\(text)' on the screen:\n\(screen)", watching: [output], timeout: timeout
        ) {
            screen.contains(text)
        }
    }

    /// Sends a key that moves the menu's selection (Up, Down) and waits until the selected
    /// item is another one: the next key then comes after the program has taken this one, as
    /// a person's would. Not any change of the screen: the status line redraws on its own, and
    /// a key sent on such a change could reach the program within the noise gate's 20 ms of
    /// the one before, which it rightly takes for line noise (seen under load).
    func press(_ key: String) throws {
        let before = selectedItem
        try send(key)
        try ConsoleTestTools.wait(
            for: "the selection to move from \(before ?? "nothing") after \(key):\n\(screen)",
            watching: [output]
        ) {
            let now = selectedItem
            return now != nil && now != before
        }
    }

    /// The text of the menu item drawn in reverse video (the selection), nil when none is.
    var selectedItem: String? {
        for line in styledScreen.split(separator: "\n") {
            guard line.contains(/\x1B\[(?:[0-9]+;)*7(?:;[0-9]+)*m/) else { continue }
            let text = line.replacing(/\x1B\[[0-9;]*[A-Za-z]/, with: "")
            if text.contains(/^\s*[0-9]+\s{2}/) { return text.trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    var isAlive: Bool {
        (try? ConsoleTestTools.run(tmux, ["list-panes", "-t", name, "-F", "#{pane_dead}"]))?.contains("0")
            ?? false
    }

    func close() {
        _ = try? ConsoleTestTools.run(tmux, ["kill-session", "-t", name], capture: false)
        try? FileManager.default.removeItem(at: output)
    }
}
