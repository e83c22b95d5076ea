// A grammar-based fuzzer of the line-mode command layer: every form from `help --json`, hostile arguments.

import Foundation
import PinholeAppliance
import PinholeConsole
import PinholeCore
import PinholeSim
import PinholeSimBoard

/// Generates command lines from the forms `help --json` lists, with hostile arguments, and
/// runs them in sequences against a simulated appliance on virtual time. Deterministic for a
/// seed. A trap ends the process, so a run that returns found no crash; a command answered
/// with an error that changed the settings or the camera is kept in `violations`.
public final class CommandFuzzer {
    /// A command answered with an error that changed state anyway.
    public struct Violation: CustomStringConvertible {
        /// The command line.
        public var line: String
        /// Its error answer.
        public var answer: String
        /// The state before and after (`settings` and the running camera).
        public var before: String
        /// The state after.
        public var after: String

        /// One line for a report.
        public var description: String { "\(line) -> \(answer): state \(before) became \(after)" }
    }

    /// The forms' usage strings (from `help --json`).
    public let forms: [String]
    private var random: SplitMix64
    private let loop = EventLoop.virtual()
    private let world = SimWorld()
    private let gpio: SimulatedGPIO
    private let appliance: Appliance
    private var console: LineModeConsole!
    /// Commands run so far.
    public private(set) var commands = 0
    /// Answers received so far.
    public private(set) var answers = 0
    /// Commands answered with an error on the spot (their state was compared).
    public private(set) var rejected = 0
    /// Rejected commands that changed state.
    public private(set) var violations: [Violation] = []
    private var lastAnswer: String?

    /// Hostile words for placeholders.
    static let hostile = [
        "nan", "NaN", "inf", "-inf", "infinity", "1e308", "-1e308", "1e-320", "-1", "0", "-0", "1", "2",
        "0.5",
        "99999999999999999999", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "",
        "0x10", "1_000", "+5", ".", "-", "--json", "--timer", "--burst", "--bounce", "--max", "--pre", "off",
        "on", "auto",
        "\u{0}", "\u{1B}[2J", "🙂", "a b", "\"", "'", "\\", String(repeating: "9", count: 400),
        String(repeating: "x", count: 1000), "4056x3040", "0x0", "-5x-5", "lock", "current",
    ]

    /// A fresh simulated appliance (two small cameras) and its line-mode console.
    public init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        let board = try BuiltInBoards.simulated()
        gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        var back = SimCameraSpec.back
        back.pixelArraySize = PixelSize(width: 160, height: 120)
        var front = SimCameraSpec.front
        front.pixelArraySize = PixelSize(width: 160, height: 120)
        let cameras = SimulatedCameraProvider(loop: loop, world: world, specs: [back, front])
        appliance = Appliance(
            loop: loop, board: board, gpio: gpio, cameras: cameras, encoder: FuzzEncoder(),
            store: FuzzPhotoStore())
        try appliance.start()
        // Recording at the small cameras' one video size (no pre-roll ring: rendering every frame
        // for it doubled the corpus replay's time), through the fake
        // video backend: `record …` runs against real recorder state.
        var video = VideoSettings()
        video.size = PixelSize(width: 160, height: 96)
        // The sensor's own rate, so that frames (and captures) come as often as without recording.
        video.fps = 30
        video.maxDurationSeconds = 60
        appliance.attachRecorder(
            ClipRecorder(
                loop: loop, backend: SimulatedVideoBackend(), store: FuzzClipStore(), settings: video,
                pick: EncoderPick(kind: .libx264, reason: "the fuzzer's fake backend"), ringSeconds: 0))
        let json = CommandCatalog.helpJSON
        forms = Self.usages(inHelpJSON: json)
        console = LineModeConsole(
            appliance: appliance,
            simulation: SimBoardControl(gpio: gpio, world: world, board: board, loop: loop),
            library: nil
        ) { [weak self] answer in
            self?.answers += 1
            self?.lastAnswer = answer
        }
    }

    deinit { appliance.shutdown() }

    /// The `command` values of `help --json`.
    public static func usages(inHelpJSON json: String) -> [String] {
        let list = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: String]]
        return list?.compactMap { $0["command"] } ?? []
    }

    /// One command line generated from a usage form.
    public func line() -> String {
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

    /// What a rejected command must leave alone: the settings that survive a restart and
    /// the running camera.
    private var state: String {
        "\(appliance.engine.savedSettings) camera \(appliance.engine.current?.id ?? "none")"
    }

    /// Runs one line and lets a little virtual time pass (sometimes a lot). A line answered
    /// with an error at once must leave `state` as it was.
    public func run(_ line: String) {
        commands += 1
        let before = state
        lastAnswer = nil
        console.receive(line: line)
        if let answer = lastAnswer, answer.hasPrefix("error") || answer.hasPrefix("{\"error\"") {
            rejected += 1
            let after = state
            if after != before {
                violations.append(Violation(line: line, answer: answer, before: before, after: after))
            }
        }
        let roll = random.next() % 100
        loop.advance(by: roll < 95 ? .milliseconds(Int64(roll)) : .milliseconds(Int64(roll - 94) * 400))
    }

    /// Lets `duration` of virtual time pass (self-timers, bursts and scans finish).
    public func settle(_ duration: Duration) { loop.advance(by: duration) }

    /// Runs `count` generated lines; returns them when `keep` (for a corpus).
    @discardableResult
    public func run(count: Int, keep: Bool = false) -> [String] {
        var kept: [String] = []
        for _ in 0..<count {
            let next = line()
            if keep { kept.append(next) }
            run(next)
        }
        return kept
    }
}
