// Stable unique identifiers for assets, albums and folders (UUID version 7).

import PinholeCore

/// Generates identifiers: UUID version 7 strings (time-ordered, 74 random bits), lowercase.
enum Identifier {
    /// A new identifier whose leading 48 bits are `time` in milliseconds since the epoch.
    static func make(at time: WallTime) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        let millis = UInt64(max(0, time.secondsSince1970 * 1000 + Int64(time.nanoseconds / 1_000_000)))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - index))) }
        for index in 6..<16 { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }

    /// The time encoded in an identifier's leading 48 bits (UTC), or nil if it is malformed.
    static func time(of id: String) -> WallTime? {
        guard isValid(id) else { return nil }
        let hex = id.replacingDashes().prefix(12)
        guard let millis = Int64(hex, radix: 16) else { return nil }
        return WallTime(secondsSince1970: millis / 1000, nanoseconds: Int32(millis % 1000) * 1_000_000)
    }

    /// Whether `text` has the shape of an identifier (36 characters, hex digits and dashes).
    static func isValid(_ text: String) -> Bool {
        guard text.utf8.count == 36 else { return false }
        for (index, char) in text.utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if char != UInt8(ascii: "-") { return false }
            } else if !((char >= 48 && char <= 57) || (char >= 97 && char <= 102)) {
                return false
            }
        }
        return true
    }
}

extension String {
    /// The string without "-" characters.
    fileprivate func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
