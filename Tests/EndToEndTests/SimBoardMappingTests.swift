// The simulated board maps none of libcamera nor libav: their shims are loaded only when a camera or a clip needs them.

import Foundation
import XCTest

final class SimBoardMappingTests: XCTestCase {
    /// Reads /proc/PID/maps and the thread names of a running `pinhole run --board sim` once it
    /// has answered its first command.
    func testARunningSimulatedBoardMapsNoLibcameraNorLibav() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let process = Process()
        process.executableURL = try PinholeProcess.binary()
        process.arguments = ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data("status\n".utf8))
        let answer = readLine(output.fileHandleForReading)
        XCTAssertTrue(answer.hasPrefix("ok"), answer)

        let pid = process.processIdentifier
        let maps = try procText("/proc/\(pid)/maps")
        XCTAssertTrue(maps.contains(process.executableURL!.lastPathComponent), "the maps were read")
        let libcamera = maps.split(separator: "\n").filter {
            $0.contains("libcamera") || $0.contains("libPinholeCamera") || $0.contains("lttng")
        }
        XCTAssertEqual(libcamera, [], "pinhole on the simulated board maps libcamera")
        // Nothing recorded or read a clip: the video shim and libav stay unloaded.
        let libav = maps.split(separator: "\n").filter {
            $0.contains("libavcodec") || $0.contains("libavformat") || $0.contains("libavutil")
                || $0.contains("libPinholeVideo")
        }
        XCTAssertEqual(libav, [], "pinhole on the simulated board maps libav before any video")
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").map {
            (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? ""
        }
        XCTAssertEqual(threads.filter { $0.hasPrefix("lttng") }, [], "no lttng threads: \(threads)")
        input.fileHandleForWriting.write(Data("quit\n".utf8))
    }

    private func readLine(_ handle: FileHandle) -> String {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([10]) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// A /proc file read to its end (its size reads as 0, so a one-shot read stops at a page).
    private func procText(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
