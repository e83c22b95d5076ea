// CRC-32 (IEEE 802.3, as zlib and `crc32(1)` compute it) of original files, sliced by 8 bytes.

/// CRC-32 checksums, formatted as `crc32:xxxxxxxx`.
enum Checksum {
    /// Eight 256-entry tables for the reflected polynomial 0xEDB88320 (slicing-by-8).
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for index in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    /// The CRC-32 of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(0xFFFF_FFFF, with: $0) } ^ 0xFFFF_FFFF
    }

    /// A running CRC-32 over more bytes: start from 0xFFFFFFFF, feed every chunk in order, and
    /// XOR the result with 0xFFFFFFFF at the end (what `crc32(_:)` does for one chunk).
    static func update(_ running: UInt32, with buffer: UnsafeRawBufferPointer) -> UInt32 {
        var crc = running
        tables.withUnsafeBufferPointer { t in
            var index = 0
            let count = buffer.count
            while index + 8 <= count {
                let low =
                    crc
                    ^ (UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8
                        | UInt32(buffer[index + 2]) << 16 | UInt32(buffer[index + 3]) << 24)
                let high =
                    UInt32(buffer[index + 4]) | UInt32(buffer[index + 5]) << 8
                    | UInt32(buffer[index + 6]) << 16 | UInt32(buffer[index + 7]) << 24
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc
    }

    /// The stored form: `crc32:` followed by eight lowercase hex digits.
    static func string(for bytes: [UInt8]) -> String {
        string(crc32: crc32(bytes))
    }

    /// The stored form of the CRC-32 of the file at `path`, read a piece at a time (a clip).
    static func string(ofFile path: String) throws -> String {
        var crc: UInt32 = 0xFFFF_FFFF
        try POSIXFiles.forEachChunk(of: path) { crc = update(crc, with: $0) }
        return string(crc32: crc ^ 0xFFFF_FFFF)
    }

    /// The stored form of a CRC-32 value.
    static func string(crc32 value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "crc32:" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
