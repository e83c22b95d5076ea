// Renders the simulated scene through a lens model (defocus blur) and an exposure model.

import PinholeCore

/// The optical and exposure state a frame is rendered with.
public struct SimExposure: Sendable, Hashable {
    /// Exposure time.
    public var exposureTime: Duration
    /// Total gain.
    public var gain: Double
    /// Lens position in dioptres (the lens focuses at 1 / position metres).
    public var lensPosition: Double
    /// Blur per dioptre of focus error, as a fraction of the frame width (the aperture).
    public var blurPerDioptre: Double
    /// Seed of this frame's sensor noise.
    public var noiseSeed: UInt64

    /// Creates an exposure.
    public init(
        exposureTime: Duration, gain: Double, lensPosition: Double, blurPerDioptre: Double,
        noiseSeed: UInt64
    ) {
        self.exposureTime = exposureTime
        self.gain = gain
        self.lensPosition = lensPosition
        self.blurPerDioptre = blurPerDioptre
        self.noiseSeed = noiseSeed
    }
}

/// Scene → YUV 4:2:0 renderer.
///
/// The image is computed at a working resolution of at most ~1000 pixels across (blur via a
/// summed-area table, so any blur radius costs the same, interpolated between whole radii),
/// then scaled up with per-pixel sensor noise. Brightness is reflectance × lux × exposure time × gain, so exposure control matters;
/// blur grows with |lens position − 1/distance|, so focus matters.
public enum SimRenderer {
    /// Light-to-signal constant: an 18 % grey at `lux × seconds × gain = 6.69` is mid-grey.
    public static let sensitivity = 2.8

    /// The exposure product (seconds × gain) that puts a surface of `reflectance` at
    /// mid-grey under `lux`.
    public static func targetExposureProduct(lux: Double, reflectance: Double = 0.18) -> Double {
        0.43 * sensitivity / max(reflectance, 0.01) / max(lux, 0.01)
    }

    /// Renders `scene` at `size`, computing it at most `workingWidth` pixels across. With a
    /// `cache`, the working planes of an earlier frame with the same scene, size and exposure
    /// are reused (the picture is the same; only the frame's noise is its own).
    public static func render(
        _ scene: SimScene, size: PixelSize, exposure: SimExposure,
        workingWidth: Int = 1014, cache: SimRenderCache? = nil
    ) -> RawImage {
        let factor = max(1, (size.width + workingWidth - 1) / workingWidth)
        let workWidth = max(2, size.width / factor)
        let workHeight = max(2, size.height / factor)
        let make = {
            let (luma, cb, cr) = renderWorking(
                scene, width: workWidth, height: workHeight, exposure: exposure)
            return SimWorkingPlanes(luma: luma, cb: cb, cr: cr)
        }
        let key = SimWorkingKey(scene: scene, width: workWidth, height: workHeight, exposure: exposure)
        let planes = cache?.planes(for: key, make: make) ?? make()
        return upscale(
            planes, workWidth: workWidth, workHeight: workHeight,
            to: size, seed: exposure.noiseSeed, noise: 1.0 + 1.5 * exposure.gain.squareRoot())
    }

    /// Signal (0…1+) of reflectance `r` under this exposure.
    static func signal(_ reflectance: Double, lux: Double, exposure: SimExposure) -> Double {
        reflectance * lux * exposure.exposureTime.seconds * exposure.gain / sensitivity
    }

    private static func renderWorking(
        _ scene: SimScene, width: Int, height: Int,
        exposure: SimExposure
    ) -> ([UInt8], [UInt8], [UInt8]) {
        let all = [scene.background] + scene.objects
        let count = width * height
        // Which object each pixel shows: fill rectangles back to front.
        var objectIndex = [UInt8](repeating: 0, count: count)
        objectIndex.withUnsafeMutableBufferPointer { index in
            for (number, object) in all.enumerated() where number > 0 {
                let x0 = max(0, Int((object.rect.x * Double(width) - 0.5).rounded(.up)))
                let x1 = min(
                    width, Int(((object.rect.x + object.rect.width) * Double(width) - 0.5).rounded(.up)))
                let y0 = max(0, Int((object.rect.y * Double(height) - 0.5).rounded(.up)))
                let y1 = min(
                    height, Int(((object.rect.y + object.rect.height) * Double(height) - 0.5).rounded(.up)))
                guard x0 < x1, y0 < y1 else { continue }
                for y in y0..<y1 {
                    for x in x0..<x1 { index[y * width + x] = UInt8(number) }
                }
            }
        }
        // Textured reflectance: stripes from a sine table, per object.
        let tableSize = 1024
        let sine: [Float] = (0..<tableSize).map {
            Float(sinApprox(Double($0) / Double(tableSize) * 2 * Double.pi))
        }
        let reflectances = all.map { Float($0.reflectance) }
        let textures = all.map { Float($0.texture) }
        let inversePeriods = all.map { 1 / $0.period }
        var sharp = [Float](repeating: 0, count: count)
        sharp.withUnsafeMutableBufferPointer { out in
            objectIndex.withUnsafeBufferPointer { index in
                sine.withUnsafeBufferPointer { sine in
                    for y in 0..<height {
                        let ny = (Double(y) + 0.5) / Double(height)
                        for x in 0..<width {
                            let nx = (Double(x) + 0.5) / Double(width)
                            let object = Int(index[y * width + x])
                            let phase = (nx + 0.37 * ny) * inversePeriods[object]
                            let slot =
                                Int((phase - phase.rounded(.down)) * Double(tableSize)) & (tableSize - 1)
                            out[y * width + x] = reflectances[object] * (1 + textures[object] * sine[slot])
                        }
                    }
                }
            }
        }
        let table = SummedAreaTable(values: sharp, width: width, height: height)
        // Blur radius in pixels, continuous: the mean of the two nearest whole radii, weighted.
        var radii: [Int] = []
        var fractions: [Float] = []
        for object in all {
            let error = abs(exposure.lensPosition - 1 / object.distance)
            let radius = error * exposure.blurPerDioptre * Double(width)
            let whole = radius.rounded(.down)
            radii.append(Int(whole))
            fractions.append(Float(radius - whole))
        }
        let chromaB = all.map { Float($0.chroma.0) }
        let chromaR = all.map { Float($0.chroma.1) }
        // Final 8-bit levels (video range), so the working planes cost a byte a pixel.
        var luma = [UInt8](repeating: 0, count: count)
        var cb = [UInt8](repeating: 0, count: count)
        var cr = [UInt8](repeating: 0, count: count)
        let scale = Float(scene.lux * exposure.exposureTime.seconds * exposure.gain / sensitivity)
        table.withMeans { mean in
            luma.withUnsafeMutableBufferPointer { luma in
                cb.withUnsafeMutableBufferPointer { cb in
                    cr.withUnsafeMutableBufferPointer { cr in
                        objectIndex.withUnsafeBufferPointer { index in
                            for y in 0..<height {
                                for x in 0..<width {
                                    let pixel = y * width + x
                                    let object = Int(index[pixel])
                                    let radius = radii[object]
                                    let fraction = fractions[object]
                                    var value = mean(x, y, radius)
                                    if fraction > 0.01 {
                                        value += fraction * (mean(x, y, radius + 1) - value)
                                    }
                                    value *= scale
                                    value = value < 0 ? 0 : value > 1 ? 1 : value
                                    luma[pixel] = UInt8(16 + Int(value * 219))
                                    let saturation = value > 0.5 ? 1 : value * 2
                                    cb[pixel] = Self.chromaLevel(chromaB[object] * saturation)
                                    cr[pixel] = Self.chromaLevel(chromaR[object] * saturation)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (luma, cb, cr)
    }

    @inline(__always)
    private static func chromaLevel(_ value: Float) -> UInt8 {
        let level = 128 + Int(value * 224)
        return UInt8(level < 0 ? 0 : level > 255 ? 255 : level)
    }

    /// Scales the working planes up to `size` (nearest neighbour) and adds the frame's sensor
    /// noise to the luma. Each output row is made from its source row expanded once (whole
    /// rows repeat when the factor is above one), in buffers that are written once each, so a
    /// 12 MP frame costs little more than writing it.
    private static func upscale(
        _ planes: SimWorkingPlanes, workWidth: Int, workHeight: Int,
        to size: PixelSize, seed: UInt64, noise: Double
    ) -> RawImage {
        var random = SplitMix64(seed: seed)
        let noiseTable: [Int16] = (0..<4096).map { _ in
            Int16((Double(random.next() % 2001) / 1000 - 1) * noise)
        }
        let chromaWidth = (size.width + 1) / 2
        let chromaHeight = (size.height + 1) / 2
        let luma = upscalePlane(
            planes.luma, workWidth: workWidth, workHeight: workHeight, width: size.width, height: size.height,
            noise: noiseTable)
        let cb = upscalePlane(
            planes.cb, workWidth: workWidth, workHeight: workHeight, width: chromaWidth, height: chromaHeight,
            noise: nil)
        let cr = upscalePlane(
            planes.cr, workWidth: workWidth, workHeight: workHeight, width: chromaWidth, height: chromaHeight,
            noise: nil)
        return RawImage(
            format: .yuv420, width: size.width, height: size.height,
            planes: [
                ImagePlane(bytes: luma, stride: size.width), ImagePlane(bytes: cb, stride: chromaWidth),
                ImagePlane(bytes: cr, stride: chromaWidth),
            ])
    }

    /// One plane at `width` × `height` from `source` (`workWidth` × `workHeight`): output pixel
    /// (x, y) is source pixel (x · workWidth / width, y · workHeight / height), plus
    /// `noise[(x + offset(y)) mod 4096]` when noise is given, clamped to 0…255.
    private static func upscalePlane(
        _ source: [UInt8], workWidth: Int, workHeight: Int, width: Int, height: Int, noise: [Int16]?
    ) -> [UInt8] {
        let xStep = Double(workWidth) / Double(width)
        let yStep = Double(workHeight) / Double(height)
        let columns = (0..<width).map { min(workWidth - 1, Int(Double($0) * xStep)) }
        // The noise table repeated past its end, so that a row reads it without wrapping.
        let noiseRun: [Int16] = noise.map { table in (0..<(4096 + width)).map { table[$0 & 4095] } } ?? []
        var expanded = [Int16](repeating: 0, count: width)
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            source.withUnsafeBufferPointer { src in
                columns.withUnsafeBufferPointer { columns in
                    noiseRun.withUnsafeBufferPointer { noiseRun in
                        expanded.withUnsafeMutableBufferPointer { expanded in
                            var expandedRow = -1
                            for y in 0..<height {
                                let sourceRow = min(workHeight - 1, Int(Double(y) * yStep))
                                let row = out.baseAddress! + y * width
                                if noise == nil, sourceRow == expandedRow, y > 0 {
                                    // Same source row as the row above: the same bytes.
                                    row.update(from: row - width, count: width)
                                    continue
                                }
                                if sourceRow != expandedRow {
                                    let base = sourceRow * workWidth
                                    for x in 0..<width { expanded[x] = Int16(src[base + columns[x]]) }
                                    expandedRow = sourceRow
                                }
                                if noise == nil {
                                    for x in 0..<width { row[x] = UInt8(truncatingIfNeeded: expanded[x]) }
                                    continue
                                }
                                let offset = Int(truncatingIfNeeded: (UInt64(y) &* 2_654_435_761) >> 4) & 4095
                                let noiseRow = noiseRun.baseAddress! + offset
                                for x in 0..<width {
                                    let level = expanded[x] &+ noiseRow[x]
                                    row[x] = UInt8(
                                        truncatingIfNeeded: level < 0 ? 0 : level > 255 ? 255 : level)
                                }
                            }
                        }
                    }
                }
            }
            initialized = width * height
        }
    }
}

/// A fast sine approximation (Bhaskara-style parabola), accurate to about 0.1 %.
@inline(__always)
func sinApprox(_ angle: Double) -> Double {
    var x = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x < -Double.pi { x += 2 * Double.pi } else if x > Double.pi { x -= 2 * Double.pi }
    let y = 4 / Double.pi * x - 4 / (Double.pi * Double.pi) * x * abs(x)
    return 0.225 * (y * abs(y) - y) + y
}
