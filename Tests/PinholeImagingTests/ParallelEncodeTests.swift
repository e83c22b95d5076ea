// The band-parallel encoder: one valid baseline JPEG with restart markers, same pixels as one thread.

import Foundation
import PinholeCore
@testable import PinholeImaging
import XCTest

final class ParallelEncodeTests: XCTestCase {
    static let sharedSource = TestImages.yuv420(width: 1012, height: 760)
    var source: RawImage { Self.sharedSource }

    func testBandPlanCoversTheImageInWholeMCURows() {
        let plan = BandPlan(width: 4056, height: 3040, bands: 4)
        XCTAssertEqual(plan.count, 4)
        XCTAssertEqual(plan.rowsPerBand % 16, 0)
        XCTAssertEqual(plan.rows(of: 0).lowerBound, 0)
        XCTAssertEqual(plan.rows(of: plan.count - 1).upperBound, 3040)
        XCTAssertLessThanOrEqual(plan.restartInterval, 65_535)
        XCTAssertEqual(plan.restartInterval, plan.rowsPerBand / 16 * 254)
        // A tiny image is not split into slivers.
        XCTAssertEqual(BandPlan(width: 64, height: 48, bands: 8).count, 1)
    }

    func testParallelEncodeMatchesSingleThreadPixelForPixel() throws {
        let single = try JPEGEncoder(quality: 93, threads: 1).encode(source)
        let parallel = try JPEGEncoder(quality: 93, threads: 4).encode(source)
        let layout = try JPEGLayout(parallel)
        XCTAssertEqual(layout.sofMarker, 0xC0, "baseline")
        XCTAssertEqual(layout.height, 760)
        XCTAssertTrue(layout.segments.contains { $0.marker == 0xDD }, "DRI segment present")
        XCTAssertEqual(restartMarkers(in: parallel, from: layout.scanStart), [0xD0, 0xD1, 0xD2])
        let a = try JPEGDecoder.decode(single), b = try JPEGDecoder.decode(parallel)
        XCTAssertLessThanOrEqual(TestImages.maxDifference(a, b), 1)
    }

    func testNV12AndRGBParallelEncodesMatchSingleThread() throws {
        for image in [
            TestImages.nv12(from: source), TestImages.rgb(from: TestImages.yuv420(width: 300, height: 203)),
        ] {
            let a = try JPEGDecoder.decode(JPEGEncoder(threads: 1).encode(image))
            let b = try JPEGDecoder.decode(JPEGEncoder(threads: 3).encode(image))
            XCTAssertLessThanOrEqual(TestImages.maxDifference(a, b), 1, "\(image.format)")
        }
    }

    func testIndependentDecoderReadsTheParallelJPEG() throws {
        let parallel = try JPEGEncoder(quality: 93, threads: 4).encode(source)
        let directory = try TestImages.temporaryDirectory(for: self)
        let file = directory.appendingPathComponent("parallel.jpg")
        try Data(parallel).write(to: file)
        let result = try TestImages.run("djpeg", ["-ppm", file.path])
        XCTAssertEqual(result.status, 0)
        let ppm = try PPM(result.output)
        XCTAssertEqual(ppm.width, 1012)
        XCTAssertEqual(ppm.height, 760)
        let reference = try JPEGDecoder.decode(JPEGEncoder(quality: 93, threads: 1).encode(source))
        XCTAssertLessThanOrEqual(TestImages.maxDifference(ppm.image, reference), 1)
        XCTAssertLessThan(TestImages.meanDifference(ppm.image, TestImages.rgb(from: source)), 2.5)
    }

    /// Second bytes of the RSTn markers in the entropy-coded data.
    private func restartMarkers(in jpeg: [UInt8], from start: Int) -> [UInt8] {
        var markers: [UInt8] = []
        var i = start
        while i + 1 < jpeg.count {
            if jpeg[i] == 0xFF, (0xD0...0xD7).contains(jpeg[i + 1]) { markers.append(jpeg[i + 1]) }
            i += 1
        }
        return markers
    }
}

/// A binary PPM (P6) as djpeg writes it.
struct PPM {
    let width: Int, height: Int
    let image: RawImage

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var i = 0
        while fields.count < 4 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A { i += 1 }
            var token = ""
            while i < bytes.count, bytes[i] != 0x20 && bytes[i] != 0x0A {
                token.append(Character(UnicodeScalar(bytes[i]))); i += 1
            }
            fields.append(token)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]),
            bytes.count - i == w * h * 3
        else { throw ImagingError.decodeFailed(detail: "not a P6 PPM: \(fields)") }
        width = w
        height = h
        image = RawImage(
            format: .rgb888, width: w, height: h,
            planes: [ImagePlane(bytes: Array(bytes[i...]), stride: w * 3)])
    }
}
