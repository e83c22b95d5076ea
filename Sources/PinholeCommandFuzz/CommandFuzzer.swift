// A grammar-based fuzzer of line mode, bytes in and lines out: every form from `help --json`, hostile arguments and bytes.

import Foundation
import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeConsole
import PinholeCore
import PinholeLibraryCommandLine
import PinholeSim
import PinholeSimBoard
import SystemPackage

/// Generates command lines from the forms `help --json` lists, with hostile arguments and
/// hostile bytes (invalid UTF-8, NUL, broken escape sequences, Ctrl-C, every line ending),
/// and feeds them as bytes, in random pieces, through line mode's real reader
/// (`LineModeReader`: the input gate, the line assembler, the console) of a simulated
/// appliance on virtual time, with a real photo library in a scratch folder (`library …` lines
/// run the library's command language on it). Deterministic for a seed. A trap ends the
/// process, so a run that returns found no crash; a command answered with an error that
/// changed the settings, the camera, the recording or the library is kept in `violations`;
/// every line must get exactly one answer
/// (`answers == commands` once settled; on a gated serial line, every line the console took).
public final class CommandFuzzer {
    /// A command answered with an error that changed state anyway.
    public struct Violation: CustomStringConvertible {
        /// The command line.
        public var line: String
        /// Its error answer.
        public var answer: String
        /// The state before (the settings, the running camera, the recording, the library).
        public var before: String
        /// The state after.
        public var after: String

        /// One line for a report.
        public var description: String { "\(line) -> \(answer): state \(before) became \(after)" }
    }

    /// The forms' usage strings (from `help --json`).
    public var forms: [String] { script.forms }
    private var script: CommandScript
    private var random: SplitMix64
    private let loop = EventLoop.virtual()
    private let world = SimWorld()
    private let gpio: SimulatedGPIO
    private let appliance: Appliance
    private var console: LineModeConsole!
    private let sandbox: FuzzLibrarySandbox
    private var reader: LineModeReader!
    /// Lines sent so far.
    public private(set) var commands = 0
    /// Answers received so far (every line written that is not an `event`).
    public private(set) var answers = 0
    /// `event noise` lines: the gate (a serial line only) began holding input back.
    public private(set) var noiseEvents = 0
    /// Lines the console took (on a pipe: every line sent).
    public var linesTaken: Int { console.linesReceived }

    /// Commands answered with an error on the spot (their state was compared).
    public private(set) var rejected = 0
    /// Rejected commands that changed state.
    public private(set) var violations: [Violation] = []
    /// The last answer written (nil when the last line's answer is still to come).
    public private(set) var lastAnswer: String?
    /// The clip being recorded, nil when idle.
    public var recording: Int? { appliance.recorder?.status?.id }
    /// The scratch library's photos and the folders `library` lines may name.
    public var libraryIDs: [String] { sandbox.ids }
    /// The folders and file `library` lines may name (`in`, `out`, a thumbnail file, a missing folder).
    public var libraryPaths: [FilePath] { sandbox.paths.map { FilePath($0) } }

    /// A fresh simulated appliance (two small cameras) and its line-mode console, read as
    /// from a pipe (`serial`: as from a serial line, through the enabled noise gate).
    public init(seed: UInt64, serial: Bool = false) throws {
        random = SplitMix64(seed: seed)
        sandbox = try FuzzLibrarySandbox(seed: seed)
        script = CommandScript(seed: seed, paths: sandbox.paths.map { FilePath($0) }, ids: sandbox.ids)
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
        let sandbox = self.sandbox
        console = LineModeConsole(
            appliance: appliance,
            simulation: SimBoardControl(gpio: gpio, world: world, board: board, loop: loop),
            library: { words in try sandbox.run(words) }
        ) { [weak self] line in self?.written(line) }
        let gate = ConsoleInputGate(loop: loop)
        gate.enabled = serial
        reader = LineModeReader(gate: gate, console: console) { [weak self] line in self?.written(line) }
        gate.deliver = { [weak self] bytes in self?.reader.pass(bytes) }
        gate.onQuiet = { [weak self] reason in self?.reader.quietBegan(reason: reason) }
        gate.onWoke = { [weak self] _, bytes in self?.reader.woke(bytes: bytes) }
    }

    private func written(_ line: String) {
        if ProcessInfo.processInfo.environment["PINHOLE_FUZZ_TRACE"] == "1" { print("< \(line.prefix(120))") }
        if line.hasPrefix("event ") {
            if line.hasPrefix("event noise:") { noiseEvents += 1 }
            return
        }
        answers += 1
        lastAnswer = line
    }

    deinit { appliance.shutdown() }

    /// Commands of `library help` that no form of `CommandScript.libraryForms` generates (the
    /// verb, and the sub-verb of `album`, `folder` and `edit`): none, or the fuzzer lags.
    public static var libraryCommandsNotGenerated: [String] {
        let generated = Set(CommandScript.libraryForms.map(Self.command))
        let listed = LibraryCommandLine.helpText.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), line.dropFirst(2).first?.isLowercase == true else { return nil }
            let usage = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            return command("library " + usage)
        }
        return listed.filter { !generated.contains($0) }
    }

    /// `list`, `album add`, `edit show|revert`: the words that name a library command.
    private static func command(_ form: String) -> String {
        let words = form.split(separator: " ").dropFirst().map(String.init)
        guard let verb = words.first else { return "" }
        return ["album", "folder", "edit"].contains(verb) && words.count > 1 ? "\(verb) \(words[1])" : verb
    }

    /// One command line generated from a usage form.
    public func line() -> String { script.line() }

    /// What a rejected command must leave alone: the settings that survive a restart, the
    /// running camera, the recording (a rejected command starts and stops none) and the
    /// library's photos and albums.
    private var state: String {
        let recording = appliance.recorder?.status.map { "recording \($0.id)" } ?? "idle"
        return "\(appliance.engine.savedSettings) camera \(appliance.engine.current?.id ?? "none") "
            + "\(recording) \(sandbox.state)"
    }

    /// Runs one line and lets a little virtual time pass (sometimes a lot). The line goes in
    /// as bytes, in one to three pieces, through the reader. A line answered with an error at
    /// once must leave `state` as it was.
    public func run(_ line: String) {
        commands += 1
        let before = state
        let answered = answers
        lastAnswer = nil
        let input = script.bytes(for: line)
        if ProcessInfo.processInfo.environment["PINHOLE_FUZZ_TRACE"] == "1" { print("> \(input)") }
        var start = 0
        for piece in 0..<3 {
            let end = piece == 2 ? input.count : start + Int(random.next() % UInt64(input.count - start + 1))
            if end > start { reader.receive(Array(input[start..<end])) }
            start = end
        }
        // Judged: this line's own answer, when it is the only answer since the line was sent
        // (a line that waited behind a busy console is answered later, with others).
        var judged = false
        judge(line, before: before, since: answered, judged: &judged)
        // `library` lines run on the long-work thread: their answer comes before time moves on
        // (and so do the answers of lines that waited behind one).
        loop.finishLongWork()
        if line.hasPrefix("library") { judge(line, before: before, since: answered, judged: &judged) }
        if reader.gate.isQuiet, random.next() % 8 == 0 {
            // A person wakes the console: silence, then Enter twice (each its own burst).
            loop.advance(by: reader.gate.quietPeriodForWaking + .milliseconds(100))
            reader.receive([0x0D])
            loop.advance(by: .milliseconds(300))
            reader.receive([0x0D])
        }
        let roll = random.next() % 100
        loop.advance(by: roll < 95 ? .milliseconds(Int64(roll)) : .milliseconds(Int64(roll - 94) * 400))
    }

    /// Counts `line` as rejected if its own answer, the only one since it was sent, is an
    /// error, and keeps it as a violation if the state changed.
    private func judge(_ line: String, before: String, since answered: Int, judged: inout Bool) {
        guard !judged, answers == answered + 1, answers == linesTaken, let answer = lastAnswer else { return }
        judged = true
        guard answer.hasPrefix("error") || answer.hasPrefix("{\"error\"") else { return }
        rejected += 1
        let after = state
        if after != before {
            violations.append(Violation(line: line, answer: answer, before: before, after: after))
        }
    }

    /// Lets `duration` of virtual time pass (self-timers, bursts and scans finish), then more
    /// while a line is still unanswered: a command may rightly take long (`sim wait` up to a
    /// day of virtual time, the lines after it waiting their turn), so time moves on until the
    /// console is idle, for at most `duration` plus the longest `sim wait` after the last
    /// answer. A line still unanswered then was never going to be.
    public func settle(_ duration: Duration) {
        loop.finishLongWork()
        loop.advance(by: duration)
        let patience = duration + .milliseconds(SimCommand.maxWaitMs)
        let step = Duration.seconds(60)
        var answered = answers
        var waited = Duration.zero
        while console.isBusy, waited < patience {
            loop.advance(by: step)
            loop.finishLongWork()
            waited = answers == answered ? waited + step : .zero
            answered = answers
        }
    }

    /// Lines sent that have no answer yet (after `settle`: lines never answered). On a serial
    /// line, lines the gate held back are not counted: only those the console took.
    public var unanswered: Int { linesTaken - answers }

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
