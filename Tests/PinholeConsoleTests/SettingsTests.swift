// Settings saved to the configuration file: text editing that keeps comments, validation
// before writing, the line-mode commands and the Settings page.

import Foundation
import PinholeAppliance
import PinholeConfiguration
import PinholeConsole
import XCTest
import SystemPackage

final class SettingsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    private let sample = """
        # Pinhole on the kitchen window
        [capture]
        quality = 93  # high

        [console]
        device = "/dev/ttyAMA0"

        """

    func testSettingReplacesAddsAndRemovesKeysAndKeepsComments() {
        let replaced = Configuration.setting("capture", "quality", to: "80", in: sample)
        XCTAssertTrue(replaced.contains("[capture]\nquality = 80\n"), replaced)
        XCTAssertTrue(replaced.hasPrefix("# Pinhole on the kitchen window\n"))
        let added = Configuration.setting("console", "colour", to: "true", in: sample)
        XCTAssertTrue(added.contains("device = \"/dev/ttyAMA0\"\ncolour = true\n"), added)
        let section = Configuration.setting(
            "library", "path", to: Configuration.literal("/media/sd \"photos\""), in: sample)
        XCTAssertTrue(section.hasSuffix("\n[library]\npath = \"/media/sd \\\"photos\\\"\"\n"), section)
        let removed = Configuration.setting("console", "device", to: nil, in: sample)
        XCTAssertFalse(removed.contains("ttyAMA0"), removed)
        XCTAssertEqual(Configuration.setting("a", "b", to: "1", in: ""), "[a]\nb = 1\n")
    }

    func testSaveValidatesTheWholeFileAndWritesNothingOnError() throws {
        let file = directory.appendingPathComponent("pinhole.toml").path
        try sample.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(
            try Configuration.save("console", "idle_lock", literal: "5", file: FilePath(file))
        ) {
            error in
            XCTAssertTrue("\(error)".contains("pinhole.toml"), "\(error)")
            XCTAssertTrue("\(error)".contains("idle_lock"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), sample)
        let saved = try Configuration.save("console", "idle_lock", literal: "600", file: FilePath(file))
        XCTAssertEqual(saved.consoleIdleLockSeconds, 600)
        XCTAssertEqual(try Configuration.load(file: FilePath(file)).consoleIdleLockSeconds, 600)
    }

    func testASaveThatCannotBeWrittenSaysWhyAndWhatToDo() {
        let file = directory.appendingPathComponent("missing/pinhole.toml").path
        XCTAssertThrowsError(
            try Configuration.save("console", "idle_lock", literal: "600", file: FilePath(file))
        ) {
            XCTAssertEqual(
                "\($0)", "\(file):0: cannot create a file next to it (No such file or directory)")
        }
        // The name is a directory: it cannot be read, so nothing is written (a save never
        // proceeds from a failed read).
        let occupied = directory.appendingPathComponent("occupied").path
        XCTAssertNoThrow(
            try FileManager.default.createDirectory(
                atPath: occupied + "/inside", withIntermediateDirectories: true))
        XCTAssertThrowsError(
            try Configuration.save("console", "idle_lock", literal: "600", file: FilePath(occupied))
        ) {
            XCTAssertTrue(
                "\($0)".hasPrefix("\(occupied):0: cannot read the configuration file (Is a directory)"),
                "\($0)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: occupied), ["inside"])
    }

    /// Issue 22: any read error of the default file (EACCES after a `chmod 600`, EIO) started
    /// with the defaults: no PIN, and the next `set` rewrote the file from nothing. Only a
    /// missing file means no configuration; a file that is there and cannot be read stops the
    /// start with a clear message, and a save never proceeds from a failed read. (The tests run
    /// as root, which reads any file: a directory in its place gives a real read error, EISDIR.)
    func testOnlyAMissingDefaultFileMeansNoConfiguration() throws {
        let missing = directory.appendingPathComponent("absent.toml").path
        XCTAssertNil(try Configuration.load(file: nil, defaultFile: FilePath(missing)).consolePINHash)
        let unreadable = directory.appendingPathComponent("unreadable.toml").path
        try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: false)
        XCTAssertThrowsError(try Configuration.load(file: nil, defaultFile: FilePath(unreadable))) { error in
            XCTAssertTrue(
                "\(error)".hasPrefix(
                    "\(unreadable):0: cannot read the configuration file (Is a directory): Pinhole will not start with defaults"
                ), "\(error)")
        }
    }

    func testLineModeSettingsAndPINChangesAreSavedAndApplied() throws {
        let file = directory.appendingPathComponent("pinhole.toml").path
        try sample.write(toFile: file, atomically: true, encoding: .utf8)
        let store = ConsoleSettings(
            configuration: try Configuration.load(file: FilePath(file)), file: FilePath(file))
        var applied: [Int] = []
        store.onChange = { applied.append($0.consoleIdleLockSeconds) }
        var pinChanges = 0
        let harness = try ConsoleHarness(
            quietFocus: true,
            configure: { commands in
                commands.settingsStore = store
                commands.pinHashing = testHashing
                commands.onPINChange = { pinChanges += 1 }
            })
        let ask = { (line: String) -> String in
            harness.commands.receive(line: line)
            harness.loop.advance(by: .milliseconds(100))
            return harness.lines.take().last ?? "(no answer)"
        }
        XCTAssertEqual(
            ask("set capture.quality 80"),
            "ok capture.quality 80 saved to \(file) (takes effect at the next start)")
        XCTAssertEqual(ask("set console.idle_lock 120"), "ok console.idle_lock 120 saved to \(file)")
        XCTAssertEqual(applied, [300, 120], "each change is applied; the idle lock took the new value")
        XCTAssertEqual(ask("set capture.quality 101"), "error 64: '101' is not a whole number from 1 to 100")
        XCTAssertTrue(ask("set shutter.sound on").hasPrefix("error 64: no setting 'shutter.sound'"))
        XCTAssertEqual(ask("pin set 12"), "error 64: a PIN has 4 to 32 characters (this one has 2)")
        XCTAssertEqual(ask("pin set 5791"), "ok PIN changed and saved to \(file)")
        XCTAssertEqual(pinChanges, 1, "the web server hears of it (it ends its sessions)")
        let saved = try Configuration.load(file: FilePath(file))
        XCTAssertEqual(saved.jpegQuality, 80)
        XCTAssertEqual(saved.consolePINHash, "$test$1975$not-a-real-hash")
        XCTAssertTrue(
            try String(contentsOfFile: file, encoding: .utf8).hasPrefix("# Pinhole on the kitchen window"))
        XCTAssertTrue(ask("settings").contains("console.pin=set"), "still unlocked by the one who set it")
        XCTAssertEqual(ask("lock"), "ok locked")
        XCTAssertEqual(ask("set capture.quality 70"), "error 77: locked: unlock with the PIN first")
        XCTAssertTrue(ask("unlock 5791").hasPrefix("ok unlocked"))
        XCTAssertEqual(pinChanges, 1, "a refused change is no change")
        XCTAssertTrue(ask("pin clear").hasPrefix("ok PIN removed"))
        XCTAssertEqual(pinChanges, 2)
        XCTAssertNil(try Configuration.load(file: FilePath(file)).consolePINHash)
    }

    func testSettingsPageTogglesAndPromptsSaveTheFile() throws {
        let file = directory.appendingPathComponent("pinhole.toml").path
        let store = ConsoleSettings(configuration: Configuration(), file: FilePath(file))
        let harness = try ConsoleHarness(quietFocus: true, configure: { $0.settingsStore = store })
        harness.type("7")  // Settings
        XCTAssertTrue(harness.terminal.line(0).contains("Main menu > Settings"), harness.terminal.line(0))
        XCTAssertTrue(
            harness.terminal.text.contains("Saved to                    /tmp/pinhole-settings-"),
            harness.terminal.text)
        harness.type("2")  // Colour: auto -> on
        XCTAssertEqual(harness.terminal.line(23), "Type save to confirm:")
        harness.type("save\r", settle: .seconds(1))
        XCTAssertTrue(
            harness.terminal.line(22).hasPrefix("ok console.colour on saved"), harness.terminal.line(22))
        XCTAssertEqual(try Configuration.load(file: FilePath(file)).consoleColour, true)
        harness.type("1")  // JPEG quality prompt, pre-filled
        XCTAssertEqual(harness.terminal.line(23), "JPEG quality (1-100): 93")
        harness.type("\u{7F}\u{7F}75\r")
        XCTAssertEqual(
            try Configuration.load(file: FilePath(file)).jpegQuality, 93, "not saved before the word is typed"
        )
        harness.type("save\r", settle: .seconds(1))
        XCTAssertEqual(try Configuration.load(file: FilePath(file)).jpegQuality, 75)
    }
}
