// Crash test: SIGKILL the running appliance at seeded random moments during a stream of captures.

import Foundation
import PinholeCore
import PinholeImaging
import Synchronization
import PinholeTestTools
import XCTest

@testable import PinholeLibrary
import SystemPackage

/// Reads a child's standard output line by line on its own thread and records `ok saved` answers.
final class SavedLineReader: Sendable {
    private let state = Mutex<(saved: [(id: String, path: String)], ended: Bool)>(([], false))
    private let signal = DispatchSemaphore(value: 0)

    /// Starts reading `handle` until end of file.
    func start(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    let words = line.split(separator: " ")
                    if words.count >= 4, words[0] == "ok", words[1] == "saved" {
                        state.withLock { $0.saved.append((String(words[2]), String(words[3]))) }
                        signal.signal()
                    }
                }
            }
            state.withLock { $0.ended = true }
            signal.signal()
        }
        thread.start()
    }

    /// Waits until `count` photos were reported saved or the output ended; false on the hang guard.
    func waitForSaved(_ count: Int, guardSeconds: Int) -> Bool {
        while true {
            let (saved, ended) = state.withLock { ($0.saved.count, $0.ended) }
            if saved >= count || ended { return true }
            if signal.wait(timeout: .now() + .seconds(guardSeconds)) == .timedOut { return false }
        }
    }

    /// Whether the output ended (the child died or closed it).
    var ended: Bool { state.withLock { $0.ended } }

    /// Waits for end of output (after the child died) and returns every reported photo.
    func finish() -> [(id: String, path: String)] {
        while !state.withLock({ $0.ended }) { _ = signal.wait(timeout: .now() + .seconds(30)) }
        return state.withLock { $0.saved }
    }
}

final class CrashTests: XCTestCase {
    /// Each round starts `pinhole run --board sim` on the same library under strace, streams
    /// `capture` commands, and strace SIGKILLs it on entry to a seeded n-th write, sync,
    /// rename or unlink of one of its threads (the kill lands in start-up, the file write,
    /// the rename or the commit, chosen by the seed, not by a timed pause). After each kill
    /// the library must open, fsck must be clean with checksums verified, and every photo ever
    /// reported saved must be present and decode.
    func testKilledAtRandomMomentsTheLibraryKeepsEveryReportedPhoto() throws {
        let binary = try pinholeBinary(for: "crash test")
        let dir = TemporaryDirectory("pinhole-crash")
        let rounds = Int(ProcessInfo.processInfo.environment["PINHOLE_CRASH_ROUNDS"] ?? "") ?? 5
        var random = SeededRandom(seed: 0x00C0_FFEE)
        var reported: [(id: String, path: String)] = []

        for round in 0..<rounds {
            let call = random.next(in: 1...SystemCallKill.runCalls)
            let process = try SystemCallKill.process(
                killedAt: call, binary,
                ["run", "--board", "sim", "--library", dir.path, "--clock", "virtual"])
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let reader = SavedLineReader()
            reader.start(output.fileHandleForReading)
            input.fileHandleForWriting.write(
                Data(("camera switch\n" + String(repeating: "capture\n", count: 30)).utf8))

            XCTAssertTrue(reader.waitForSaved(30, guardSeconds: 300), "round \(round): no progress in 300 s")
            if !reader.ended {
                XCTFail("round \(round): 30 photos saved before system call \(call): lower runCalls")
                SystemCallKill.killTracee(of: process)
            }
            process.waitUntilExit()
            try? input.fileHandleForWriting.close()
            let saved = reader.finish()
            XCTAssertEqual(
                process.terminationReason, .uncaughtSignal, "round \(round): the child exited by itself")
            reported += saved

            let library = try PhotoLibrary.open(at: FilePath(dir.path), now: { systemWallNow() })
            let recovery = library.recoveryReport
            print(
                "crash round \(round): killed at system call \(call); "
                    + "\(saved.count) saved; recovery: \(recovery.isClean ? "clean" : recovery.lines.joined(separator: "; "))"
            )
            XCTAssertNil(recovery.rebuiltIndex, "round \(round): the database was damaged")
            XCTAssertEqual(recovery.missingFiles, [], "round \(round): originals went missing")
            let fsck = try library.fsck(verifyChecksums: true)
            XCTAssertTrue(fsck.isClean, "round \(round): " + fsck.lines.joined(separator: "\n"))
            for (id, path) in reported {
                guard let asset = try library.asset(id: id) else {
                    XCTFail("round \(round): photo \(id) was reported saved but is not in the library")
                    continue
                }
                XCTAssertEqual(library.fileURLPath(of: asset).string, path)
                let bytes = try library.originalData(of: asset)
                XCTAssertNoThrow(
                    try JPEGDecoder.decode(bytes, fittingIn: PixelSize(width: 64, height: 48)),
                    "round \(round): photo \(id) does not decode")
            }
        }
        XCTAssertGreaterThan(reported.count, 0, "no capture was ever reported saved: the test proved nothing")
    }

    /// Kills `pinhole library import` at seeded random moments: kills land in file writes,
    /// renames and batch commits. After each kill the library must open clean (partial files
    /// removed, unindexed originals adopted), every indexed photo must decode and be one of
    /// the sources; a last full import must converge to exactly the source set.
    func testKilledImportsConvergeToExactlyTheSourcePhotos() throws {
        let binary = try pinholeBinary(for: "crash test")
        let source = TemporaryDirectory("pinhole-crash-source")
        var sums: Set<String> = []
        for seed in 0..<40 {
            let jpeg = TestJPEG.noise(width: 320, height: 240, seed: UInt64(seed))
            writeFile(source.join("p\(seed).jpg"), contents: Data(jpeg))
            sums.insert(Checksum.string(for: jpeg))
        }
        let dir = TemporaryDirectory("pinhole-crash-import")
        var random = SeededRandom(seed: 0x1DEA)
        var adopted = 0, removed = 0, killed = 0
        for round in 0..<8 {
            // The fault injection itself: a seeded n-th write, sync, rename or unlink.
            let process = try SystemCallKill.process(
                killedAt: random.next(in: 1...SystemCallKill.importCalls), binary,
                ["library", "--library", dir.path, "import", source.path])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }

            let library = try PhotoLibrary.open(at: FilePath(dir.path), now: { systemWallNow() })
            let recovery = library.recoveryReport
            adopted += recovery.adoptedAssets.count
            removed += recovery.removedTempFiles.count
            XCTAssertNil(recovery.rebuiltIndex, "round \(round)")
            XCTAssertEqual(recovery.missingFiles, [], "round \(round)")
            XCTAssertEqual(
                recovery.quarantinedFiles, [], "round \(round): a partial original was renamed into place")
            let fsck = try library.fsck(verifyChecksums: true)
            XCTAssertTrue(fsck.isClean, "round \(round): " + fsck.lines.joined(separator: "\n"))
            for asset in try library.assets(.all) {
                XCTAssertTrue(
                    sums.contains(asset.checksum), "round \(round): \(asset.id) is not one of the sources")
                XCTAssertNoThrow(try JPEGDecoder.decode(try library.originalData(of: asset)))
            }
        }
        print(
            "import crash rounds: \(killed) of 8 killed, \(adopted) originals adopted, \(removed) partial files removed"
        )
        XCTAssertGreaterThanOrEqual(
            killed, 4, "half the imports were killed before they ended: lower importCalls")
        let library = try PhotoLibrary.open(at: FilePath(dir.path), now: { systemWallNow() })
        _ = try library.importFolder(FilePath(source.path))
        XCTAssertEqual(Set(try library.assets(.all).map(\.checksum)), sums)
        XCTAssertEqual(try library.count(.all), sums.count, "no photo was imported twice")
    }
}

/// Runs a program under strace, which SIGKILLs it on entry to its n-th write, pwrite, sync,
/// rename or unlink (strace counts each system call of each thread on its own: the kill comes
/// at the first that reaches n): a kill at a seeded point of the durable-write path.
enum SystemCallKill {
    /// The calls counted (`?`: names an architecture lacks are left out).
    static let calls = "write,pwrite64,fsync,fdatasync,?rename,renameat,renameat2,?unlink,unlinkat"
    /// Kill points for `run` with 30 captures: its library writer makes about 480 pwrites
    /// (strace -f -c), so every point is reached before the captures end.
    static let runCalls = 150
    /// Kill points for imports of 40 photos into a library that fills round by round: the
    /// first makes about 220 pwrites, later ones fewer.
    static let importCalls = 100

    /// The process (not started) of `binary arguments` killed at call `count`.
    static func process(killedAt count: Int, _ binary: URL, _ arguments: [String]) throws -> Process {
        _ = try ExternalTool.locate("/usr/bin/strace")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments =
            [
                "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(calls)",
                "-e", "inject=\(calls):signal=KILL:when=\(count)", "--", binary.path,
            ] + arguments
        return process
    }

    /// SIGKILLs the program strace runs (killing strace would only detach it).
    static func killTracee(of strace: Process) {
        let pid = strace.processIdentifier
        let children =
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ pid_t($0) }) { kill(child, SIGKILL) }
    }
}
