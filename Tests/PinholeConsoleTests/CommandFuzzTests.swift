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
