// Runs the line-mode command fuzzer for many commands: `pinhole-fuzz-commands COUNT [SEED]` (tools/fuzz commands).

import Foundation
import PinholeCommandFuzz

let arguments = CommandLine.arguments.dropFirst()
guard let count = arguments.first.flatMap(Int.init), count > 0,
    let seed = arguments.dropFirst().first.map(UInt64.init) ?? 12
else {
    print("usage: pinhole-fuzz-commands COUNT [SEED]   (COUNT > 0, SEED a whole number)")
    exit(64)
}

// A fresh appliance every chunk keeps a long run's memory flat; each chunk has its own seed,
// printed as it starts: after a trap, `pinhole-fuzz-commands 10000 SEED` with
// PINHOLE_FUZZ_ECHO=1 replays that chunk and prints each command before running it.
let echo = ProcessInfo.processInfo.environment["PINHOLE_FUZZ_ECHO"] == "1"
let chunk = 10_000
var done = 0
var rejected = 0
var violations: [CommandFuzzer.Violation] = []
var unanswered: [String] = []
while done < count {
    let part = min(chunk, count - done)
    let chunkSeed = seed &+ UInt64(done)
    print("fuzz: chunk of \(part) commands, seed \(chunkSeed)")
    fflush(nil)
    let fuzzer = try CommandFuzzer(seed: chunkSeed)
    for _ in 0..<part {
        let line = fuzzer.line()
        if echo {
            print(line)
            fflush(nil)
        }
        fuzzer.run(line)
    }
    fuzzer.settle(.seconds(90))
    if fuzzer.linesTaken != part || fuzzer.answers != part {
        unanswered.append(
            "seed \(chunkSeed): \(part) lines, \(fuzzer.linesTaken) taken, \(fuzzer.answers) answers")
    }
    rejected += fuzzer.rejected
    violations += fuzzer.violations
    done += part
}
for violation in violations.prefix(20) { print("fuzz: state changed by a rejected command: \(violation)") }
for chunk in unanswered.prefix(20) { print("fuzz: not one answer a line: \(chunk)") }
print(
    "fuzz: \(done) commands, seed \(seed): no trap; \(rejected) rejected on the spot, "
        + "\(violations.count) of them changed state; \(unanswered.count) chunks without one answer a line")
exit(violations.isEmpty && unanswered.isEmpty ? 0 : 1)
