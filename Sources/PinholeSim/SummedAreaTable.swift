// A summed-area table: the mean of any box of an image in constant time.

/// Integral image over a `Float` image, for box blurs of any radius.
struct SummedAreaTable {
    private let sums: [Double]
    private let width: Int
    private let height: Int

    init(values: [Float], width: Int, height: Int) {
        self.width = width
        self.height = height
        var sums = [Double](repeating: 0, count: (width + 1) * (height + 1))
        sums.withUnsafeMutableBufferPointer { sums in
            values.withUnsafeBufferPointer { values in
                for y in 0..<height {
                    var rowSum = 0.0
                    for x in 0..<width {
                        rowSum += Double(values[y * width + x])
                        sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + rowSum
                    }
                }
            }
        }
        self.sums = sums
    }

    /// Mean of the box of half-size `radius` around (x, y), clipped to the image.
    func mean(x: Int, y: Int, radius: Int) -> Float {
        withMeans { mean in mean(x, y, radius) }
    }

    /// Calls `body` with a function that returns the mean of the box of half-size `radius`
    /// around (x, y), clipped to the image (one buffer access for many lookups).
    func withMeans<R>(_ body: ((Int, Int, Int) -> Float) -> R) -> R {
        let width = self.width
        let height = self.height
        let stride = width + 1
        return sums.withUnsafeBufferPointer { sums in
            body { x, y, radius in
                let x0 = x - radius < 0 ? 0 : x - radius
                let y0 = y - radius < 0 ? 0 : y - radius
                let x1 = x + radius + 1 > width ? width : x + radius + 1
                let y1 = y + radius + 1 > height ? height : y + radius + 1
                let total =
                    sums[y1 * stride + x1] - sums[y0 * stride + x1] - sums[y1 * stride + x0]
                    + sums[y0 * stride + x0]
                return Float(total / Double((x1 - x0) * (y1 - y0)))
            }
        }
    }
}
