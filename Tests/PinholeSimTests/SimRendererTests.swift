// Tests of the simulator's renderer: reused working planes give every frame the picture it would get alone.

import PinholeCore
import XCTest

@testable import PinholeSim

final class SimRendererTests: XCTestCase {
    private let size = PixelSize(width: 404, height: 304)

    private func exposure(lens: Double = 0.5, seed: UInt64) -> SimExposure {
        SimExposure(
            exposureTime: .milliseconds(10), gain: 2, lensPosition: lens,
            blurPerDioptre: SimCameraSpec.back.blurPerDioptre, noiseSeed: seed)
    }

    private func planes(_ image: RawImage) -> [[UInt8]] { image.planes.map(\.bytes) }

    func testAFrameRenderedFromCachedPlanesIsTheFrameRenderedAlone() {
        let scene = SimWorld().scene
        let cache = SimRenderCache()
        // Two frames of one exposure, then a moved lens (new planes), then the first again.
        let exposures = [exposure(seed: 1), exposure(seed: 2), exposure(lens: 2, seed: 3), exposure(seed: 4)]
        for exposure in exposures {
            let cached = SimRenderer.render(
                scene, size: size, exposure: exposure, workingWidth: 101, cache: cache)
            let alone = SimRenderer.render(scene, size: size, exposure: exposure, workingWidth: 101)
            XCTAssertEqual(
                planes(cached), planes(alone), "lens \(exposure.lensPosition), seed \(exposure.noiseSeed)")
        }
        // Another scene is not served from the planes of the first.
        var darker = scene
        darker.lux /= 4
        let cached = SimRenderer.render(
            darker, size: size, exposure: exposure(seed: 5), workingWidth: 101, cache: cache)
        let alone = SimRenderer.render(darker, size: size, exposure: exposure(seed: 5), workingWidth: 101)
        XCTAssertEqual(planes(cached), planes(alone))
    }

    func testEachFrameHasItsOwnNoiseOnTheSameChroma() {
        let scene = SimWorld().scene
        let cache = SimRenderCache()
        let first = SimRenderer.render(
            scene, size: size, exposure: exposure(seed: 1), workingWidth: 101, cache: cache)
        let second = SimRenderer.render(
            scene, size: size, exposure: exposure(seed: 2), workingWidth: 101, cache: cache)
        XCTAssertNotEqual(
            first.planes[0].bytes, second.planes[0].bytes, "the luma's noise is the frame's own")
        XCTAssertEqual(first.planes[1].bytes, second.planes[1].bytes)
        XCTAssertEqual(first.planes[2].bytes, second.planes[2].bytes)
        XCTAssertEqual(first.planes.map(\.stride), [404, 202, 202])
        XCTAssertEqual(first.planes.map(\.bytes.count), [404 * 304, 202 * 152, 202 * 152])
    }

    func testAnUpscaledPlaneRepeatsEachWorkingPixelOverItsBlock() {
        // Working 101 × 76 up to 404 × 304 (factor 4; chroma 202 × 152, factor 2): without
        // noise (chroma), every 2 × 2 block of a chroma plane is one value.
        let image = SimRenderer.render(
            SimWorld().scene, size: size, exposure: exposure(seed: 1), workingWidth: 101)
        let cb = image.planes[1].bytes
        var blocks = Set<[UInt8]>()
        for y in stride(from: 0, to: 150, by: 2) {
            for x in stride(from: 0, to: 200, by: 2) {
                let block = [
                    cb[y * 202 + x], cb[y * 202 + x + 1], cb[(y + 1) * 202 + x], cb[(y + 1) * 202 + x + 1],
                ]
                XCTAssertEqual(Set(block).count, 1, "block at \(x), \(y): \(block)")
                blocks.insert(block)
            }
        }
        XCTAssertGreaterThan(blocks.count, 3, "the scene's colours show")
    }
}
