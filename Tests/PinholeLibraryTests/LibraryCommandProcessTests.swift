// Tests of `pinhole library …` as a process: JSON output, exit status, errors on standard error.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class LibraryCommandProcessTests: LibraryTestCase {
    /// Runs `pinhole arguments…`; returns the exit status, standard output and standard error.
    private func pinhole(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        Int32, String, String
    ) {
        let process = Process()
        process.executableURL = try pinholeBinary(for: "pinhole library process test")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: out, as: UTF8.self),
            String(decoding: err, as: UTF8.self)
        )
    }

    func testListJSONFsckStatusAndErrors() throws {
        let asset: Asset
        do {
            let library = try openLibrary()
            asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        }
        let (status, output, _) = try pinhole(["library", "--library", dir.path, "list", "--json"])
        XCTAssertEqual(status, 0)
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.first?["id"] as? String, asset.id)
        XCTAssertEqual(array.first?["file"] as? String, dir.join(asset.path))

        // The directory may also come from the environment, and after the command word.
        XCTAssertEqual(
            try pinhole(["library", "count"], environment: ["PINHOLE_LIBRARY": dir.path]).1, "1\n")
        XCTAssertEqual(try pinhole(["library", "count", "--library", dir.path]).1, "1\n")

        XCTAssertEqual(try pinhole(["library", "--library", dir.path, "fsck"]).0, 0)
        try FileManager.default.removeItem(atPath: dir.join(asset.path))
        let (fsckStatus, fsckOutput, _) = try pinhole(["library", "--library", dir.path, "fsck", "--json"])
        XCTAssertEqual(fsckStatus, 1, "fsck fails when the library is not clean")
        XCTAssertTrue(fsckOutput.contains("\"clean\":false"), fsckOutput)

        let (badStatus, _, badError) = try pinhole(["library", "--library", dir.path, "show", "nope"])
        XCTAssertNotEqual(badStatus, 0)
        XCTAssertTrue(badError.contains("no photo with id nope"), badError)

        let missing = dir.join("absent")
        let (absentStatus, _, absentError) = try pinhole(["library", "--library", missing, "list"])
        XCTAssertNotEqual(absentStatus, 0)
        XCTAssertTrue(absentError.contains("no photo library at \(missing)"), absentError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "a read-only command creates nothing")
    }
}
