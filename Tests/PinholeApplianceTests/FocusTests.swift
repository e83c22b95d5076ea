// Focus on the simulated cameras: contrast AF and the camera's own AF, points, timeouts, scene changes.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeSim
import XCTest

final class FocusTests: XCTestCase {
    // The standard scene: house at 8 m (0.125 D) left, person at 2 m (0.5 D) centre,
    // chart at 0.4 m (2.5 D) lower right, background at 50 m.

    func testContrastAutofocusConvergesOnTheObjectUnderThePoint() throws {
        let rig = try CaptureTestRig()
        let focus = rig.engine.focus
        XCTAssertEqual(focus.status.method, "contrast", "the imx477 reports no AfMode: Pinhole focuses")
        try focus.setMode(.auto)
        for (x, y, dioptres) in [(0.8, 0.72, 2.5), (0.2, 0.5, 0.125), (0.5, 0.55, 0.5)] {
            try focus.setPoint(x: x, y: y)
            XCTAssertEqual(try rig.triggerFocus(), .focused)
            let lens = try XCTUnwrap(focus.lensPosition)
            XCTAssertEqual(lens, dioptres, accuracy: 0.15, "point (\(x), \(y))")
            XCTAssertEqual(rig.camera.lensPosition, lens)
        }
    }

    func testCameraWithItsOwnAutofocusIsDrivenThroughItsControls() throws {
        let rig = try CaptureTestRig(specs: [CaptureTestRig.small(.backWithAutofocus)])
        let focus = rig.engine.focus
        XCTAssertEqual(focus.status.method, "camera")
        try focus.setMode(.auto)
        try focus.setPoint(x: 0.8, y: 0.72)
        XCTAssertEqual(try rig.triggerFocus(), .focused)
        XCTAssertEqual(try XCTUnwrap(focus.lensPosition), 2.5, accuracy: 0.01)
        XCTAssertEqual(rig.engine.lastFrame?.afState, 2, "the camera reports AfState focused")
        try focus.setRange(.macro)
        try focus.setPoint(x: 0.2, y: 0.5)
        XCTAssertEqual(try rig.triggerFocus(), .failed, "the house is out of the macro range")
    }

    func testScanThatOutlastsTheTimeoutFailsToTheFallbackPosition() throws {
        let rig = try CaptureTestRig()
        let focus = rig.engine.focus
        try focus.setMode(.auto)
        try focus.setLens(6)
        try focus.setMode(.auto)
        focus.scanTimeout = .milliseconds(120)
        XCTAssertEqual(try rig.triggerFocus(), .failed)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.camera.lensPosition, 1, "fallback: the camera's default lens position")
    }

    func testAFlatSceneFindsNoFocus() throws {
        let rig = try CaptureTestRig()
        var flat = SimScene.standard
        flat.background.texture = 0
        flat.objects = []
        rig.world.scene = flat
        try rig.engine.focus.setMode(.auto)
        XCTAssertEqual(try rig.triggerFocus(), .failed)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.camera.lensPosition, 1)
    }

    func testAfterAPointFocusASceneChangeReturnsToContinuousAF() throws {
        let rig = try CaptureTestRig()
        let focus = rig.engine.focus
        try focus.setMode(.auto)
        try focus.setPoint(x: 0.8, y: 0.72)
        XCTAssertEqual(try rig.triggerFocus(), .focused)
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(focus.mode, .auto, "nothing changed yet")
        rig.world.changeScene()
        rig.loop.advance(by: .seconds(2))
        XCTAssertEqual(focus.mode, .continuous)
        XCTAssertEqual(focus.point.x, 0.5)
        XCTAssertTrue(
            rig.events.contains {
                if case .focusChanged(.continuous, .sceneChanged) = $0 { return true } else { return false }
            })
        XCTAssertEqual(focus.state, .focused)
        // The centre now shows whatever changeScene put there; focus follows its distance.
        let centre = rig.world.scene.object(at: 0.5, 0.5)
        XCTAssertEqual(try XCTUnwrap(focus.lensPosition), min(4, 1 / centre.distance), accuracy: 0.2)
    }

    func testContinuousAFRefocusesWhenTheSubjectMoves() throws {
        let rig = try CaptureTestRig()
        let focus = rig.engine.focus
        XCTAssertEqual(focus.mode, .continuous)
        rig.loop.advance(by: .seconds(2))
        XCTAssertEqual(focus.state, .focused)
        XCTAssertEqual(try XCTUnwrap(focus.lensPosition), 0.5, accuracy: 0.15, "the person at the centre")
        var scene = rig.world.scene
        scene.objects[1].distance = 0.5
        rig.world.scene = scene
        rig.loop.advance(by: .seconds(3))
        XCTAssertEqual(try XCTUnwrap(focus.lensPosition), 2, accuracy: 0.2, "the person stepped up to 0.5 m")
    }

    func testHalfPressFocusesOnceAndTheEngineIsBusyUntilFocused() throws {
        let rig = try CaptureTestRig()
        let focus = rig.engine.focus
        try focus.setMode(.auto)
        try focus.setPoint(x: 0.8, y: 0.72)
        XCTAssertFalse(rig.engine.isBusy)
        rig.engine.beginHalfPress()
        XCTAssertEqual(focus.state, .scanning)
        XCTAssertTrue(rig.engine.isBusy, "a half-press waits for focus")
        rig.loop.advance(by: .seconds(2))
        XCTAssertEqual(focus.state, .focused)
        XCTAssertFalse(rig.engine.isBusy)
        XCTAssertEqual(try XCTUnwrap(focus.lensPosition), 2.5, accuracy: 0.15)
        rig.engine.endHalfPress()
        XCTAssertFalse(rig.engine.exposureLocked)
    }

    func testFixedFocusCameraRefusesFocusRequestsClearly() throws {
        let rig = try CaptureTestRig()
        try rig.appliance.switchCamera()
        XCTAssertEqual(rig.engine.focus.status.mode, "fixed")
        XCTAssertThrowsError(try rig.engine.focus.setLens(2)) { error in
            XCTAssertTrue("\(error)".contains("does not support focus control"), "\(error)")
        }
        XCTAssertThrowsError(try rig.engine.focus.trigger { _ in })
    }

    func testManualLensPositionIsHonoured() throws {
        let rig = try CaptureTestRig()
        try rig.engine.focus.setLens(3.25)
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(rig.engine.focus.mode, .manual)
        XCTAssertEqual(rig.engine.lastFrame?.lensPosition, 3.25)
        XCTAssertThrowsError(try rig.engine.focus.trigger { _ in }) { error in
            XCTAssertEqual(error as? FocusError, .manualMode)
        }
        XCTAssertThrowsError(try rig.engine.focus.setLens(40)) { error in
            XCTAssertTrue("\(error)".contains("outside"), "\(error)")
        }
    }

    func testContrastScanFindsThePeakOfASharpnessCurve() {
        var scan = ContrastAutofocus(range: 0...4, speed: .normal)
        var step = scan.start()
        var measured = 0
        while case .measure(let position) = step {
            measured += 1
            let sharpness = 1 / (1 + 4 * (position - 2.3) * (position - 2.3))
            step = scan.record(sharpness: sharpness, at: position)
        }
        guard case .finished(let position, let found) = step else { return XCTFail("\(step)") }
        XCTAssertTrue(found)
        XCTAssertEqual(position, 2.3, accuracy: 0.05)
        XCTAssertLessThan(measured, 16, "the coarse sweep stops past the peak")
    }
}
