// The libcamera backend: discovery parsing, and a clean "no camera" where there is none.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeImaging
@testable import PinholeLinux
import PinholeSim
import XCTest

final class LibcameraProviderTests: XCTestCase {
    /// One test starts libcamera's CameraManager (one per process), so it never runs twice.
    func testDiscoveryReportsNoCameraCleanlyOrDescribesTheCamerasThere() throws {
        let loop = EventLoop.virtual()
        let provider = LibcameraProvider(loop: loop)
        XCTAssertFalse(LibcameraProvider.version.isEmpty)
        let cameras = try provider.cameras()
        XCTAssertEqual(try provider.cameras().map(\.id), cameras.map(\.id), "the shared manager is reused")
        if cameras.isEmpty {
            XCTAssertThrowsError(try provider.open(id: "/base/soc/i2c0mux/i2c@1/imx477@1a")) { error in
                guard case .noCamera(let detail)? = error as? CameraError else { return XCTFail("\(error)") }
                XCTAssertTrue(detail.contains("found no camera"), detail)
            }
            // The appliance reports it and keeps running.
            let board = try BuiltInBoards.simulated()
            let appliance = Appliance(
                loop: loop, board: board, gpio: SimulatedGPIO(loop: loop, lineNames: board.lineNames),
                cameras: provider, encoder: NoEncoder(), store: NoStore())
            try appliance.start()
            // Discovery runs on a thread of its own and posts its result to the loop.
            loop.runPosted(until: { !appliance.engine.isOpening }, realTimeLimit: .seconds(30))
            XCTAssertFalse(appliance.engine.isOpening, "discovery did not end within 30 s")
            XCTAssertNil(appliance.engine.current)
            XCTAssertTrue(
                appliance.problems.contains { $0.contains("no camera found") }, "\(appliance.problems)")
            XCTAssertEqual(appliance.status().camera == nil, true)
            appliance.shutdown()
        } else {
            for camera in cameras {
                XCTAssertFalse(camera.id.isEmpty)
                XCTAssertFalse(camera.stillSizes.isEmpty, "\(camera.id) offers still sizes")
            }
        }
    }

    func testTheShimsDescriptionBecomesACameraInfo() {
        let text = """
            id /base/axi/pcie@120000/rp1/i2c@88000/imx708@1a
            model imx708
            location 1
            pixel_array 4608 2592
            crop_max 0 0 4608 2592
            still_default YUV420 2304 1296
            still YUV420 4608 2592
            still YUV420 2304 1296
            still RGB888 4608 2592
            still SRGGB10_CSI2P 4608 2592
            viewfinder YUV420 640 480
            control AfMode int 0 2 0
            control LensPosition float 0 15 1
            control AeEnable bool 0 1 1
            control AfWindows rect nan nan nan
            control ScalerCrop rect 1152 4608 0
            control FrameDurationLimits int -nan -nan -nan
            """
        let description = LibcameraDescription(text: text)
        let info = description.info
        XCTAssertEqual(info.model, "imx708")
        XCTAssertEqual(info.position, .back)
        XCTAssertEqual(info.pixelArraySize, PixelSize(width: 4608, height: 2592))
        XCTAssertEqual(
            info.stillSizes, [PixelSize(width: 2304, height: 1296), PixelSize(width: 4608, height: 2592)],
            "the pipeline's recommended size first")
        XCTAssertEqual(
            info.stillFormats, [.yuv420, .rgb888], "RGB888 is swapped into rgb888; raw Bayer is not offered")
        XCTAssertEqual(info.controls["LensPosition"], ControlRange(min: 0, max: 15, defaultValue: 1))
        XCTAssertTrue(info.hasAutofocusAlgorithm)
        XCTAssertNotNil(info.controls["AfWindows"])
        XCTAssertEqual(
            info.controls["ScalerCrop"], ControlRange(min: 1, max: 4), "largest over smallest crop")
        XCTAssertNil(info.controls["AeWindows"], "libcamera has no AE window: ae point is refused")
        XCTAssertEqual(
            LibcameraDescription.zoomLimit(smallest: 0, largest: 4608), 8, "no smallest crop listed")
        XCTAssertEqual(LibcameraDescription.zoomLimit(smallest: 1152, largest: 4608), 4)
        XCTAssertEqual(LibcameraDescription.zoomLimit(smallest: nil, largest: nil), 8)
        XCTAssertNil(info.controls["FrameDurationLimits"], "array controls Pinhole does not set are left out")
    }

    func testVideoSizesAndRatesComeFromTheVideoRoleAndFrameDurationLimits() {
        let text = """
            id /base/soc/i2c0mux/i2c@1/imx708@1a
            model imx708
            still YUV420 4608 2592
            video_default YUV420 1920 1080
            video YUV420 1920 1080
            video YUV420 1280 720
            video NV12 640 480
            video SRGGB10_CSI2P 1920 1080
            frame_duration 33333 120000
            """
        let description = LibcameraDescription(text: text)
        XCTAssertEqual(
            description.info.videoSizes,
            [
                PixelSize(width: 1920, height: 1080), PixelSize(width: 1280, height: 720),
                PixelSize(width: 640, height: 480),
            ],
            "largest first; raw formats are not offered")
        XCTAssertEqual(
            description.info.videoFrameRates, [10, 15, 24, 25, 30], "within 33,333–120,000 µs a frame")
        XCTAssertEqual(
            description.videoFormats[LibcameraFormat.named("NV12")!], [PixelSize(width: 640, height: 480)])
        let noLimits = LibcameraDescription(text: "id vimc\nstill BGR888 1920 1080\nvideo BGR888 640 480\n")
        XCTAssertEqual(
            noLimits.info.videoFrameRates, LibcameraDescription.standardFrameRates,
            "no FrameDurationLimits (vimc): the camera runs at its own rate, every standard rate is accepted")
        XCTAssertEqual(
            LibcameraDescription(text: "id x\nstill YUV420 640 480\n").info.videoSizes, [], "no video role")
    }

    func testVideoFramesAreMadeFromAnyCameraFormatAtTheVideoSize() {
        // A red RGB frame (R, G, B in memory) of 8×4 becomes 4×2 YUV 4:2:0 with BT.601 values.
        let red = RawImage(
            format: .rgb888, width: 8, height: 4,
            planes: [ImagePlane(bytes: (0..<32).flatMap { _ in [UInt8(255), 0, 0] }, stride: 24)])
        let video = red.videoFrame(size: PixelSize(width: 4, height: 2))
        XCTAssertEqual(video.format, .yuv420)
        XCTAssertEqual([video.width, video.height], [4, 2])
        XCTAssertEqual(video.planes.map(\.bytes.count), [8, 2, 2])
        XCTAssertEqual(Set(video.planes[0].bytes), [82], "Y of pure red")
        XCTAssertEqual(Set(video.planes[1].bytes), [90], "U of pure red")
        XCTAssertEqual(Set(video.planes[2].bytes), [240], "V of pure red")
        // XRGB8888 is B, G, R, X in memory: the same red.
        let xrgb = RawImage(
            format: .xrgb8888, width: 2, height: 2,
            planes: [ImagePlane(bytes: (0..<4).flatMap { _ in [UInt8(0), 0, 255, 0] }, stride: 8)])
        XCTAssertEqual(xrgb.videoFrame(size: PixelSize(width: 2, height: 2)).planes[2].bytes, [240])
        // NV12 splits its interleaved chroma; columns are sampled by nearest neighbour.
        let nv12 = RawImage(
            format: .nv12, width: 4, height: 2,
            planes: [
                ImagePlane(bytes: [10, 20, 30, 40, 50, 60, 70, 80], stride: 4),
                ImagePlane(bytes: [1, 2, 3, 4], stride: 4),
            ])
        let planar = nv12.videoFrame(size: PixelSize(width: 2, height: 2))
        XCTAssertEqual(planar.planes[0].bytes, [10, 30, 50, 70])
        XCTAssertEqual(planar.planes[1].bytes, [1])
        XCTAssertEqual(planar.planes[2].bytes, [2])
        let same = RawImage.yuv420(width: 4, height: 2) { _, _, _, _ in }
        XCTAssertEqual(
            same.videoFrame(size: PixelSize(width: 4, height: 2)).planes[0].stride, 4,
            "already right: as it is")
    }

    func testSingleStreamFramesScaleTheStillForTheViewfinder() {
        let image = RawImage.yuv420(width: 1920, height: 1080) { plane, width, _, buffer in
            for index in buffer.indices { buffer[index] = UInt8((index % width) % 256) &+ UInt8(plane) }
        }
        let small = image.subsampled(toWidthAtMost: 640)
        XCTAssertEqual(small.width, 640)
        XCTAssertEqual(small.height, 360)
        XCTAssertEqual(small.planes[0].bytes[5], image.planes[0].bytes[15])
        XCTAssertEqual(small.planes[1].stride, 320)
    }
}

private struct NoEncoder: StillEncoder {
    func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8] { [] }
}

private struct NoStore: PhotoStore {
    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto { SavedPhoto(id: "", file: "") }
    func photoCount() throws -> Int { 0 }
    func freeBytes() -> Int64? { nil }
}

final class BootClockTests: XCTestCase {
    func testBootTimeStampsComeOverToTheMonotonicTimelineOfThePresses() {
        // A board that was suspended for 5 s: BOOTTIME runs 5 s ahead of MONOTONIC.
        let offset: Int64 = 5_000_000_000
        let frameBoot: Int64 = 12_000_000_000
        XCTAssertEqual(
            BootClock.monotonic(fromBootTime: frameBoot, offset: offset), Instant(nanoseconds: 7_000_000_000))
        XCTAssertEqual(
            BootClock.monotonic(fromBootTime: frameBoot, offset: 0), Instant(nanoseconds: frameBoot))
        XCTAssertEqual(
            BootClock.monotonic(fromBootTime: frameBoot, offset: -3), Instant(nanoseconds: frameBoot))
    }

    func testTheClocksOffsetIsNeverNegative() {
        XCTAssertGreaterThanOrEqual(BootClock.bootMinusMonotonic(), 0)
    }

    func testFrameWallClockBecomesAWallTime() {
        let wall = BootClock.wallTime(realtimeNanoseconds: 1_800_000_000_250_000_000)
        XCTAssertEqual(wall.secondsSince1970, 1_800_000_000)
        XCTAssertEqual(wall.nanoseconds, 250_000_000)
    }
}
