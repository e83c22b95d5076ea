// Measures on viewfinder images: sharpness inside an AF window, and a coarse scene signature.

import PinholeCore

/// Figures computed from a viewfinder image's luma, for contrast AF and scene-change detection.
public enum SharpnessMeter {
    /// Normalized gradient energy inside `window` (normalized 0…1 coordinates): the mean of the
    /// squared horizontal and vertical luma differences, divided by the squared mean luma so
    /// that exposure changes do not look like focus changes. Higher is sharper.
    public static func sharpness(of image: RawImage, in window: NormalizedRect) -> Double {
        let luma = LumaView(image)
        let x0 = max(0, min(image.width - 2, Int(window.x * Double(image.width))))
        let y0 = max(0, min(image.height - 2, Int(window.y * Double(image.height))))
        let x1 = max(x0 + 2, min(image.width, Int((window.x + window.width) * Double(image.width))))
        let y1 = max(y0 + 2, min(image.height, Int((window.y + window.height) * Double(image.height))))
        var energy = 0.0
        var total = 0.0
        var count = 0.0
        for y in y0..<(y1 - 1) {
            for x in x0..<(x1 - 1) {
                let here = luma[x, y]
                let dx = luma[x + 1, y] - here
                let dy = luma[x, y + 1] - here
                energy += dx * dx + dy * dy
                total += here
                count += 1
            }
        }
        let mean = max(total / max(count, 1), 1)
        return energy / max(count, 1) / (mean * mean) * 1000
    }

    /// A coarse signature of the scene: the mean luma of an 8×6 grid of blocks, divided by the
    /// overall mean (so that exposure changes do not count as scene changes).
    public static func signature(of image: RawImage) -> [Double] {
        let luma = LumaView(image)
        let columns = 8
        let rows = 6
        var blocks = [Double](repeating: 0, count: columns * rows)
        let stepX = max(1, image.width / (columns * 8))
        let stepY = max(1, image.height / (rows * 8))
        var counts = [Double](repeating: 0, count: columns * rows)
        var y = 0
        while y < image.height {
            var x = 0
            while x < image.width {
                let block = (y * rows / image.height) * columns + x * columns / image.width
                blocks[block] += luma[x, y]
                counts[block] += 1
                x += stepX
            }
            y += stepY
        }
        for index in blocks.indices { blocks[index] /= max(counts[index], 1) }
        let mean = max(blocks.reduce(0, +) / Double(blocks.count), 1)
        return blocks.map { $0 / mean }
    }

    /// How different two signatures are: the mean absolute difference of their blocks
    /// (0 identical; above about 0.1 a different scene).
    public static func difference(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 1 }
        return zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(a.count)
    }
}

/// Luma of any image format Pinhole handles, pixel by pixel.
struct LumaView {
    private let image: RawImage

    init(_ image: RawImage) { self.image = image }

    subscript(x: Int, y: Int) -> Double {
        let plane = image.planes[0]
        switch image.format {
        case .yuv420, .nv12:
            return Double(plane.bytes[y * plane.stride + x])
        case .rgb888:
            let base = y * plane.stride + x * 3
            return luma(plane.bytes[base], plane.bytes[base + 1], plane.bytes[base + 2])
        case .xrgb8888:
            let base = y * plane.stride + x * 4
            return luma(plane.bytes[base + 2], plane.bytes[base + 1], plane.bytes[base])
        }
    }

    private func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
        0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
    }
}
