// Checks that a raw image's planes are large enough for its format, size and strides.

import PinholeCore

extension RawImage {
    /// Width of each chroma plane of a 4:2:0 image.
    var chromaWidth: Int { (width + 1) / 2 }
    /// Height of each chroma plane of a 4:2:0 image.
    var chromaHeight: Int { (height + 1) / 2 }

    /// Throws `ImagingError.invalidImage` unless every plane holds its rows at its stride.
    func validate() throws {
        guard width > 0, height > 0, width <= 65_500, height <= 65_500 else {
            throw ImagingError.invalidImage(detail: "size \(width)x\(height) is outside 1...65500 on a side")
        }
        let expected: [(name: String, rowBytes: Int, rows: Int)]
        switch format {
        case .yuv420:
            expected = [
                ("Y", width, height), ("U", chromaWidth, chromaHeight), ("V", chromaWidth, chromaHeight),
            ]
        case .nv12:
            expected = [("Y", width, height), ("UV", chromaWidth * 2, chromaHeight)]
        case .rgb888:
            expected = [("RGB", width * 3, height)]
        case .xrgb8888:
            expected = [("XRGB", width * 4, height)]
        }
        guard planes.count == expected.count else {
            throw ImagingError.invalidImage(
                detail: "\(format.rawValue) needs \(expected.count) planes, the image has \(planes.count)")
        }
        for (plane, want) in zip(planes, expected) {
            guard plane.stride >= want.rowBytes else {
                throw ImagingError.invalidImage(
                    detail:
                        "\(want.name) plane stride \(plane.stride) is less than its row of \(want.rowBytes) bytes"
                )
            }
            let needed = plane.stride * (want.rows - 1) + want.rowBytes
            guard plane.bytes.count >= needed else {
                throw ImagingError.invalidImage(
                    detail:
                        "\(want.name) plane has \(plane.bytes.count) bytes, \(width)x\(height) needs \(needed)"
                )
            }
        }
    }
}
