// A minimal JPEG structure check: start/end markers and the frame size from the SOF segment.

/// Reads a JPEG's stored size without decoding it, and checks that the file is complete.
enum JPEGProbe {
    /// What the probe found.
    struct Info: Equatable {
        var width: Int
        var height: Int
    }

    /// The frame size, or a reason why `bytes` is not a complete baseline/progressive JPEG.
    static func inspect(_ bytes: [UInt8]) -> Result<Info, ProbeFailure> {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            return .failure(ProbeFailure(reason: "no JPEG start-of-image marker"))
        }
        guard bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
            return .failure(ProbeFailure(reason: "no end-of-image marker (file truncated?)"))
        }
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else {
                return .failure(ProbeFailure(reason: "bad marker at byte \(index)"))
            }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            if marker == 0xD9 || marker == 0xDA { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard index + 9 <= bytes.count else { break }
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                guard width > 0, height > 0 else {
                    return .failure(ProbeFailure(reason: "frame header has a zero dimension"))
                }
                return .success(Info(width: width, height: height))
            }
            index += 2 + length
        }
        return .failure(ProbeFailure(reason: "no frame header (SOF) before the image data"))
    }

    /// Why a probe failed.
    struct ProbeFailure: Error, Equatable {
        var reason: String
    }
}
