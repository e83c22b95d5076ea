// Several originals as one ZIP archive, streamed file by file: never built in memory.

import HTTPTypes
import Hummingbird
import NIOCore
import _NIOFileSystem
import SystemPackage

/// A ZIP archive (stored, not compressed: JPEGs do not shrink) written as it is sent. Each
/// entry's CRC-32 and size follow its data in a data descriptor, so nothing is read twice;
/// the central directory comes last. Archives stay under 4 GiB (no ZIP64).
enum ZipResponse {
    /// The largest archive served.
    static let maximumBytes: Int64 = 4_000_000_000

    /// The archive of `files`, each write within `stallGuard`'s limit.
    static func respond(
        files: [(path: FilePath, size: Int64, name: String)], stallGuard: StallGuard
    ) throws -> Response {
        guard !files.isEmpty else { throw HTTPError(.notFound) }
        guard files.reduce(0, { $0 + $1.size }) < maximumBytes else {
            throw HTTPError(.contentTooLarge, message: "the archive would pass 4 GB: choose fewer photos")
        }
        var seen = Set<String>()
        let entries = files.map { file -> (String, String) in
            var name = file.name
            while !seen.insert(name).inserted { name = "_" + name }
            return (file.path.string, name)
        }
        let headers: HTTPFields = [
            .contentType: "application/zip",
            .contentDisposition: "attachment; filename=\"pinhole-\(files.count)-photos.zip\"",
        ]
        let body = ResponseBody { writer in
            var directory = ZipDirectory()
            for (path, name) in entries {
                var crc = CRC32()
                var length = 0
                try await stallGuard.write(ByteBuffer(bytes: directory.localHeader(name: name)), to: &writer)
                try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
                    for try await chunk in handle.readChunks(chunkLength: .kibibytes(128)) {
                        chunk.withUnsafeReadableBytes { crc.update($0) }
                        length += chunk.readableBytes
                        try await stallGuard.write(chunk, to: &writer)
                    }
                }
                try await stallGuard.write(
                    ByteBuffer(bytes: directory.finishEntry(crc: crc.value, size: length)), to: &writer)
            }
            try await stallGuard.write(ByteBuffer(bytes: directory.end()), to: &writer)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}

/// The ZIP format's records (APPNOTE 6.3: local header with bit 3, data descriptor, central
/// directory, end record), as bytes.
struct ZipDirectory {
    private var central: [UInt8] = []
    private var offset = 0
    private var count = 0
    private var pending: (name: [UInt8], offset: Int)?

    /// The local header of the next entry (sizes and CRC follow its data).
    mutating func localHeader(name: String) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        var out: [UInt8] = []
        out.le32(0x0403_4b50)
        out.le16(20)
        out.le16(0x0808)  // bit 3: data descriptor; bit 11: UTF-8 name
        out.le16(0)  // stored
        out.le16(0)
        out.le16(0x21)  // 1980-01-01
        out.le32(0)
        out.le32(0)
        out.le32(0)
        out.le16(UInt16(nameBytes.count))
        out.le16(0)
        out += nameBytes
        pending = (nameBytes, offset)
        offset += out.count
        return out
    }

    /// The data descriptor after an entry's `size` bytes, recording it for the directory.
    mutating func finishEntry(crc: UInt32, size: Int) -> [UInt8] {
        guard let (name, start) = pending else { return [] }
        pending = nil
        var out: [UInt8] = []
        out.le32(0x0807_4b50)
        out.le32(crc)
        out.le32(UInt32(size))
        out.le32(UInt32(size))
        central.le32(0x0201_4b50)
        central.le16(0x031E)  // made by: UNIX, 3.0
        central.le16(20)
        central.le16(0x0808)
        central.le16(0)
        central.le16(0)
        central.le16(0x21)
        central.le32(crc)
        central.le32(UInt32(size))
        central.le32(UInt32(size))
        central.le16(UInt16(name.count))
        central.le16(0)
        central.le16(0)
        central.le16(0)
        central.le16(0)
        central.le32(0o100644 << 16)
        central.le32(UInt32(start))
        central += name
        offset += size + out.count
        count += 1
        return out
    }

    /// The central directory and the end record.
    func end() -> [UInt8] {
        var out = central
        out.le32(0x0605_4b50)
        out.le16(0)
        out.le16(0)
        out.le16(UInt16(count))
        out.le16(UInt16(count))
        out.le32(UInt32(central.count))
        out.le32(UInt32(offset))
        out.le16(0)
        return out
    }
}

/// CRC-32 (ISO 3309, the polynomial ZIP uses), table-driven.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
    private var state: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes { state = Self.table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8) }
    }

    var value: UInt32 { state ^ 0xFFFF_FFFF }
}

extension [UInt8] {
    fileprivate mutating func le16(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func le32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
}
