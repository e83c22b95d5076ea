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
        for y in 0..<height {
            var rowSum = 0.0
            for x in 0..<width {
                rowSum += Double(values[y * width + x])
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + rowSum
            }
        }
        self.sums = sums
    }

    /// Mean of the box of half-size `radius` around (x, y), clipped to the image.
    func mean(x: Int, y: Int, radius: Int) -> Float {
        let x0 = max(0, x - radius)
        let y0 = max(0, y - radius)
        let x1 = min(width, x + radius + 1)
        let y1 = min(height, y + radius + 1)
        let stride = width + 1
        let total = sums[y1 * stride + x1] - sums[y0 * stride + x1] - sums[y1 * stride + x0] + sums[y0 * stride + x0]
        return Float(total / Double((x1 - x0) * (y1 - y0)))
    }
}
