// End to end: seeded line noise on a serial console (a real pty pair at 115200) changes
// nothing, in the menu and in line mode; after quiet and Enter twice the console is back.

import Foundation
import XCTest

final class ConsoleNoiseTests: XCTestCase {
    private var cleanups: [() -> Void] = []
    /// Seeds per mode and bytes per seed: 2 × 8 × 64 KiB = 1 MiB of noise in all.
    private static let seeds: [UInt64] = Array(1...8)
    private static let bytesPerSeed = 64 * 1024

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
        cleanups = []
    }

    /// The appliance on a pty at 115200 with `quiet_s = 1`, and the far end of the line.
    private func start(mode: String) throws -> (BackgroundProcess, RawTTY, URL, URL) {
        let dir = try PinholeProcess.temporaryDirectory()
        cleanups.append { try? FileManager.default.removeItem(at: dir) }
        let appliance = dir.appendingPathComponent("ttyAppliance")
        let terminal = dir.appendingPathComponent("ttyTerminal")
        let socat = try ConsoleTestTools.linkedPtys(
            appliance, terminal, log: dir.appendingPathComponent("socat.log"))
        cleanups.append { socat.stop() }
        let config = dir.appendingPathComponent("pinhole.toml")
        try "# field camera\n[console]\nquiet_s = 1   # seconds\n".write(
            to: config, atomically: true, encoding: .utf8)
        let library = dir.appendingPathComponent("library")
        let process = try BackgroundProcess(
            try PinholeProcess.binary().path,
            [
                "run", "--board", "sim", "--library", library.path, "--config", config.path,
                "--console", appliance.path, "--baud", "115200", "--console-mode", mode,
            ], errorFile: dir.appendingPathComponent("pinhole.log"))
        cleanups.append { process.stop() }
        return (process, try RawTTY(path: terminal.path), config, library)
    }

    /// Noise for one seed: half the seeds uniform bytes, half biased to what looks like keys
    /// (digits, y, Enter, escape sequences), since noise often starts with a key-like byte.
    private static func noise(seed: UInt64) -> [UInt8] {
        var generator = NoiseGenerator(seed: seed)
        let keyLike = Array("0123456789yYq\r\n\r\u{1B}[AB~ ".utf8)
        return (0..<bytesPerSeed).map { _ in
            let value = generator.next()
            if seed % 2 == 0, value % 4 != 0 { return keyLike[Int((value >> 8) % UInt64(keyLike.count))] }
            return UInt8(truncatingIfNeeded: value >> 16)
        }
    }

    private static func photos(_ library: URL) throws -> String {
        let all = try PinholeProcess.run(["library", "--library", library.path, "list", "--json"])
        let deleted = try PinholeProcess.run([
            "library", "--library", library.path, "list", "--deleted", "--json",
        ])
        return all.output + deleted.output
    }

    /// Sends every seed's noise in chunks of varying size, reading what comes back.
    private func sendNoise(_ end: inout RawTTY) throws {
        for seed in Self.seeds {
            let bytes = Self.noise(seed: seed)
            var offset = 0
            var size = 65
            while offset < bytes.count {
                let next = min(bytes.count, offset + size)
                try end.write(bytes: Array(bytes[offset..<next]))
                end.drain()
                offset = next
                // 65 to 4095 bytes: each write longer than any key, so that a pause of the
                // test process between writes cannot leave one key-like byte on its own.
                size = 65 + size * 7 % 4031
            }
        }
    }

    /// The bytes of every noisy spell logged so far.
    private static func loggedNoise(_ log: String) -> Int {
        log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "console noise for ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            return words.count > 2 ? Int(words[2]) : nil
        }.reduce(0, +)
    }

    /// Waits until every byte of noise has been logged as ignored (the line has then been
    /// silent for the quiet period), then presses Enter, waits for the console to ask for the
    /// second (it does once that may come: the protocol is timed on purpose) and presses it.
    private func wake(_ process: BackgroundProcess, _ end: inout RawTTY) throws {
        let total = Self.seeds.count * Self.bytesPerSeed
        try ConsoleTestTools.wait(
            for: "all noise logged as ignored:\n\(process.errors.suffix(2000))", watching: [process.errorFile]
        ) {
            Self.loggedNoise(process.errors) >= total
        }
        XCTAssertEqual(Self.loggedNoise(process.errors), total, "every byte of noise was ignored")
        end.drain()
        try end.write("\r")
        try end.ask("", untilScreenShows: "Enter once more")
        try end.write("\r")
    }

    /// A person's key, sent after the screen showed the last key's effect (so the menu has
    /// taken that one: people do not type two keys within a few milliseconds, and the menu
    /// takes keys that close for noise); returns once the screen shows this key's effect.
    private func press(_ end: inout RawTTY, _ key: String, until screen: String) throws {
        try end.write(key)
        try end.ask("", untilScreenShows: screen)
    }

    func testSeededNoiseChangesNothingInTheMenuAndEnterTwiceBringsItBack() throws {
        var (process, end, config, library) = try start(mode: "menu")
        defer { end.close() }
        // The menu draws its first screen at start: wait for it without typing. Redrawing with
        // Ctrl-L once a second until it came queued several keys while a loaded appliance was
        // still starting; read at once they are one burst, line noise (a quiet wait began and
        // the next key, "1", was ignored: "timed out waiting for '> Capture'" at load 16).
        try end.ask("", untilScreenShows: " Pinhole  Main menu")
        try press(&end, "1", until: "> Capture")  // the screen sends what changed
        try press(&end, "\r", until: "ok saved ")
        let configBytes = try Data(contentsOf: config)
        let photosBefore = try Self.photos(library)
        XCTAssertTrue(photosBefore.contains("\"id\""), photosBefore)

        try sendNoise(&end)
        XCTAssertTrue(process.process.isRunning, process.errors)
        try wake(process, &end)
        // The screen sends only the cells that changed: look for the notice's end.
        try end.ask("", untilScreenShows: "bytes of line noise were ignored (see log)")
        try press(&end, "\u{0C}", until: "Main menu > Capture")  // still where it was
        try press(&end, "\u{1B}", until: "Camera")  // keys act again: Esc, back to the main menu

        XCTAssertTrue(process.process.isRunning, process.errors)
        XCTAssertEqual(try Data(contentsOf: config), configBytes, "the configuration file is untouched")
        XCTAssertEqual(try Self.photos(library), photosBefore, "the library has the same photos")
        XCTAssertFalse(process.errors.contains("PIN"), process.errors)
        XCTAssertTrue(process.errors.contains("console noise for"), process.errors)
    }

    func testSeededNoiseChangesNothingInLineModeAndEnterTwiceWakesIt() throws {
        var (process, end, config, library) = try start(mode: "line")
        defer { end.close() }
        XCTAssertTrue(try end.ask("status\r", until: "ok camera").hasPrefix("ok camera"))
        try end.write("capture\r")
        XCTAssertTrue(try end.readLine(containing: "ok saved").hasPrefix("ok saved"))
        let configBytes = try Data(contentsOf: config)
        let photosBefore = try Self.photos(library)

        try sendNoise(&end)
        XCTAssertTrue(process.process.isRunning, process.errors)
        try wake(process, &end)
        XCTAssertTrue(try end.readLine(containing: "listening again").hasPrefix("event listening again"))
        let status = try end.ask("status\r", until: "ok camera")
        XCTAssertTrue(status.contains("photos 1"), status)
        XCTAssertTrue(status.contains("access open (no PIN set"), status)

        XCTAssertTrue(process.process.isRunning, process.errors)
        XCTAssertEqual(try Data(contentsOf: config), configBytes, "the configuration file is untouched")
        XCTAssertEqual(try Self.photos(library), photosBefore, "the library has the same photos")
    }
}

/// SplitMix64: the same noise for a seed on every run.
private struct NoiseGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
