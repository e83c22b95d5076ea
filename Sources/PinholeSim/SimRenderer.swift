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
    public init(exposureTime: Duration, gain: Double, lensPosition: Double, blurPerDioptre: Double,
                noiseSeed: UInt64) {
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
/// summed-area table, so any blur radius costs the same), then scaled up with per-pixel sensor
/// noise. Brightness is reflectance × lux × exposure time × gain, so exposure control matters;
/// blur grows with |lens position − 1/distance|, so focus matters.
public enum SimRenderer {
    /// Light-to-signal constant: an 18 % grey at `lux × seconds × gain = 6.69` is mid-grey.
    public static let sensitivity = 2.8

    /// The exposure product (seconds × gain) that puts a surface of `reflectance` at
    /// mid-grey under `lux`.
    public static func targetExposureProduct(lux: Double, reflectance: Double = 0.18) -> Double {
        0.43 * sensitivity / max(reflectance, 0.01) / max(lux, 0.01)
    }

    /// Renders `scene` at `size`.
    public static func render(_ scene: SimScene, size: PixelSize, exposure: SimExposure) -> RawImage {
        let factor = max(1, (size.width + 1013) / 1014)
        let workWidth = max(2, size.width / factor)
        let workHeight = max(2, size.height / factor)
        let (luma, cb, cr) = renderWorking(scene, width: workWidth, height: workHeight, exposure: exposure)
        return upscale(luma: luma, cb: cb, cr: cr, workWidth: workWidth, workHeight: workHeight,
                       to: size, seed: exposure.noiseSeed, noise: 1.0 + 1.5 * exposure.gain.squareRoot())
    }

    /// Signal (0…1+) of reflectance `r` under this exposure.
    static func signal(_ reflectance: Double, lux: Double, exposure: SimExposure) -> Double {
        reflectance * lux * exposure.exposureTime.seconds * exposure.gain / sensitivity
    }

    private static func renderWorking(_ scene: SimScene, width: Int, height: Int,
                                      exposure: SimExposure) -> ([Float], [Float], [Float]) {
        var sharp = [Float](repeating: 0, count: width * height)
        var objectIndex = [UInt8](repeating: 0, count: width * height)
        let all = [scene.background] + scene.objects
        for y in 0..<height {
            let ny = (Double(y) + 0.5) / Double(height)
            for x in 0..<width {
                let nx = (Double(x) + 0.5) / Double(width)
                var index = 0
                for (candidate, object) in all.enumerated().reversed() where object.rect.contains(nx, ny) {
                    index = candidate
                    break
                }
                let object = all[index]
                let phase = (nx + 0.37 * ny) / object.period
                let stripe = Double(sinApprox(phase * 2 * Double.pi))
                let reflectance = object.reflectance * (1 + object.texture * stripe)
                sharp[y * width + x] = Float(reflectance)
                objectIndex[y * width + x] = UInt8(index)
            }
        }
        let table = SummedAreaTable(values: sharp, width: width, height: height)
        let radii: [Int] = all.map { object in
            let error = abs(exposure.lensPosition - 1 / object.distance)
            return Int((error * exposure.blurPerDioptre * Double(width)).rounded())
        }
        var luma = [Float](repeating: 0, count: width * height)
        var cb = [Float](repeating: 0, count: width * height)
        var cr = [Float](repeating: 0, count: width * height)
        let scale = Float(scene.lux * exposure.exposureTime.seconds * exposure.gain / sensitivity)
        for y in 0..<height {
            for x in 0..<width {
                let index = Int(objectIndex[y * width + x])
                let mean = table.mean(x: x, y: y, radius: radii[index])
                let value = min(1, max(0, mean * scale))
                luma[y * width + x] = value
                let saturation = Float(min(1, Double(value) * 2))
                cb[y * width + x] = Float(all[index].chroma.0) * saturation
                cr[y * width + x] = Float(all[index].chroma.1) * saturation
            }
        }
        return (luma, cb, cr)
    }

    private static func upscale(luma: [Float], cb: [Float], cr: [Float], workWidth: Int, workHeight: Int,
                                to size: PixelSize, seed: UInt64, noise: Double) -> RawImage {
        var random = SplitMix64(seed: seed)
        let noiseTable: [Int16] = (0..<4096).map { _ in
            Int16((Double(random.next() % 2001) / 1000 - 1) * noise)
        }
        return RawImage.yuv420(width: size.width, height: size.height) { plane, width, height, buffer in
            let source = plane == 0 ? luma : plane == 1 ? cb : cr
            let xStep = Double(workWidth) / Double(width)
            let yStep = Double(workHeight) / Double(height)
            let sourceColumns = (0..<width).map { min(workWidth - 1, Int(Double($0) * xStep)) }
            buffer.withUnsafeMutableBufferPointer { out in
                source.withUnsafeBufferPointer { src in
                    noiseTable.withUnsafeBufferPointer { noiseValues in
                        for y in 0..<height {
                            let row = min(workHeight - 1, Int(Double(y) * yStep)) * workWidth
                            let noiseOffset = Int(truncatingIfNeeded: (UInt64(y) &* 2_654_435_761) >> 4) & 4095
                            for x in 0..<width {
                                let value = src[row + sourceColumns[x]]
                                if plane == 0 {
                                    let n = Int(noiseValues[(x &+ noiseOffset) & 4095])
                                    out[y * width + x] = UInt8(clamping: 16 + Int(value * 219) + n)
                                } else {
                                    out[y * width + x] = UInt8(clamping: 128 + Int(value * 224))
                                }
                            }
                        }
                    }
                }
            }
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
