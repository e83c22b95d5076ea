// Runs the built `pinhole` binary with piped standard input, for end-to-end tests.

import Foundation
import PinholeTestTools
import XCTest

/// The result of one run of the binary.
struct ProcessResult {
    var status: Int32
    var output: String
    var error: String

    var lines: [String] { output.split(separator: "\n").map(String.init) }
}

enum PinholeProcess {
    /// The `pinhole` binary next to the test bundle (both live in the build's bin directory;
    /// this target depends on `pinhole`, so building the tests builds it).
    static func binary() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("pinhole")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw MissingBinary()
    }

    /// The binary is not next to the tests although building them builds it.
    struct MissingBinary: Error, CustomStringConvertible {
        var description: String {
            "the pinhole binary is not next to the tests: build them with `swift build --build-tests`"
        }
    }

    /// Runs `pinhole arguments…` with `input` on standard input and waits for it to exit.
    static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:],
        bytes: [UInt8]? = nil, directory: URL? = nil
    ) throws -> ProcessResult {
        let result = try ExternalTool.run(
            try binary().path, arguments, input: bytes ?? Array(input.utf8), environment: environment,
            directory: directory?.path)
        return ProcessResult(status: result.status, output: result.outputText, error: result.errorText)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
