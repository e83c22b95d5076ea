// CRC-32 (IEEE 802.3, as zlib and `crc32(1)` compute it) of original files.

/// CRC-32 checksums, formatted as `crc32:xxxxxxxx`.
enum Checksum {
    /// The 256-entry lookup table for the reflected polynomial 0xEDB88320.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { buffer in
                for byte in buffer {
                    crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The stored form: `crc32:` followed by eight lowercase hex digits.
    static func string(for bytes: [UInt8]) -> String {
        let hex = String(crc32(bytes), radix: 16)
        return "crc32:" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
