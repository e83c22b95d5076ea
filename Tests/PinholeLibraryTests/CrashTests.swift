// Crash test: SIGKILL the running appliance at seeded random moments during a stream of captures.

import Foundation
import PinholeCore
import PinholeImaging
import Synchronization
import XCTest

@testable import PinholeLibrary

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

    /// Waits for end of output (after the child died) and returns every reported photo.
    func finish() -> [(id: String, path: String)] {
        while !state.withLock({ $0.ended }) { _ = signal.wait(timeout: .now() + .seconds(30)) }
        return state.withLock { $0.saved }
    }
}

final class CrashTests: XCTestCase {
    /// Each round starts `pinhole run --board sim` on the same library, streams `capture`
    /// commands, waits for a seeded number of saved photos plus a seeded delay (the random
    /// kill moment, which may fall in start-up, encoding, the file write or the commit), then
    /// SIGKILLs it. After each kill the library must open, fsck must be clean with checksums
    /// verified, and every photo ever reported saved must be present and decode.
    func testKilledAtRandomMomentsTheLibraryKeepsEveryReportedPhoto() throws {
        let binary = try pinholeBinary(for: "crash test")
        let dir = TemporaryDirectory("pinhole-crash")
        let rounds = Int(ProcessInfo.processInfo.environment["PINHOLE_CRASH_ROUNDS"] ?? "") ?? 5
        var random = SeededRandom(seed: 0x00C0_FFEE)
        var reported: [(id: String, path: String)] = []

        for round in 0..<rounds {
            let wantSaved = random.next(in: 0...2)
            let delayMicroseconds = random.next(in: 0...2_500) * 1000
            let process = Process()
            process.executableURL = binary
            process.arguments = ["run", "--board", "sim", "--library", dir.path, "--clock", "virtual"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let reader = SavedLineReader()
            reader.start(output.fileHandleForReading)
            input.fileHandleForWriting.write(
                Data(("camera switch\n" + String(repeating: "capture\n", count: 30)).utf8))

            XCTAssertTrue(
                reader.waitForSaved(wantSaved, guardSeconds: 300), "round \(round): no progress in 300 s")
            // The fault injection itself: a seeded pause picks the moment of the kill.
            usleep(UInt32(delayMicroseconds))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? input.fileHandleForWriting.close()
            let saved = reader.finish()
            XCTAssertEqual(
                process.terminationReason, .uncaughtSignal, "round \(round): the child exited by itself")
            reported += saved

            let library = try PhotoLibrary.open(at: dir.path, now: { systemWallNow() })
            let recovery = library.recoveryReport
            print(
                "crash round \(round): kill after \(wantSaved) saved + \(delayMicroseconds / 1000) ms; "
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
                XCTAssertEqual(library.fileURLPath(of: asset), path)
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
        var adopted = 0, removed = 0
        for round in 0..<8 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["library", "--library", dir.path, "import", source.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The fault injection itself: a seeded pause picks the moment of the kill.
            usleep(UInt32(random.next(in: 0...600) * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let library = try PhotoLibrary.open(at: dir.path, now: { systemWallNow() })
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
        print("import crash rounds: \(adopted) originals adopted, \(removed) partial files removed")
        let library = try PhotoLibrary.open(at: dir.path, now: { systemWallNow() })
        _ = try library.importFolder(source.path)
        XCTAssertEqual(Set(try library.assets(.all).map(\.checksum)), sums)
        XCTAssertEqual(try library.count(.all), sums.count, "no photo was imported twice")
    }
}
