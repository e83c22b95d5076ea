// Tests of the board profiles: the shipped ones parse, mistakes name file, line and reason, `auto` picks by model.

import PinholeAppliance
import PinholeBoard
import PinholeCore
import XCTest
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The repository's top directory (this file is Tests/PinholeApplianceTests/…).
let repositoryRoot: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

final class BoardProfileTests: XCTestCase {
    func testTheBuiltInSimulatedProfileIsTheFileInBoardSim() throws {
        let file = try XCTUnwrap(FileSystem.readText(FilePath("\(repositoryRoot)/board/sim/board.toml")))
        XCTAssertEqual(
            BuiltInBoards.simulatedProfileText, String(file.dropLast(file.hasSuffix("\n") ? 1 : 0)),
            "board/sim/board.toml and BuiltInBoards.simulatedProfileText must stay identical")
    }

    func testEveryShippedProfileParsesAndNamesItsLines() throws {
        let catalog = BoardCatalog(searchPath: [FilePath("\(repositoryRoot)/board")])
        for name in ["pi5", "pi4", "zero2w", "sim", "vm"] {
            let profile = try catalog.load(file: FilePath("\(repositoryRoot)/board/\(name)/board.toml"))
            XCTAssertFalse(profile.buttons.isEmpty, name)
            for line in profile.lineNames {
                XCTAssertTrue(line.hasPrefix("GPIO") && Int(line.dropFirst(4)) != nil, "\(name): \(line)")
            }
            XCTAssertEqual(
                profile.buttons[.shutter]?.kernelDebounce, false, "\(name): shutter keeps first-edge stamps")
        }
        let pi5 = try catalog.load(file: FilePath("\(repositoryRoot)/board/pi5/board.toml"))
        XCTAssertEqual(pi5.gpioChip, "pinctrl-rp1")
        XCTAssertEqual(pi5.consoleDevice, "/dev/ttyAMA0")
        XCTAssertEqual(pi5.chords.first?.buttons, [.torch, .shutter])
        XCTAssertEqual(pi5.chords.first?.powerOff, true)
        XCTAssertEqual(pi5.cameras.map(\.match), ["imx708", "imx477"])
        XCTAssertEqual(pi5.cameras.first { $0.torch }?.match, "imx708")
        XCTAssertEqual(pi5.cameras.last?.mountRotation, 180)
        let pi4 = try catalog.load(file: FilePath("\(repositoryRoot)/board/pi4/board.toml"))
        XCTAssertEqual(pi4.gpioChip, "pinctrl-bcm2711")
        XCTAssertEqual(pi4.consoleDevice, "/dev/serial0")
        let zero = try catalog.load(file: FilePath("\(repositoryRoot)/board/zero2w/board.toml"))
        XCTAssertEqual(zero.gpioChip, "pinctrl-bcm2835")
        XCTAssertEqual(zero.cameras.first?.mountRotation, 180)
    }

    private func assertRejected(
        _ body: String, line: Int, reason: String, file: StaticString = #filePath,
        testLine: UInt = #line
    ) {
        let text = "[board]\nname = \"test\"\n" + body
        XCTAssertThrowsError(
            try BoardProfile.parse(text, file: "board/test/board.toml", name: "test"),
            file: file, line: testLine
        ) { error in
            guard let error = error as? ConfigurationError else {
                return XCTFail("not a ConfigurationError: \(error)", file: file, line: testLine)
            }
            XCTAssertEqual(error.file, "board/test/board.toml", file: file, line: testLine)
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: testLine)
            XCTAssertTrue(error.reason.contains(reason), "\(error)", file: file, line: testLine)
        }
    }

    func testMistakesAreRejectedWithFileLineAndReason() {
        let shutter = "[buttons.shutter]\nline = \"GPIO17\"\n"
        let torch = "[buttons.torch]\nline = \"GPIO22\"\n"
        assertRejected("colour = \"red\"\n", line: 3, reason: "unknown key 'colour' in [board]")
        assertRejected(shutter + "bias = \"sideways\"\n", line: 5, reason: "bias 'sideways' is not one of")
        assertRejected(
            "[buttons.shutter]\nline = \"17\"\n", line: 4, reason: "is a number: lines are found by name")
        assertRejected("[leds.status]\nline = \"\"\n", line: 4, reason: "the line name is empty")
        assertRejected("[buttons.trigger]\nline = \"GPIO4\"\n", line: 3, reason: "unknown button 'trigger'")
        assertRejected(
            shutter + "[leds.status]\nline = \"GPIO17\"\n", line: 5,
            reason: "line GPIO17 is used by both button shutter and output status")
        assertRejected(shutter + "hold_ms = 5\n", line: 5, reason: "'hold_ms' is 5, outside 10…60000")
        assertRejected(
            shutter + "[chords.shutdown]\nbuttons = [\"shutter\", \"switch\"]\n", line: 6,
            reason: "uses button switch, which has no [buttons.switch]")
        assertRejected(
            shutter + "[chords.shutdown]\nbuttons = [\"shutter\"]\n", line: 6,
            reason: "at least two different")
        assertRejected(
            shutter + torch + "[chords.reboot]\nbuttons = [\"shutter\", \"torch\"]\n", line: 7,
            reason: "unknown chord 'reboot'")
        assertRejected(
            shutter + torch + "[chords.shutdown]\nbuttons = \"shutter\"\n", line: 8,
            reason: "'buttons' must be an array of strings")
        assertRejected(
            "[buttons.tilt_a]\nline = \"GPIO6\"\n", line: 3, reason: "needs both tilt_a and tilt_b")
        assertRejected("[tilt]\na0_b0 = 0\n", line: 3, reason: "[tilt] needs the tilt switches")
        assertRejected(
            "[buttons.tilt_a]\nline = \"GPIO6\"\n[buttons.tilt_b]\nline = \"GPIO13\"\n[tilt]\na1_b0 = 45\n",
            line: 8, reason: "a1_b0 = 45 must be 0, 90, 180 or 270")
        assertRejected(
            "[[cameras]]\nmatch = \"imx708\"\nmount_rotation = 45\n", line: 5, reason: "mount_rotation 45")
        assertRejected(
            "[leds.status]\nactive_low = true\n", line: 3, reason: "missing 'line' in [leds.status]")
        XCTAssertThrowsError(
            try BoardProfile.parse("[buttons.shutter]\nline = \"GPIO17\"\n", file: "f.toml", name: "x")
        ) {
            XCTAssertTrue("\($0)".contains("missing 'board'"), "\($0)")
        }
    }

    func testOptionalKeysHaveTheirDefaults() throws {
        let profile = try BoardProfile.parse(
            "[board]\n[buttons.shutter]\nline = \"GPIO17\"\n[buttons.switch]\nline = \"GPIO27\"\nrepeat_ms = 0\n",
            file: "f.toml", name: "x")
        let shutter = try XCTUnwrap(profile.buttons[.shutter])
        XCTAssertEqual(shutter.inputConfig.debounce, .zero, "no kernel debounce on the shutter")
        XCTAssertEqual(shutter.holdTime, .milliseconds(800))
        XCTAssertEqual(shutter.repeatInterval, .milliseconds(250))
        XCTAssertEqual(profile.buttons[.switch]?.inputConfig.debounce, .milliseconds(10))
        XCTAssertNil(profile.buttons[.switch]?.repeatInterval)
        XCTAssertNil(profile.tilt)
        XCTAssertEqual(profile.chords, [])
    }
}

final class BoardAutoTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/pinhole-board-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("cannot make a temporary directory") }
        directory = String(cString: made)
    }

    override func tearDown() {
        for name in FileSystem.list(FilePath(directory)) { unlink("\(directory)/\(name)") }
        rmdir(directory)
    }

    /// Writes a fake /proc/device-tree/model (the kernel ends it with a NUL).
    private func modelFile(_ model: String) throws -> String {
        let path = "\(directory)/model"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw XCTSkip("cannot write \(path)") }
        let bytes = Array(model.utf8) + [0]
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    private func resolveAuto(_ model: String) throws -> (BoardProfile, note: String) {
        try BoardCatalog(
            searchPath: [FilePath("\(repositoryRoot)/board")], modelFile: try FilePath(modelFile(model))
        ).resolve(
            "auto")
    }

    func testAutoPicksTheProfileWhoseModelPrefixesTheDeviceTreeModel() throws {
        XCTAssertEqual(try resolveAuto("Raspberry Pi 5 Model B Rev 1.0").0.name, "pi5")
        XCTAssertEqual(try resolveAuto("Raspberry Pi 4 Model B Rev 1.4").0.name, "pi4")
        XCTAssertEqual(try resolveAuto("Raspberry Pi Zero 2 W Rev 1.0").0.name, "zero2w")
        let (profile, note) = try resolveAuto("Raspberry Pi 4 Model B Rev 1.4")
        XCTAssertTrue(note.contains("board/pi4/board.toml"), note)
        XCTAssertEqual(profile.model, "Raspberry Pi 4 Model B")
    }

    func testAutoFallsBackToTheSimulatedBoard() throws {
        let (profile, note) = try resolveAuto("Raspberry Pi 3 Model B Plus Rev 1.3")
        XCTAssertEqual(profile.name, "sim")
        XCTAssertTrue(note.contains("no profile matches 'Raspberry Pi 3 Model B Plus Rev 1.3'"), note)
        let missing = BoardCatalog(
            searchPath: [FilePath("\(repositoryRoot)/board")], modelFile: FilePath("\(directory)/absent"))
        XCTAssertEqual(try missing.resolve("auto").0.name, "sim")
    }
}
