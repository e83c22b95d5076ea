// A grammar-based fuzzer of the line-mode command layer: every form from `help --json`, hostile arguments.

import Foundation
import PinholeAppliance
import PinholeConsole
import PinholeCore
import PinholeSim
import PinholeSimBoard

/// Generates command lines from the forms `help --json` lists, with hostile arguments, and
/// runs them in sequences against a simulated appliance on virtual time. Deterministic for a
/// seed. A trap ends the test process, so a run that returns found nothing.
final class CommandFuzzer {
    /// The forms' usage strings (from `help --json`).
    let forms: [String]
    private var random: SplitMix64
    private let loop = EventLoop.virtual()
    private let world = SimWorld()
    private let gpio: SimulatedGPIO
    private let appliance: Appliance
    private(set) var console: LineModeConsole!
    /// Commands run so far.
    private(set) var commands = 0
    /// Answers received so far.
    private(set) var answers = 0

    /// Hostile words for placeholders.
    static let hostile = [
        "nan", "NaN", "inf", "-inf", "infinity", "1e308", "-1e308", "1e-320", "-1", "0", "-0", "1", "2",
        "0.5",
        "99999999999999999999", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "",
        "0x10", "1_000", "+5", ".", "-", "--json", "--timer", "--burst", "--bounce", "off", "on", "auto",
        "\u{0}", "\u{1B}[2J", "🙂", "a b", "\"", "'", "\\", String(repeating: "9", count: 400),
        String(repeating: "x", count: 1000), "4056x3040", "0x0", "-5x-5", "lock", "current",
    ]

    init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        let board = try BuiltInBoards.simulated()
        gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        var back = SimCameraSpec.back
        back.pixelArraySize = PixelSize(width: 160, height: 120)
        var front = SimCameraSpec.front
        front.pixelArraySize = PixelSize(width: 160, height: 120)
        let cameras = SimulatedCameraProvider(loop: loop, world: world, specs: [back, front])
        appliance = Appliance(
            loop: loop, board: board, gpio: gpio, cameras: cameras, encoder: NullEncoder(),
            store: MemoryStore())
        try appliance.start()
        let json = CommandCatalog.helpJSON
        forms = Self.usages(inHelpJSON: json)
        console = LineModeConsole(
            appliance: appliance,
            simulation: SimBoardControl(gpio: gpio, world: world, board: board, loop: loop),
            library: nil
        ) { [weak self] _ in self?.answers += 1 }
    }

    deinit { appliance.shutdown() }

    /// The `command` values of `help --json`.
    static func usages(inHelpJSON json: String) -> [String] {
        let list = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: String]]
        return list?.compactMap { $0["command"] } ?? []
    }

    /// One command line generated from a usage form.
    func line() -> String {
        let form = forms[Int(random.next() % UInt64(forms.count))]
        var words: [String] = []
        for token in form.split(separator: " ").map(String.init) {
            let roll = random.next() % 10
            if token.hasPrefix("[") {
                if roll < 5 { words.append(token.trimmingCharacters(in: ["[", "]"])) }
                continue
            }
            if roll == 0 { continue }  // a word left out
            if roll == 1 {
                words.append(pick(Self.hostile))
                continue
            }
            if token == "|" { break }  // "a … | b …": the first alternative
            if token.contains("|") {
                words.append(pick(token.split(separator: "|").map(String.init)))
            } else if token == "…" {
                for _ in 0..<(random.next() % 4) { words.append(pick(Self.hostile)) }
            } else if token.uppercased() == token, token.contains(where: \.isLetter) {
                words.append(pick(Self.hostile))
            } else {
                words.append(token)
            }
        }
        if random.next() % 20 == 0 { words.append(pick(Self.hostile)) }  // one too many
        return words.joined(separator: " ")
    }

    private func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }

    /// Runs one line and lets a little virtual time pass (sometimes a lot).
    func run(_ line: String) {
        commands += 1
        console.receive(line: line)
        let roll = random.next() % 100
        loop.advance(by: roll < 95 ? .milliseconds(Int64(roll)) : .milliseconds(Int64(roll - 94) * 400))
    }

    /// Lets `duration` of virtual time pass (self-timers, bursts and scans finish).
    func settle(_ duration: Duration) { loop.advance(by: duration) }

    /// Runs `count` generated lines; returns them when `keep` (for a corpus).
    @discardableResult
    func run(count: Int, keep: Bool = false) -> [String] {
        var kept: [String] = []
        for _ in 0..<count {
            let next = line()
            if keep { kept.append(next) }
            run(next)
        }
        return kept
    }
}
