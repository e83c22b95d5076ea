// End to end: `gpio status --json`, `sim tilt` into the EXIF orientation, `sim hold`/`sim release`.

import Foundation
import PinholeImaging
import XCTest

final class GPIOConsoleTests: XCTestCase {
    func testTiltCaptureAndGPIOStatusThroughTheLineMode() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let script = """
            sim tilt 90 --bounce 4
            capture --json
            sim hold half_press --bounce 3
            gpio status --json
            sim release half_press
            gpio status
            quit

            """
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"],
            input: script)
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.lines
        XCTAssertEqual(lines.count, 7, run.output)
        XCTAssertEqual(lines[0], "ok tilt 90 orientation 6")

        let capture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let file = try XCTUnwrap(capture["file"] as? String)
        let exif = try ExifReader.read(jpeg: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        XCTAssertEqual(exif.orientation, .right)

        XCTAssertEqual(lines[2], "ok holding half_press")
        let status = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
        let inputs = try XCTUnwrap(status["inputs"] as? [[String: Any]])
        let half = try XCTUnwrap(inputs.first { $0["function"] as? String == "half_press" })
        XCTAssertEqual(half["pressed"] as? Bool, true)
        XCTAssertEqual(half["line"] as? String, "GPIO5")
        let outputs = try XCTUnwrap(status["outputs"] as? [[String: Any]])
        XCTAssertEqual(outputs.first { $0["function"] as? String == "status" }?["on"] as? Bool, true)
        XCTAssertEqual((status["tilt"] as? [String: Any])?["rotation"] as? Int, 90)
        XCTAssertEqual((status["shutter"] as? [String: Any])?["locked"] as? Bool, true)

        XCTAssertEqual(lines[4], "ok released half_press")
        XCTAssertTrue(lines[5].hasPrefix("ok inputs half_press GPIO5 released"), lines[5])
        XCTAssertTrue(lines[5].contains("status GPIO23 on"), lines[5])
    }

    func testTiltOnABadAngleIsAUsageError() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path],
            input: "sim tilt 45\ngpio status --verbose\nquit\n")
        XCTAssertEqual(run.lines.first, "error 64: tilt 45: use one of 0, 90, 180, 270")
        XCTAssertEqual(run.lines.dropFirst().first, "error 64: usage: gpio status [--json]")
    }

    func testTheShutdownChordEndsTheProcessCleanly() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        // The last two commands are never answered: the chord stops the appliance first.
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"],
            input: "sim hold torch\nsim hold shutter\nsim wait 6000\nstatus\n")
        XCTAssertEqual(run.status, 0, run.error)
        // What happened while the holds were pending is written after their answers (the
        // torch, the held shutter's photo), nothing dropped.
        XCTAssertEqual(run.lines.count, 5, run.output)
        XCTAssertEqual(
            run.lines.filter { !$0.hasPrefix("event saved ") },
            [
                "ok holding torch", "event torch on", "ok holding shutter",
                "event shutdown shutter + torch held 5 s",
            ])
        XCTAssertEqual(run.lines.filter { $0.hasPrefix("event saved ") }.count, 1, run.output)
        XCTAssertTrue(run.error.contains("pinhole: shutter + torch held 5 s: shutting down"), run.error)
    }

    /// Starts `pinhole run` on the simulated board, turns the torch on, sends `signal`, and
    /// returns the exit status and standard error.
    private func torchOnThenSignal(_ signal: Int32) throws -> (status: Int32, error: String) {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let process = Process()
        process.executableURL = try PinholeProcess.binary()
        process.arguments = ["run", "--board", "sim", "--library", library.path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("torch on\n".utf8))
        var answer = ""
        while !answer.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            answer += String(decoding: data, as: UTF8.self)
        }
        XCTAssertEqual(answer, "ok torch on\n")
        kill(process.processIdentifier, signal)
        let error = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (process.terminationStatus, error)
    }

    func testSIGTERMAndSIGINTTurnEveryOutputOffAndExitCleanly() throws {
        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            let run = try torchOnThenSignal(signal)
            XCTAssertEqual(run.status, 0, run.error)
            XCTAssertTrue(run.error.contains("pinhole: \(name): shutting down"), run.error)
            XCTAssertTrue(run.error.contains("pinhole: outputs at exit: all off"), run.error)
        }
    }
}
