// Every command of the catalog against its access rule: a table, one row per help example.

import PinholeAppliance
import PinholeConsole
import XCTest

final class CommandAccessTests: XCTestCase {
    /// Who may run each help example: one rule by effect (issue 22; docs/CONSOLE.md, access
    /// levels). The PIN guards whatever reads or changes the library (`library`, `album
    /// current`, a timelapse, which files photos and resumes after a power cut), whatever is
    /// saved and restored at start (camera settings, `set`, `pin`), and stopping the appliance
    /// (`shutdown`). Open: taking photos, looking (status, lists, help), what lasts only while
    /// the camera runs (torch, AE/AWB locks, AF point and scan, the camera chosen), the
    /// simulated board, and `unlock`/`lock`. A new command adds its examples here (the test
    /// below fails until it does), and a change of rule is a change of this table.
    static let expected: [String: CommandAccess] = [
        "capture": .open, "capture --timer 10": .open, "capture --burst 3": .open,
        "capture --live": .open,
        "camera list": .open, "camera switch": .open, "camera select imx477": .open,
        "camera size 2028x1520": .pin, "torch on": .open, "torch off": .open,
        "timelapse start --every 10s --count 100": .pin,
        "timelapse start --every 5m --from 07:00 --to 19:00": .pin,
        "timelapse start --every 1h --album Building --lock": .pin, "timelapse stop": .pin,
        "timelapse status": .open,
        // Recording is capturing: open, as the shutter is.
        "record start": .open, "record start --max 30": .open, "record start --pre 3": .open,
        "record stop": .open, "record status": .open,
        "lens 2": .pin, "af mode auto": .pin, "af continuous": .pin, "af point 0.5 0.5": .open,
        "af trigger": .open, "af range macro": .pin, "af speed fast": .pin, "metering spot": .pin,
        "awb auto": .pin, "awb daylight": .pin, "awb lock": .open, "album current Trip": .pin,
        "album current off": .pin, "ae lock": .open, "ae point 0.25 0.5": .pin, "ae point off": .pin,
        "zoom 2": .pin, "zoom 1": .pin, "flash auto": .pin, "exposure auto": .pin,
        "exposure manual 10000 2": .pin, "ev -1": .pin, "ev 0.5": .pin,
        "status": .open, "library help": .pin, "gpio status": .open, "led test status": .open, "log": .open,
        "shutdown": .pin, "shutdown --poweroff": .pin, "menu": .open, "settings": .pin,
        "set capture.quality 90": .pin, "help": .open, "help --json": .open, "quit": .open,
        "sim press shutter": .open, "sim press half_press --hold 500 --bounce 3": .open,
        "sim press trigger": .open, "sim press trigger pir": .open, "sim hold shutter": .open,
        "sim hold mode": .open,
        "sim release shutter --bounce 2": .open, "sim tilt 90": .open, "sim scene lux 20": .open,
        "sim scene change": .open, "sim fault camera-timeout": .open, "sim fault camera-dead": .open,
        "sim fault camera-alive": .open, "sim wait 100": .open,
        "pin set 2468": .pin, "pin clear": .pin, "unlock 2468": .open, "lock": .open,
    ]

    /// Every help example of the catalog, in help order.
    private var examples: [String] {
        CommandCatalog.definitions.flatMap { $0.forms.flatMap(\.examples) }
    }

    func testEveryCommandOfTheCatalogHasTheRuleOfTheTable() throws {
        for example in examples {
            guard let rule = Self.expected[example] else {
                XCTFail("'\(example)' has no row in CommandAccessTests.expected: decide who may run it")
                continue
            }
            let command = try XCTUnwrap(CommandCatalog.parse(line: example)).command
            XCTAssertEqual(command.access, rule, example)
            XCTAssertEqual(command.needsPIN, rule == .pin, example)
        }
        XCTAssertEqual(Set(Self.expected.keys), Set(examples), "every row is a help example")
        print("access: \(examples.count) commands of the catalog checked against the rule")
    }

    func testALockedConsoleRefusesEveryCommandThatNeedsThePINBeforeRunningIt() throws {
        let harness = try ConsoleHarness(
            quietFocus: true, library: { _ in "ok ran" },
            configure: { commands in
                commands.access = AccessControl(pinHash: "$test$4321$not-a-real-hash")
                commands.pinHashing = testHashing
            })
        let pinOnly = examples.filter { Self.expected[$0] == .pin }
        XCTAssertGreaterThanOrEqual(pinOnly.count, 5)
        for example in pinOnly {
            harness.commands.receive(line: example)
            harness.loop.advance(by: .seconds(1))
            harness.loop.finishLongWork()
            XCTAssertEqual(
                harness.lines.take().last, "error 77: locked: unlock with the PIN first", example)
        }
    }

    /// What only the console's state decides: `quit` on a serial device stops the service
    /// (the PIN, and the answer says so); a capture from a locked console when storage is low
    /// and `when_full = recycle` would remove the owner's oldest photos (refused).
    func testQuitOnASerialConsoleAndRecyclingCapturesNeedThePIN() throws {
        let harness = try ConsoleHarness(
            quietFocus: true,
            configure: { commands in
                commands.access = AccessControl(pinHash: "$test$4321$not-a-real-hash")
                commands.pinHashing = testHashing
            })
        var quit = 0
        harness.commands.onQuit = { quit += 1 }
        harness.commands.quitStopsTheService = true
        harness.commands.receive(line: "quit")
        XCTAssertTrue(
            harness.lines.take().last?.hasPrefix(
                "error 77: locked: quit on the serial console stops the Pinhole service")
                ?? false)
        XCTAssertEqual(quit, 0)

        harness.appliance.storagePolicy.whenFull = .recycle
        harness.appliance.lowStorageBytes = Int64.max
        harness.appliance.checkStorage()
        harness.commands.receive(line: "capture")
        harness.loop.advance(by: .seconds(1))
        XCTAssertTrue(
            harness.lines.take().first?.hasPrefix(
                "error 77: locked: storage is low and [library] when_full = recycle")
                ?? false)

        harness.commands.receive(line: "unlock 1234")
        harness.loop.advance(by: .seconds(1))
        harness.loop.finishLongWork()
        harness.loop.advance(by: .milliseconds(10))
        XCTAssertEqual(harness.lines.take().first?.hasPrefix("ok unlocked"), true)
        harness.commands.receive(line: "capture")
        harness.loop.advance(by: .seconds(1))
        XCTAssertEqual(harness.lines.take().first?.hasPrefix("ok saved"), true)
        harness.commands.receive(line: "quit")
        XCTAssertEqual(
            harness.lines.take().last,
            "ok bye: the Pinhole service stops (systemctl start pinhole, or a reboot, starts it again)")
        XCTAssertEqual(quit, 1)
    }

    /// A menu item that runs a command follows the command's rule: it shows the lock and asks
    /// for the PIN first exactly when the command needs it (or its page does).
    func testEveryMenuItemThatRunsACommandNeedsThePINWhenItsCommandDoes() throws {
        XCTAssertTrue(MenuItem("Check", action: .run(LibraryWordsCommand(["fsck"]))).needsPIN)
        XCTAssertFalse(MenuItem("Shutter", action: .run(CaptureCommand.now)).needsPIN)
        XCTAssertTrue(MenuItem("Library", action: .open(.library), needsPIN: true).needsPIN)
        var menu = ConsoleMenu()
        var snapshot = MenuSnapshot()
        snapshot.settingsFile = "/tmp/pinhole.toml"
        snapshot.settings = [("capture.quality", "93"), ("console.pin", "set")]
        snapshot.access.pinConfigured = true
        snapshot.canQuit = true
        snapshot.outputs = [("status", false), ("torch", true)]
        _ = menu.handle(.snapshot(snapshot))
        var checked = 0
        for page: MenuPageID in [
            .main, .capture, .camera, .system, .diagnostics, .settings, .viewfinder, .gps,
        ] {
            for item in menu.items(for: page) {
                guard case .run(let invocation) = item.action else { continue }
                checked += 1
                if invocation.command.needsPIN { XCTAssertTrue(item.needsPIN, item.label) }
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }
}
