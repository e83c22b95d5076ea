// Synthetic test images and small helpers shared by the imaging tests.

import Foundation
import XCTest
import PinholeCore
import PinholeTestTools
@testable import PinholeImaging

enum TestImages {
    /// A smooth YUV 4:2:0 gradient with a bright square, so JPEG error stays small.
    static func yuv420(width: Int, height: Int) -> RawImage {
        RawImage.yuv420(width: width, height: height) { plane, w, h, buffer in
            for y in 0..<h {
                for x in 0..<w {
                    let value: Int
                    switch plane {
                    case 0:
                        let inSquare = x > w / 4 && x < w / 2 && y > h / 4 && y < h / 2
                        value = inSquare ? 220 : 30 + (x * 150) / max(1, w) + (y * 50) / max(1, h)
                    case 1: value = 90 + (x * 80) / max(1, w)
                    default: value = 160 - (y * 70) / max(1, h)
                    }
                    buffer[y * w + x] = UInt8(value)
                }
            }
        }
    }

    /// The same pixels as `yuv420` laid out as NV12, with padded strides.
    static func nv12(from image: RawImage, padding: Int = 8) -> RawImage {
        let w = image.width, cw = (w + 1) / 2, ch = (image.height + 1) / 2
        let yStride = w + padding, uvStride = cw * 2 + padding
        var y = [UInt8](repeating: 0, count: yStride * image.height)
        for row in 0..<image.height {
            for x in 0..<w { y[row * yStride + x] = image.planes[0].bytes[row * image.planes[0].stride + x] }
        }
        var uv = [UInt8](repeating: 0, count: uvStride * ch)
        for row in 0..<ch {
            for x in 0..<cw {
                uv[row * uvStride + 2 * x] = image.planes[1].bytes[row * image.planes[1].stride + x]
                uv[row * uvStride + 2 * x + 1] = image.planes[2].bytes[row * image.planes[2].stride + x]
            }
        }
        return RawImage(
            format: .nv12, width: w, height: image.height,
            planes: [ImagePlane(bytes: y, stride: yStride), ImagePlane(bytes: uv, stride: uvStride)])
    }

    /// RGB888 of any raw image, pixel by pixel (the reference conversion).
    static func rgb(from image: RawImage) -> RawImage {
        let sampler = PixelSampler(image)
        var bytes = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = sampler.rgb(x: x, y: y)
                let i = (y * image.width + x) * 3
                bytes[i] = UInt8(p.0); bytes[i + 1] = UInt8(p.1); bytes[i + 2] = UInt8(p.2)
            }
        }
        return RawImage(
            format: .rgb888, width: image.width, height: image.height,
            planes: [ImagePlane(bytes: bytes, stride: image.width * 3)])
    }

    /// XRGB8888 (memory order B, G, R, X) of an RGB888 image.
    static func xrgb(from rgb: RawImage) -> RawImage {
        var bytes = [UInt8](repeating: 0xEE, count: rgb.width * rgb.height * 4)
        for i in 0..<(rgb.width * rgb.height) {
            bytes[4 * i] = rgb.planes[0].bytes[3 * i + 2]
            bytes[4 * i + 1] = rgb.planes[0].bytes[3 * i + 1]
            bytes[4 * i + 2] = rgb.planes[0].bytes[3 * i]
        }
        return RawImage(
            format: .xrgb8888, width: rgb.width, height: rgb.height,
            planes: [ImagePlane(bytes: bytes, stride: rgb.width * 4)])
    }

    /// Mean absolute difference of two RGB888 images of the same size.
    static func meanDifference(_ a: RawImage, _ b: RawImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0
        for y in 0..<a.height {
            for x in 0..<(a.width * 3) {
                total += abs(
                    Int(a.planes[0].bytes[y * a.planes[0].stride + x])
                        - Int(b.planes[0].bytes[y * b.planes[0].stride + x]))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    /// Largest absolute difference of two RGB888 images of the same size.
    static func maxDifference(_ a: RawImage, _ b: RawImage) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<(a.width * 3) {
                worst = max(
                    worst,
                    abs(
                        Int(a.planes[0].bytes[y * a.planes[0].stride + x])
                            - Int(b.planes[0].bytes[y * b.planes[0].stride + x])))
            }
        }
        return worst
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(for test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Runs a tool, returning its standard output and exit status (fails the test when the
    /// tool is missing: tools/setup installs every one).
    static func run(_ tool: String, _ arguments: [String]) throws -> (output: Data, status: Int32) {
        let result = try ExternalTool.run(tool, arguments)
        return (Data(result.output), result.status)
    }
}
