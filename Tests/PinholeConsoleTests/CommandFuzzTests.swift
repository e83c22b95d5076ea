// The line-mode grammar fuzzer: its committed corpus replayed, a short generated run, and long runs on request.

import Foundation
import PinholeCommandFuzz
import PinholeConsole
import XCTest

final class CommandFuzzTests: XCTestCase {
    /// fuzz/commands/corpus.txt: one command per line, sequences that once crashed or are worth
    /// keeping (issue 12's crash first).
    private func corpus() throws -> [String] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let text = try String(
            contentsOf: root.appendingPathComponent("fuzz/commands/corpus.txt"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            !$0.hasPrefix("#")
        }
    }

    func testTheCorpusReplaysWithoutATrapAndEveryLineIsAnswered() throws {
        let fuzzer = try CommandFuzzer(seed: 1)
        let lines = try corpus()
        XCTAssertGreaterThan(lines.count, 20)
        for line in lines { fuzzer.run(line) }
        fuzzer.settle(.seconds(90))
        XCTAssertEqual(fuzzer.commands, lines.count)
        // Through the real reader, every line (blank, overlong, not text) gets exactly one answer.
        XCTAssertEqual(fuzzer.linesTaken, lines.count)
        XCTAssertEqual(fuzzer.answers, lines.count)
        XCTAssertGreaterThan(fuzzer.rejected, 10)
        XCTAssertEqual(fuzzer.violations.map(\.description), [])
    }

    func testTheGrammarCoversEveryForm() throws {
        let fuzzer = try CommandFuzzer(seed: 2)
        XCTAssertEqual(fuzzer.forms.count, CommandCatalog.forms.count)
        XCTAssertTrue(fuzzer.forms.contains("sim wait MS"), "\(fuzzer.forms)")
    }

    /// Every command of `library help` is generated (with hostile arguments) and runs on a
    /// real library in a scratch folder.
    func testTheLibraryFormsCoverEveryLibraryCommand() throws {
        XCTAssertEqual(CommandFuzzer.libraryCommandsNotGenerated, [])
        var script = CommandScript(seed: 5, paths: ["/scratch/in"], ids: ["abc"])
        var verbs: Set<String> = []
        for _ in 0..<20_000 {
            let words = script.line().split(separator: " ")
            if words.first == "library", words.count > 1 { verbs.insert(String(words[1])) }
        }
        for verb in ["list", "count", "import", "export", "exports", "smart", "thumbnail", "purge", "edit"] {
            XCTAssertTrue(verbs.contains(verb), "library \(verb) never generated: \(verbs.sorted())")
        }
    }

    /// The recorder is part of the state a rejected line must leave alone: bad `record`
    /// lines (NaN, inf, huge, negative, empty `--max` and `--pre`, a second start, a stop
    /// with a word too many) are refused on the spot and neither start nor stop a clip.
    func testRejectedRecordLinesStartAndStopNoClip() throws {
        let fuzzer = try CommandFuzzer(seed: 4)
        let bad = [
            "record start --max 0", "record start --max nan", "record start --max inf",
            "record start --max -5",
            "record start --max 1e308", "record start --max", "record start --pre NaN",
            "record start --pre -1",
            "record start --pre 99999999999999999999", "record start --pre", "record stop",
            "record status now",
        ]
        for line in bad { fuzzer.run(line) }
        XCTAssertNil(fuzzer.recording, "a rejected line started a clip")
        XCTAssertEqual(fuzzer.rejected, bad.count)
        fuzzer.run("record start --max 30")
        let clip = try XCTUnwrap(fuzzer.recording, "\(fuzzer.lastAnswer ?? "no answer")")
        for line in ["record start", "record start --pre 1", "record stop now", "record start --max nan"] {
            fuzzer.run(line)
            XCTAssertEqual(
                fuzzer.recording, clip, "\(line) changed the recording: \(fuzzer.lastAnswer ?? "")")
        }
        XCTAssertEqual(fuzzer.rejected, bad.count + 4)
        XCTAssertEqual(fuzzer.violations.map(\.description), [])
    }

    /// `library` lines run on the fuzzer's real library; one that names a folder outside its
    /// scratch folder is refused there, and an unknown option changes nothing (it deleted the
    /// photo before the fix).
    func testLibraryLinesRunOnTheScratchLibraryOnly() throws {
        let fuzzer = try CommandFuzzer(seed: 6)
        let id = try XCTUnwrap(fuzzer.libraryIDs.first)
        fuzzer.run("library count --type photo")
        XCTAssertEqual(fuzzer.lastAnswer, "ok 1")
        fuzzer.run("library list --type video")
        XCTAssertEqual(fuzzer.lastAnswer, "ok no photos")
        for line in [
            "library import /", "library export .", "library thumbnail \(id) --size 8x8 --out x.jpg",
        ] {
            fuzzer.run(line)
            XCTAssertTrue(fuzzer.lastAnswer?.contains("outside the fuzzer's scratch folder") == true, line)
        }
        fuzzer.run("library delete \(id) --max")
        XCTAssertTrue(
            fuzzer.lastAnswer?.contains("unknown option --max") == true, "\(fuzzer.lastAnswer ?? "")")
        fuzzer.run("library count")
        XCTAssertEqual(fuzzer.lastAnswer, "ok 1")
        fuzzer.run("library export \(fuzzer.libraryPaths[1])")
        XCTAssertEqual(fuzzer.lastAnswer, "ok exported 1, skipped 0 (already there)")
        XCTAssertEqual(fuzzer.violations.map(\.description), [])
    }

    /// A short generated run in every test; PINHOLE_FUZZ_COMMANDS=N (and PINHOLE_FUZZ_SEED)
    /// runs N; `tools/fuzz commands N` runs a release build far faster.
    func testGeneratedSequencesDoNotTrapAndRejectedCommandsChangeNothing() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["PINHOLE_FUZZ_COMMANDS"].flatMap(Int.init) ?? 200
        let seed = environment["PINHOLE_FUZZ_SEED"].flatMap(UInt64.init) ?? 12
        let fuzzer = try CommandFuzzer(seed: seed)
        let chunk = 10_000
        var done = 0
        var violations: [String] = []
        var rejected = 0
        while done < count {
            // A fresh appliance every chunk keeps a long run's memory flat.
            let part = min(chunk, count - done)
            let runner = done == 0 ? fuzzer : try CommandFuzzer(seed: seed &+ UInt64(done))
            runner.run(count: part)
            runner.settle(.seconds(90))
            XCTAssertEqual(runner.linesTaken, part, "a line on a pipe was not taken")
            XCTAssertEqual(
                runner.answers, part, "not exactly one answer a line (seed \(seed &+ UInt64(done)))")
            violations += runner.violations.map(\.description)
            rejected += runner.rejected
            done += part
        }
        XCTAssertEqual(done, count)
        XCTAssertGreaterThan(rejected, 0)
        XCTAssertEqual(violations, [])
        print("fuzz: \(count) commands, seed \(seed), no trap")
    }

    /// Each generated line is exactly one line for the reader, hostile bytes and all: the
    /// 1M run once counted 10,001 lines taken for 10,000 sent in 7 chunks, where `ESC O` had
    /// been put before an `M` (`album 1 NA\e[OME`: the keypad's Enter ended the line early).
    func testEveryGeneratedLineIsOneLineForTheReader() {
        for seed: UInt64 in [12125, 22125, 172_125, 222_125, 352_125, 472_125, 1_000_492_132] {
            var script = CommandScript(seed: seed)
            var assembler = LineAssembler(maximumLength: LineModeConsole.maximumLineLength)
            var pieces = 0
            for _ in 0..<10_000 { pieces += assembler.feed(script.script(lines: 1)).count }
            XCTAssertEqual(pieces, 10_000, "seed \(seed)")
        }
    }

    /// A command may rightly take long: a `sim wait` past the settling time is answered when
    /// its time has passed, and so is every line that waited behind it (the 1M run counted
    /// 3 chunks as unanswered that were waiting for `sim wait 4053040` and the like).
    func testLinesBehindALongSimWaitAreAnsweredOnceItsTimeHasPassed() throws {
        let fuzzer = try CommandFuzzer(seed: 3)
        fuzzer.run("sim wait 200000")
        fuzzer.run("status")
        fuzzer.settle(.seconds(90))
        XCTAssertEqual(fuzzer.linesTaken, 2)
        XCTAssertEqual(fuzzer.answers, 2)
    }

    /// On a serial line the noise gate may hold input back: it says so in an `event noise`
    /// line, and every line the console did take still gets exactly one answer (lines taken
    /// before the quiet wait began are answered `not run`).
    func testOnAGatedSerialLineEveryLineTakenIsAnsweredAndHeldInputIsReported() throws {
        // The fuzzer wakes the console now and then (silence, Enter, Enter), so lines are
        // both taken and held back.
        let fuzzer = try CommandFuzzer(seed: 20, serial: true)
        fuzzer.run(count: 300)
        fuzzer.settle(.seconds(90))
        XCTAssertEqual(fuzzer.answers, fuzzer.linesTaken)
        XCTAssertGreaterThan(fuzzer.linesTaken, 30, "the console never listened again")
        XCTAssertLessThan(fuzzer.linesTaken, fuzzer.commands, "the hostile bytes never started a quiet wait")
        XCTAssertGreaterThan(fuzzer.noiseEvents, 1, "input held back without an event")
    }
}
