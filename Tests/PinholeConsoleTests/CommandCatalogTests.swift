// The command definitions: every help entry parses, help and usage come from them, and the
// menu's items and prompts make valid commands (including awkward album names).

import PinholeAppliance
import PinholeConsole
import XCTest

final class CommandCatalogTests: XCTestCase {
    func testEveryHelpExampleParsesToItsOwnVerb() throws {
        var count = 0
        for definition in CommandCatalog.definitions {
            XCTAssertFalse(definition.forms.isEmpty, definition.verb)
            for form in definition.forms {
                XCTAssertFalse(form.examples.isEmpty, "\(form.usage) has no example")
                for example in form.examples {
                    XCTAssertNoThrow(try CommandCatalog.parse(line: example), example)
                    XCTAssertEqual(try tokenize(example).first, definition.verb, example)
                    count += 1
                }
            }
        }
        XCTAssertGreaterThan(count, 40)
    }

    func testHelpAndHelpJSONListEveryFormFromTheDefinitions() throws {
        let help = CommandCatalog.help
        XCTAssertTrue(help.hasPrefix("ok commands: capture [--json] | "), help)
        for form in CommandCatalog.forms { XCTAssertTrue(help.contains(form.usage), form.usage) }
        XCTAssertTrue(help.contains("sim fault camera-timeout|camera-dead|camera-alive"), help)
        let json =
            try JSONSerialization.jsonObject(with: Data(CommandCatalog.helpJSON.utf8)) as? [[String: String]]
        XCTAssertEqual(json?.count, CommandCatalog.forms.count)
        XCTAssertEqual(json?.first?["command"], "capture [--json]")
    }

    /// The catalog is generated from the folder (tools/command-list): one verb per file
    /// `Commands/VerbCommand.swift`, each verb once, in help order by group then name.
    func testTheCatalogHasOneVerbPerCommandFileInHelpOrder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/PinholeConsole/Commands").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("Command.swift") }
        XCTAssertGreaterThan(files.count, 25)
        XCTAssertEqual(CommandCatalog.definitions.count, files.count, "one verb per command file")
        let verbs = CommandCatalog.definitions.map(\.verb)
        XCTAssertEqual(Set(verbs).count, verbs.count, "each verb once: \(verbs)")
        let order = CommandCatalog.definitions.map { ($0.group.rawValue, $0.verb) }
        XCTAssertTrue(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "help order: \(verbs)")
        XCTAssertEqual(CommandCatalog.definitions.first?.group, .shooting)
        XCTAssertEqual(CommandCatalog.definitions.last?.group, .console)
    }

    /// Found by `tools/fuzz commands`: `sim tilt 90 --bounce 9223372036854775807` overflowed
    /// when the chatter's duration was computed. Sizes are bounded where they are parsed.
    func testSimulatedChatterHoldAndWaitAreBounded() throws {
        for line in [
            "sim tilt 90 --bounce 9223372036854775807", "sim hold shutter --bounce 51",
            "sim release shutter --bounce 4611686018427387904", "sim press shutter --bounce 99999",
            "sim press shutter --hold 9223372036854775807", "sim wait 9223372036854775807",
            "sim wait 86400001",
        ] {
            XCTAssertThrowsError(try CommandCatalog.parse(line: line), line) { error in
                XCTAssertEqual((error as? ConsoleError)?.status, 64, line)
            }
        }
        XCTAssertEqual(
            try CommandCatalog.parse(line: "sim tilt 90 --bounce 50")?.command(as: SimCommand.self),
            .tilt(degrees: 90, bounce: 50))
        XCTAssertEqual(
            try CommandCatalog.parse(line: "sim wait 86400000")?.command(as: SimCommand.self),
            .wait(ms: 86_400_000))
    }

    func testLinesParseIntoValuesOnce() throws {
        XCTAssertEqual(
            try CommandCatalog.parse(line: "capture --burst 3 --json"),
            ConsoleInvocation(CaptureCommand.burst(count: 3), json: true))
        XCTAssertNotEqual(
            try CommandCatalog.parse(line: "capture --burst 3 --json"),
            ConsoleInvocation(CaptureCommand.burst(count: 3), json: false))
        XCTAssertNotEqual(
            try CommandCatalog.parse(line: "zoom 2"), ConsoleInvocation(EVCommand(stops: 2)))
        XCTAssertEqual(
            try CommandCatalog.parse(line: "af continuous")?.command(as: AFCommand.self), .mode(.continuous))
        XCTAssertEqual(
            try CommandCatalog.parse(line: "metering center")?.command(as: MeteringCommand.self),
            MeteringCommand(mode: .centre))
        XCTAssertEqual(
            try CommandCatalog.parse(line: "sim press half-press --hold 300")?.command(as: SimCommand.self),
            .press(.halfPress, holdMs: 300, bounce: 0))
        XCTAssertEqual(
            try CommandCatalog.parse(line: "library list --json")?.command(as: LibraryWordsCommand.self),
            LibraryWordsCommand(["list", "--json"]))
        XCTAssertEqual(
            try CommandCatalog.parse(line: "shutdown --poweroff")?.command(as: ShutdownCommand.self),
            ShutdownCommand(powerOff: true))
        XCTAssertNil(try CommandCatalog.parse(line: "   "))
    }

    func testUsageErrorsComeFromTheDefinitionAndNameTheProblem() {
        func error(_ line: String) -> String {
            do {
                _ = try CommandCatalog.parse(line: line)
                return "parsed"
            } catch { return LineModeConsole.errorLine(error) }
        }
        XCTAssertEqual(error("bogus"), "error 64: unknown command 'bogus': type help for the list")
        XCTAssertEqual(error("torch maybe"), "error 64: usage: torch on|off")
        XCTAssertEqual(error("capture --timer 99"), "error 64: --timer takes 1 to 60 seconds")
        XCTAssertEqual(
            error("sim fault melt"),
            "error 64: unknown fault 'melt': camera-timeout | camera-dead | camera-alive")
        XCTAssertEqual(error("capture \"x"), "error 64: unterminated quote")
        XCTAssertEqual(error("status now"), "error 64: unexpected 'now': usage: status [--json]")
        XCTAssertEqual(error("sim press shutter --bounce 51"), "error 64: --bounce takes 0 to 50")
    }

    func testPromptAnswersAreWordsNotTextSoAlbumNamesNeedNoQuoting() throws {
        let create = Prompt("New album's name", .word(before: ["library", "album", "create", "--"]))
        XCTAssertEqual(
            try create.invocation(for: "--json")?.command(as: LibraryWordsCommand.self),
            LibraryWordsCommand(["album", "create", "--", "--json"]))
        XCTAssertEqual(try create.invocation(for: "--json")?.json, false)
        XCTAssertEqual(
            try create.invocation(for: "O\"Brien's trip")?.command(as: LibraryWordsCommand.self),
            LibraryWordsCommand(["album", "create", "--", "O\"Brien's trip"]))
        let point = Prompt("AF point", .words(before: ["af", "point"]))
        XCTAssertEqual(
            try point.invocation(for: " 0.25  0.75 ")?.command(as: AFCommand.self), .point(x: 0.25, y: 0.75))
        XCTAssertThrowsError(try Prompt("Lens", .word(before: ["lens"])).invocation(for: "near"))
        XCTAssertEqual(
            try Prompt("pinhole", .line).invocation(for: "torch on")?.command(as: TorchCommand.self),
            TorchCommand(on: true))
    }

    func testEveryMenuItemCarriesAValidCommand() throws {
        var menu = ConsoleMenu()
        var snapshot = MenuSnapshot()
        snapshot.settingsFile = "/tmp/pinhole.toml"
        snapshot.settings = [("capture.quality", "93"), ("console.pin", "set"), ("console.colour", "off")]
        snapshot.access.pinConfigured = true
        snapshot.access.unlocked = false
        snapshot.canQuit = true
        snapshot.outputs = [("status", false), ("torch", true)]
        _ = menu.handle(.snapshot(snapshot))
        let pages: [MenuPageID] = [
            .main, .capture, .camera, .system, .diagnostics, .settings, .viewfinder, .library, .gps,
        ]
        var runs = 0, prompts = 0
        for page in pages {
            for item in menu.items(for: page) {
                switch item.action {
                case .run(let invocation):
                    runs += 1
                    XCTAssertNotNil(CommandCatalog.definition(for: invocation.command.verb), item.label)
                case .ask(let prompt):
                    prompts += 1
                    switch prompt.form {
                    case .line: break
                    case .word(let before, _), .words(let before, _):
                        XCTAssertNotNil(CommandCatalog.definition(for: before[0]), item.label)
                    }
                    if !prompt.initial.isEmpty {
                        XCTAssertNoThrow(
                            try prompt.invocation(for: prompt.initial), "\(item.label): \(prompt.initial)")
                    }
                default: break
                }
            }
        }
        XCTAssertGreaterThan(runs, 10)
        XCTAssertGreaterThan(prompts, 15)
    }
}
