// The output pump: what is queued counts as pending until written, and drain waits for it
// (bounded), so a console's last bytes reach the terminal before it is handed back.

import PinholeSystem
import SystemPackage
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class OutputPumpTests: XCTestCase {
    func testDrainWaitsUntilTheQueuedBytesAreWrittenAndGivesUpOnAPipeNobodyReads() throws {
        let pipe = try FileDescriptor.pipe(options: .closeOnExec)
        defer {
            try? pipe.readEnd.close()
            try? pipe.writeEnd.close()
        }
        // Fill the pipe to its capacity, so the pump's write blocks until the test reads.
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 8), not in Glibc's module
        let capacity = Int(fcntl(pipe.writeEnd.rawValue, getPipeSize))
        XCTAssertGreaterThan(capacity, 0)
        XCTAssertEqual(try pipe.writeEnd.writeAll([UInt8](repeating: 0x2E, count: capacity)), capacity)

        let pump = OutputPump(fd: pipe.writeEnd.rawValue)
        pump.send(Array("\u{1B}[24;1H\r\n".utf8))
        XCTAssertEqual(pump.pendingBytes, 9, "bytes being written still count as pending")
        XCTAssertFalse(pump.drain(withinSeconds: 0.05), "nobody reads: the drain gives up")
        XCTAssertEqual(pump.pendingBytes, 9)

        var filler = [UInt8](repeating: 0, count: capacity)
        var read = 0
        while read < capacity {
            read += try filler.withUnsafeMutableBytes {
                try pipe.readEnd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[read...]))
            }
        }
        XCTAssertTrue(pump.drain(withinSeconds: 60))
        XCTAssertEqual(pump.pendingBytes, 0)
        XCTAssertEqual(try FileDescriptor.waitForInput([pipe.readEnd], timeoutMs: 0).map(\.readable), [true])
        var tail = [UInt8](repeating: 0, count: 64)
        let count = try tail.withUnsafeMutableBytes { try pipe.readEnd.read(into: $0) }
        XCTAssertEqual(String(decoding: tail[..<count], as: UTF8.self), "\u{1B}[24;1H\r\n")
        pump.retarget(-1)
    }
}
