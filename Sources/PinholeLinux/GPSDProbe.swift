// Asks a gpsd for its VERSION banner over TCP (the doctor's gpsd item).

import PinholeSystem
import SystemPackage

/// Connects to gpsd and reads the `{"class":"VERSION",…,"release":"…"}` line it sends first.
public enum GPSDProbe {
    /// Why gpsd did not answer as gpsd.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        /// What went wrong.
        public var description: String
    }

    /// gpsd's release, e.g. "3.22"; throws what went wrong. Waits at most `timeoutMs` to
    /// connect and as long again for the line; the socket is closed on every path.
    public static func version(host: String, port: Int, timeoutMs: Int32 = 2000) throws -> String {
        let socket = try TCPClient.connect(host: host, port: port, timeoutMs: timeoutMs)
        let text = try socket.closeAfter { try firstLine(socket, timeoutMs: timeoutMs) }
        guard text.contains("\"class\":\"VERSION\""), let range = text.firstRange(of: "\"release\":\"") else {
            throw Failure(description: "not gpsd (no VERSION line)")
        }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    /// What the server sends up to its first newline (at most 4 KiB), within `timeoutMs`.
    private static func firstLine(_ socket: FileDescriptor, timeoutMs: Int32) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !bytes.contains(0x0A) && bytes.count < 4096 {
            guard try FileDescriptor.waitForInput([socket], timeoutMs: timeoutMs)[0].any else {
                throw Failure(description: "no VERSION line within \(timeoutMs) ms")
            }
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try socket.read(into: $0) }
            } catch let code as Errno where code == .wouldBlock {
                continue
            }
            guard count > 0 else { throw Failure(description: "closed before its VERSION line") }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
