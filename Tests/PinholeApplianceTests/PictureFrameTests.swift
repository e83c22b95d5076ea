// AF points in the upright picture mapped to the sensor under 0/90/180/270° mounts and tilt; AE and AWB locks.

import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

@testable import PinholeAppliance
@testable import PinholeCapture

final class PictureFrameTests: XCTestCase {
    /// Where the picture's top-left corner region lies on the sensor for each rotation.
    func testThePicturesTopLeftIsOnTheSensorWhereTheRotationPutsIt() {
        let expected: [Int: (Double, Double)] = [
            0: (0.1, 0.2), 90: (0.2, 0.9), 180: (0.9, 0.8), 270: (0.8, 0.1),
        ]
        for (rotation, sensor) in expected {
            let frame = PictureFrame(rotation: rotation)
            let point = frame.sensorPoint(x: 0.1, y: 0.2)
            XCTAssertEqual(point.x, sensor.0, accuracy: 1e-9, "\(rotation)°")
            XCTAssertEqual(point.y, sensor.1, accuracy: 1e-9, "\(rotation)°")
            let back = frame.picturePoint(sensorX: point.x, sensorY: point.y)
            XCTAssertEqual(back.x, 0.1, accuracy: 1e-9)
            XCTAssertEqual(back.y, 0.2, accuracy: 1e-9)
        }
        XCTAssertEqual(PictureFrame(rotation: -90).rotation, 270)
        XCTAssertEqual(PictureFrame(rotation: 450).rotation, 90)
    }

    func testAZoomCropMapsIntoTheCroppedPartOfTheSensor() {
        let frame = PictureFrame(rotation: 0, crop: NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        let point = frame.sensorPoint(x: 0, y: 1)
        XCTAssertEqual(point.x, 0.25)
        XCTAssertEqual(point.y, 0.75)
    }

    func testAnAFPointFollowsTheTiltedBody() throws {
        let rig = try CaptureTestRig()
        let mount = rig.engine.currentMountRotation
        try rig.engine.setAFPoint(x: 0.1, y: 0.2)
        let upright = PictureFrame(rotation: mount).sensorPoint(x: 0.1, y: 0.2)
        XCTAssertEqual(rig.engine.focus.point.x, upright.x, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.focus.point.y, upright.y, accuracy: 1e-9)
        rig.appliance.tilt?.set(.tiltA, closed: true)  // gray code: the body turned 90° clockwise
        XCTAssertEqual(rig.engine.pictureRotation, (mount + 90) % 360)
        XCTAssertEqual(rig.engine.orientation, Orientation(mountRotation: mount + 90), "EXIF uses the same")
        try rig.engine.setAFPoint(x: 0.1, y: 0.2)
        let turned = PictureFrame(rotation: mount + 90).sensorPoint(x: 0.1, y: 0.2)
        XCTAssertEqual(rig.engine.focus.point.x, turned.x, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.focus.point.y, turned.y, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.afPicturePoint.x, 0.1, accuracy: 1e-9)
        XCTAssertEqual(rig.appliance.status().afPoint?[1] ?? -1, 0.2, accuracy: 1e-9)
        XCTAssertThrowsError(try rig.engine.setAFPoint(x: .nan, y: 0.5))
    }

    func testAnUpsideDownMountTurnsThePoint() throws {
        let rig = try CaptureTestRig()
        guard rig.appliance.tilt != nil else { return XCTFail("the simulated board has a tilt sensor") }
        rig.appliance.tilt?.set(.tiltB, closed: true)
        rig.appliance.tilt?.set(.tiltA, closed: true)  // 180°
        let rotation = rig.engine.pictureRotation
        try rig.engine.setAFPoint(x: 0.2, y: 0.3)
        let expected = PictureFrame(rotation: rotation).sensorPoint(x: 0.2, y: 0.3)
        XCTAssertEqual(rig.engine.focus.point.x, expected.x, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.focus.point.y, expected.y, accuracy: 1e-9)
    }

    func testAELockHoldsTheExposureWhenTheLightChangesAndUnlockFollowsAgain() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(500))
        try rig.engine.setAELock(true)
        rig.loop.advance(by: .milliseconds(200))
        let held = try XCTUnwrap(rig.engine.lastFrame)
        rig.world.setLux(20)
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertEqual(rig.engine.lastFrame?.exposureTime, held.exposureTime)
        XCTAssertEqual(rig.engine.lastFrame?.analogueGain, held.analogueGain)
        try rig.engine.setAELock(false)
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertNotEqual(rig.engine.lastFrame?.analogueGain, held.analogueGain, "AE follows the dark scene")
        try rig.engine.setExposure(.manual(time: .milliseconds(10), gain: 1))
        XCTAssertThrowsError(try rig.engine.setAELock(true)) { XCTAssertTrue("\($0)".contains("manual")) }
    }

    func testAWBLockReachesTheCamera() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setAWBLock(true)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.engine.lastFrame?.controls["AwbEnable"], .bool(false))
        XCTAssertEqual(rig.appliance.status().awbLocked, true)
        try rig.engine.setAWBLock(false)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.engine.lastFrame?.controls["AwbEnable"], .bool(true))
    }
}
