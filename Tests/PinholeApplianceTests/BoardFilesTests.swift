// Tests of the files shipped for a board: device-tree overlays (compiled with dtc), the systemd unit, udev and polkit rules.

import Foundation
import PinholeAppliance
import PinholeBoard
import PinholeCore
import PinholeTestTools
import XCTest
import SystemPackage

/// Runs a tool and returns its status and output (fails the test when the tool is missing).
private func runTool(_ path: String, _ arguments: [String]) throws -> (
    status: Int32, output: String, error: String
) {
    let result = try ExternalTool.run(path, arguments)
    return (result.status, result.outputText, result.errorText)
}

final class BoardOverlayTests: XCTestCase {
    private let overlays = "\(repositoryRoot)/overlays"
    private var scratch = ""

    override func setUpWithError() throws {
        scratch =
            FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-dtbo-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: scratch) }

    /// Compiles an overlay with `dtc -@ -I dts -O dtb` and returns the .dtbo's path.
    private func compile(_ name: String) throws -> String {
        let output = "\(scratch)/\(name).dtbo"
        let run = try runTool(
            "/usr/bin/dtc", ["-@", "-I", "dts", "-O", "dtb", "-o", output, "\(overlays)/\(name).dts"])
        XCTAssertEqual(run.status, 0, "\(name).dts: \(run.error)")
        XCTAssertEqual(run.error, "", "\(name).dts compiles without warnings")
        return output
    }

    private func get(_ dtbo: String, _ node: String, _ property: String, type: String) throws -> [String] {
        let run = try runTool("/usr/bin/fdtget", ["-t", type, dtbo, node, property])
        XCTAssertEqual(run.status, 0, "\(node) \(property): \(run.error)")
        return run.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    private func properties(_ dtbo: String, _ node: String) throws -> [String] {
        try runTool("/usr/bin/fdtget", ["-p", dtbo, node]).output.split(separator: "\n").map(String.init)
    }

    func testEveryOverlayCompilesWithDtc() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: overlays).filter {
            $0.hasSuffix(".dts")
        }.sorted()
        XCTAssertEqual(
            names,
            ["pinhole-buttons-pi5.dts", "pinhole-buttons.dts", "pinhole-uart-pi5.dts", "pinhole-uart.dts"])
        for name in names { _ = try compile(String(name.dropLast(4))) }
    }

    /// BCM numbers of the profile's button and output lines ("GPIO17" → 17).
    private func numbers(_ profile: BoardProfile) -> (buttons: Set<Int>, outputs: Set<Int>) {
        (
            Set(profile.buttons.values.compactMap { Int($0.line.dropFirst(4)) }),
            Set(profile.outputs.values.compactMap { Int($0.line.dropFirst(4)) })
        )
    }

    private func profile(_ name: String) throws -> BoardProfile {
        try BoardCatalog(searchPath: []).load(file: FilePath("\(repositoryRoot)/board/\(name)/board.toml"))
    }

    func testThePi4AndZeroOverlayPullsUpEveryButtonAndDownEveryOutputOfTheirProfiles() throws {
        let dtbo = try compile("pinhole-buttons")
        let node = "/fragment@0/__overlay__"
        let buttons = try get(dtbo, "\(node)/pinhole_buttons", "brcm,pins", type: "u").compactMap(Int.init)
        let outputs = try get(dtbo, "\(node)/pinhole_outputs", "brcm,pins", type: "u").compactMap(Int.init)
        XCTAssertEqual(try get(dtbo, "\(node)/pinhole_buttons", "brcm,pull", type: "u"), ["2"], "pull-up")
        XCTAssertEqual(try get(dtbo, "\(node)/pinhole_outputs", "brcm,pull", type: "u"), ["1"], "pull-down")
        XCTAssertEqual(try get(dtbo, "\(node)/pinhole_buttons", "brcm,function", type: "u"), ["0"], "input")
        for board in ["pi4", "zero2w"] {
            let wired = numbers(try profile(board))
            XCTAssertEqual(Set(buttons), wired.buttons, board)
            XCTAssertEqual(Set(outputs), wired.outputs, board)
        }
        XCTAssertEqual(try get(dtbo, "/fragment@0", "target", type: "x").count, 1)
        XCTAssertTrue(try properties(dtbo, "/__fixups__").contains("gpio"), "targets the base tree's &gpio")
    }

    func testThePi5OverlayPullsUpEveryButtonAndDownEveryOutputOfItsProfile() throws {
        let dtbo = try compile("pinhole-buttons-pi5")
        let node = "/fragment@0/__overlay__"
        let pins = { (group: String) in
            try self.get(dtbo, "\(node)/\(group)", "pins", type: "s").compactMap { Int($0.dropFirst(4)) }
        }
        let wired = numbers(try profile("pi5"))
        XCTAssertEqual(Set(try pins("pinhole_buttons")), wired.buttons)
        XCTAssertEqual(Set(try pins("pinhole_outputs")), wired.outputs)
        XCTAssertTrue(try properties(dtbo, "\(node)/pinhole_buttons").contains("bias-pull-up"))
        XCTAssertTrue(try properties(dtbo, "\(node)/pinhole_outputs").contains("bias-pull-down"))
        XCTAssertTrue(try properties(dtbo, "/__fixups__").contains("rp1_gpio"), "targets RP1's GPIO block")
    }

    func testTheUARTOverlaysPutUART0OnGPIO14And15() throws {
        let pi4 = try compile("pinhole-uart")
        XCTAssertEqual(
            try get(pi4, "/fragment@0/__overlay__/pinhole_uart0_pins", "brcm,pins", type: "u"), ["14", "15"])
        XCTAssertEqual(
            try get(pi4, "/fragment@0/__overlay__/pinhole_uart0_pins", "brcm,function", type: "u"), ["4"],
            "alt0")
        XCTAssertEqual(try get(pi4, "/fragment@1/__overlay__", "status", type: "s"), ["okay"])
        XCTAssertEqual(
            try get(pi4, "/fragment@4/__overlay__", "serial0", type: "s"), ["/soc/serial@7e201000"])
        let fixups = try properties(pi4, "/__fixups__")
        for label in ["gpio", "uart0", "bt", "uart1"] { XCTAssertTrue(fixups.contains(label), label) }

        let pi5 = try compile("pinhole-uart-pi5")
        let pins = "/fragment@0/__overlay__/pinhole_uart0_pins"
        XCTAssertEqual(try get(pi5, "\(pins)/pinhole_txd0", "pins", type: "s"), ["gpio14"])
        XCTAssertEqual(try get(pi5, "\(pins)/pinhole_rxd0", "pins", type: "s"), ["gpio15"])
        XCTAssertEqual(try get(pi5, "\(pins)/pinhole_rxd0", "function", type: "s"), ["uart0"])
        XCTAssertTrue(try properties(pi5, "/__fixups__").contains("uart0"))
        XCTAssertEqual(try profile("pi5").consoleDevice, "/dev/ttyAMA0")
    }
}

final class BoardServiceFilesTests: XCTestCase {
    private let unitPath = "\(repositoryRoot)/board/pinhole.service"

    private func unitKeys() throws -> [String: [String]] {
        let text = try XCTUnwrap(FileSystem.readText(FilePath(unitPath)))
        var keys: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("[") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            keys[String(line[..<equals]), default: []].append(String(line[line.index(after: equals)...]))
        }
        return keys
    }

    func testTheUnitRunsAsADedicatedUserWithTheHardeningOptions() throws {
        let keys = try unitKeys()
        let expected: [String: String] = [
            "User": "pinhole", "Group": "pinhole", "SupplementaryGroups": "gpio video dialout",
            "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
            "CapabilityBoundingSet": "", "AmbientCapabilities": "", "ProtectKernelTunables": "yes",
            "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes", "ProtectControlGroups": "yes",
            "ProtectClock": "yes", "ProtectHostname": "yes", "DevicePolicy": "closed",
            "RestrictAddressFamilies": "AF_UNIX AF_NETLINK", "IPAddressDeny": "any",
            "RestrictNamespaces": "yes",
            "RestrictRealtime": "yes", "RestrictSUIDSGID": "yes", "LockPersonality": "yes",
            "MemoryDenyWriteExecute": "yes", "SystemCallArchitectures": "native", "KillSignal": "SIGTERM",
            "Restart": "on-failure", "StateDirectory": "pinhole",
            "Type": "notify", "NotifyAccess": "main", "WatchdogSec": "20",
        ]
        for (key, value) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(keys[key]?.first, value, key)
        }
        XCTAssertEqual(
            Set(keys["DeviceAllow"] ?? []),
            [
                "char-gpiochip rw", "char-video4linux rw", "char-media rw", "char-dma_heap rw",
                "char-ttyAMA rw",
                "char-ttyS rw", "char-ttyUSB rw", "char-ttyACM rw",
            ])
        // The board comes from /etc/pinhole/pinhole.toml ([board] name, default auto) for both.
        XCTAssertEqual(keys["ExecStart"], ["/usr/bin/pinhole run --console auto"])
        XCTAssertEqual(
            keys["ExecStopPost"], ["-/usr/bin/pinhole board off"],
            "outputs off after a crash")
        XCTAssertNil(keys["ProcSubset"], "/proc/device-tree must stay visible for --board auto")
        XCTAssertEqual(
            keys["Environment"], ["PINHOLE_LIBRARY=/var/lib/pinhole/library", "SWIFT_BACKTRACE=enable=no"])
    }

    /// The unit with its binary path pointed at one that exists here, in a scratch directory.
    private func verifiableCopy() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = try XCTUnwrap(FileSystem.readText(FilePath(unitPath))).replacingOccurrences(
            of: "/usr/bin/pinhole",
            with: "/bin/true"
        )
        // pinhole(1) is installed by the package, not on this machine.
        .replacingOccurrences(of: "man:pinhole(1) ", with: "")
        let copy = directory.appendingPathComponent("pinhole.service").path
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        return copy
    }

    func testSystemdAnalyzeVerifiesTheUnitWithoutComplaint() throws {
        let copy = try verifiableCopy()
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let run = try runTool("/usr/bin/systemd-analyze", ["verify", copy])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.error, "", "no unknown keys or bad values")

        let security = try runTool(
            "/usr/bin/systemd-analyze", ["security", "--offline=yes", "--no-pager", copy])
        guard security.status == 0 else {
            throw XCTSkip("systemd-analyze security --offline is not supported here")
        }
        let last = security.output.split(separator: "\n").last.map(String.init) ?? ""
        let score = last.split(separator: " ").compactMap { Double($0) }.first
        XCTAssertLessThanOrEqual(try XCTUnwrap(score, last), 2.0, "exposure level: \(last)")
    }

    func testTheUdevRulesAreWellFormedAndGiveTheServiceItsDevices() throws {
        let text = try XCTUnwrap(FileSystem.readText(FilePath("\(repositoryRoot)/board/99-pinhole.rules")))
        let matchKeys: Set<String> = ["SUBSYSTEM", "KERNEL", "ACTION", "ATTR", "ATTRS", "DRIVERS", "ENV"]
        let assignKeys: Set<String> = ["GROUP", "MODE", "OWNER", "SYMLINK", "TAG", "RUN"]
        var rules: [[String: String]] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            var rule: [String: String] = [:]
            var matches = 0
            for pair in trimmed.components(separatedBy: ", ") {
                let parts = pair.components(separatedBy: "\"")
                XCTAssertEqual(parts.count, 3, "line \(index + 1): \(pair) is not KEY op \"value\"")
                guard parts.count == 3, parts[2].isEmpty else { continue }
                let head = parts[0]
                let op = ["==", "!=", "+=", ":=", "="].first { head.hasSuffix($0) } ?? ""
                let key = String(head.dropLast(op.count))
                if op == "==" || op == "!=" {
                    XCTAssertTrue(matchKeys.contains(key), "line \(index + 1): unknown match key \(key)")
                    matches += 1
                } else {
                    XCTAssertTrue(
                        assignKeys.contains(key), "line \(index + 1): unknown assignment key '\(key)' (\(op))"
                    )
                }
                rule[key] = parts[1]
            }
            XCTAssertGreaterThan(matches, 0, "line \(index + 1) matches nothing")
            rules.append(rule)
        }
        let groups =
            try unitKeys()["SupplementaryGroups"]?.first?.split(separator: " ").map(String.init) ?? []
        for rule in rules {
            XCTAssertTrue(groups.contains(rule["GROUP"] ?? ""), "\(rule): a group the service has")
        }
        XCTAssertTrue(
            rules.contains {
                $0["SUBSYSTEM"] == "gpio" && $0["KERNEL"] == "gpiochip[0-9]*" && $0["GROUP"] == "gpio"
            })
        for subsystem in ["video4linux", "media", "dma_heap"] {
            XCTAssertTrue(
                rules.contains { $0["SUBSYSTEM"] == subsystem && $0["GROUP"] == "video" }, subsystem)
        }
    }

    func testThePolkitRuleParsesAndNamesTheServiceUser() throws {
        let path = "\(repositoryRoot)/board/50-pinhole-poweroff.rules"
        let text = try XCTUnwrap(FileSystem.readText(FilePath(path)))
        let user = try XCTUnwrap(try unitKeys()["User"]?.first)
        XCTAssertTrue(text.contains("subject.user == \"\(user)\""))
        XCTAssertTrue(text.contains("org.freedesktop.login1.power-off"))
        let node = try ExternalTool.locate("node")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-polkit-\(UUID().uuidString).js"
        ).path
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        let run = try runTool(node, ["--check", copy])
        XCTAssertEqual(run.status, 0, run.error)
    }
}
