// End to end: the simulated board scripted through line mode, checked with real decoders.

import Foundation
import PinholeImaging
import PinholeTestTools
import XCTest

final class WalkingSkeletonTests: XCTestCase {
    private func photos(inListing line: String) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try XCTUnwrap(json as? [[String: Any]], "not a JSON list: \(line)")
    }

    func testBouncyShutterPressGivesOnePhotoWithExifThatSurvivesARestart() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let first = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path],
            input: "sim press shutter --bounce 5\nlibrary list --json\nquit\n")
        XCTAssertEqual(first.status, 0, first.error)
        let lines = first.lines
        XCTAssertEqual(lines.count, 3, first.output)
        XCTAssertTrue(lines[0].hasPrefix("ok pressed shutter"), lines[0])
        XCTAssertEqual(
            lines[0].components(separatedBy: "saved ").count - 1, 1, "exactly one photo saved: \(lines[0])")
        XCTAssertEqual(lines[2], "ok bye")
        let listed = try photos(inListing: lines[1])
        XCTAssertEqual(listed.count, 1)
        let photo = try XCTUnwrap(listed.first)
        let file = try XCTUnwrap(photo["file"] as? String)
        let id = try XCTUnwrap(photo["id"] as? String)

        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let decoded = try JPEGDecoder.decode(jpeg, fittingIn: nil)
        XCTAssertEqual(decoded.width, 4056)
        XCTAssertEqual(decoded.height, 3040)
        let exif = try ExifReader.read(jpeg: jpeg)
        XCTAssertEqual(exif.make, "Pinhole")
        XCTAssertEqual(exif.model, "imx477")
        XCTAssertEqual(exif.orientation, .up)
        XCTAssertNotNil(exif.captureTime)
        XCTAssertNotNil(exif.exposureTime)
        XCTAssertNotNil(exif.iso)

        let second = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path],
            input: "library list --json\nquit\n")
        XCTAssertEqual(second.status, 0, second.error)
        let again = try photos(inListing: second.lines[0])
        XCTAssertEqual(again.map { $0["id"] as? String }, [id])
    }

    func testExternalValidatorsAcceptTheSavedPhoto() throws {
        let exiftool = try ExternalTool.locate("/usr/bin/exiftool")
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"],
            input: "capture --json\n")
        let answer = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [String: Any],
            run.output + run.error)
        let file = try XCTUnwrap(answer["file"] as? String)
        let validator = Process()
        validator.executableURL = URL(fileURLWithPath: exiftool)
        validator.arguments = ["-validate", "-warning", "-a", "-s3", file]
        let pipe = Pipe()
        validator.standardOutput = pipe
        try validator.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "OK")
    }

    func testLineModeAnswersErrorsWithAStatusAndReason() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"],
            input:
                "frobnicate\ntorch sideways\ncamera switch\ntorch on\nsim press bogus\nstatus --json\nquit\n")
        let lines = run.lines
        XCTAssertEqual(lines.count, 7, run.output)
        XCTAssertTrue(lines[0].hasPrefix("error 64: unknown command 'frobnicate'"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("error 64: usage: torch on|off"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("ok camera ") && lines[2].hasSuffix("front"), lines[2])
        XCTAssertTrue(lines[3].contains("has no torch"), lines[3])
        XCTAssertTrue(lines[4].hasPrefix("error 64: unknown button 'bogus'"), lines[4])
        let status = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(lines[5].utf8)) as? [String: Any])
        XCTAssertEqual((status["camera"] as? [String: Any])?["position"] as? String, "front")
        XCTAssertEqual(status["torch"] as? Bool, false)
    }

    func testCameraListReportsBothSimulatedCameras() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"],
            input: "camera list --json\n")
        let cameras = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [[String: Any]])
        XCTAssertEqual(cameras.map { $0["position"] as? String }, ["back", "front"])
        XCTAssertEqual(cameras.map { $0["pixelArraySize"] as? String }, ["4056x3040", "2592x1944"])
        XCTAssertEqual(cameras.map { $0["torch"] as? Bool }, [true, false])
        XCTAssertEqual(cameras.map { $0["focus"] as? String }, ["motorized", "fixed"])
    }

    func testBadBoardProfileNamesFileLineAndReason() throws {
        let directory = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = directory.appendingPathComponent("board.toml")
        try "[board]\nname = \"x\"\n\n[buttons.shutter]\nline = \"GPIO17\"\nbias = \"sideways\"\n"
            .write(to: profile, atomically: true, encoding: .utf8)
        let run = try PinholeProcess.run(["board", "check", profile.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.error.contains("\(profile.path):6: bias 'sideways' is not one of"), run.error)
    }
}
