// Runs the built `pinhole` binary with piped standard input, for end-to-end tests.

import Foundation
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
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = try binary()
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(bytes ?? Array(input.utf8)))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
