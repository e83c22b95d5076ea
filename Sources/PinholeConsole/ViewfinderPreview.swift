// Turns a viewfinder image into character cells: half blocks (two pixels a cell, ordered
// dithering) or ASCII shades, upright as the mount rotation says.

import PinholeCore

/// The console's live preview renderer.
public enum ViewfinderPreview {
    /// A luminance grid, row by row, 0…255.
    public struct Luma: Equatable, Sendable {
        /// Width.
        public var width: Int
        /// Height.
        public var height: Int
        /// Values, row by row.
        public var values: [UInt8]

        /// Creates a grid.
        public init(width: Int, height: Int, values: [UInt8]) {
            self.width = width
            self.height = height
            self.values = values
        }

        /// The value at (x, y).
        public subscript(x: Int, y: Int) -> UInt8 { values[y * width + x] }

        /// Auto levels: the 2nd…98th percentile spread over 0…255, so that a subject in a
        /// mostly mid-grey scene stands out in two-level half blocks. Flat images stay as they are.
        public func stretched() -> Luma {
            var histogram = [Int](repeating: 0, count: 256)
            for value in values { histogram[Int(value)] += 1 }
            let cut = values.count / 50
            var low = 0
            var seen = 0
            while low < 255, seen + histogram[low] <= cut {
                seen += histogram[low]
                low += 1
            }
            var high = 255
            seen = 0
            while high > 0, seen + histogram[high] <= cut {
                seen += histogram[high]
                high -= 1
            }
            guard high - low >= 16 else { return self }
            let mapped = values.map { UInt8(min(255, max(0, (Int($0) - low) * 255 / (high - low)))) }
            return Luma(width: width, height: height, values: mapped)
        }

        /// The grid rotated clockwise by 0, 90, 180 or 270 degrees.
        public func rotated(clockwise degrees: Int) -> Luma {
            let turns = ((degrees / 90) % 4 + 4) % 4
            guard turns != 0 else { return self }
            let newWidth = turns == 2 ? width : height
            let newHeight = turns == 2 ? height : width
            var out = [UInt8](repeating: 0, count: values.count)
            for y in 0..<newHeight {
                for x in 0..<newWidth {
                    let source: (Int, Int)
                    switch turns {
                    case 1: source = (y, height - 1 - x)
                    case 2: source = (width - 1 - x, height - 1 - y)
                    default: source = (width - 1 - y, x)
                    }
                    out[y * newWidth + x] = self[source.0, source.1]
                }
            }
            return Luma(width: newWidth, height: newHeight, values: out)
        }
    }

    /// Cells showing `image` in at most `columns`×`rows` cells, keeping its aspect ratio
    /// (a cell is about twice as tall as wide), turned upright for a camera mounted rotated
    /// `rotation` degrees clockwise.
    public static func cells(
        from image: RawImage, columns: Int, rows: Int, rotation: Int = 0,
        unicode: Bool = true
    ) -> [[ScreenCell]] {
        let upright = (rotation / 90) % 2 == 0
        let (width, height) = upright ? (image.width, image.height) : (image.height, image.width)
        guard width > 0, height > 0, columns > 0, rows > 0 else { return [] }
        // Pixels per cell: 1 wide, 2 tall (half blocks) or 1 tall (shades, averaged from 2).
        var cellColumns = columns
        var cellRows = max(1, Int((Double(columns) * Double(height) / Double(width) / 2).rounded()))
        if cellRows > rows {
            cellRows = rows
            cellColumns = max(
                1, min(columns, Int((Double(rows) * 2 * Double(width) / Double(height)).rounded())))
        }
        let sampleWidth = upright ? cellColumns : cellRows * 2
        let sampleHeight = upright ? cellRows * 2 : cellColumns
        guard let luma = sample(image, width: sampleWidth, height: sampleHeight) else { return [] }
        let grid = luma.rotated(clockwise: rotation).stretched()
        return unicode ? halfBlocks(grid) : shades(grid)
    }

    /// The image's luminance averaged down to `width`×`height` (box filter over a few
    /// samples a cell, so a large frame costs little).
    public static func sample(_ image: RawImage, width: Int, height: Int) -> Luma? {
        guard width > 0, height > 0, image.width > 0, image.height > 0, let plane = image.planes.first else {
            return nil
        }
        let read: (Int, Int) -> Int
        switch image.format {
        case .yuv420, .nv12:
            read = { x, y in Int(plane.bytes[y * plane.stride + x]) }
        case .rgb888:
            read = { x, y in
                let i = y * plane.stride + x * 3
                return
                    (Int(plane.bytes[i]) * 77 + Int(plane.bytes[i + 1]) * 150 + Int(plane.bytes[i + 2]) * 29)
                    >> 8
            }
        case .xrgb8888:
            read = { x, y in
                let i = y * plane.stride + x * 4  // memory order B, G, R, X
                return
                    (Int(plane.bytes[i + 2]) * 77 + Int(plane.bytes[i + 1]) * 150 + Int(plane.bytes[i]) * 29)
                    >> 8
            }
        }
        let needed =
            (image.height - 1) * plane.stride + image.width
            * (image.format == .rgb888 ? 3 : image.format == .xrgb8888 ? 4 : 1)
        guard plane.bytes.count >= needed else { return nil }
        var values = [UInt8](repeating: 0, count: width * height)
        let samples = 3
        for y in 0..<height {
            let y0 = y * image.height / height
            let y1 = max(y0 + 1, (y + 1) * image.height / height)
            for x in 0..<width {
                let x0 = x * image.width / width
                let x1 = max(x0 + 1, (x + 1) * image.width / width)
                var sum = 0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        sum += read(
                            x0 + (x1 - x0) * (2 * sx + 1) / (2 * samples),
                            y0 + (y1 - y0) * (2 * sy + 1) / (2 * samples))
                    }
                }
                values[y * width + x] = UInt8(sum / (samples * samples))
            }
        }
        return Luma(width: width, height: height, values: values)
    }

    /// 4×4 Bayer thresholds, 0…255.
    private static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map {
        $0 * 16 + 8
    }

    /// Two pixels a cell: ' ', '▀', '▄', '█' from dithered luminance.
    static func halfBlocks(_ grid: Luma) -> [[ScreenCell]] {
        let blocks: [Character] = [" ", "▀", "▄", "█"]
        return stride(from: 0, to: grid.height - 1, by: 2).map { y in
            (0..<grid.width).map { x in
                let top = Int(grid[x, y]) > bayer[(y % 4) * 4 + x % 4] ? 1 : 0
                let bottom = Int(grid[x, y + 1]) > bayer[((y + 1) % 4) * 4 + x % 4] ? 2 : 0
                return ScreenCell(character: blocks[top + bottom], style: .plain)
            }
        }
    }

    /// One shade a cell from two pixels, for terminals without Unicode.
    static func shades(_ grid: Luma) -> [[ScreenCell]] {
        let ramp = Array(" .:-=+*#%@")
        return stride(from: 0, to: grid.height - 1, by: 2).map { y in
            (0..<grid.width).map { x in
                let level = (Int(grid[x, y]) + Int(grid[x, y + 1])) / 2
                return ScreenCell(
                    character: ramp[min(ramp.count - 1, level * ramp.count / 256)], style: .plain)
            }
        }
    }
}
