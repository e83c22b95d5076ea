// The photo/video mode switch: in video mode the shutter starts and stops recording; status shows the mode.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeSim
import XCTest

final class ModeSwitchTests: XCTestCase {
    let clips = MemoryClipStore()

    private func click(_ rig: ApplianceRig, _ button: ButtonFunction) {
        rig.hold(button)
        rig.loop.advance(by: .milliseconds(100))
        rig.release(button)
        rig.loop.advance(by: .milliseconds(100))
    }

    private func isRecording(_ rig: ApplianceRig) -> Bool { rig.appliance.recorder?.isRecording ?? false }

    /// What the capture LED shows between flashes.
    private func capture(_ rig: ApplianceRig) -> String? { rig.appliance.outputs[.capture]?.showing }

    func testInPhotoModeTheShutterTakesAPhotoAndStatusSaysPhoto() throws {
        let rig = try ApplianceRig.recording(into: clips)
        XCTAssertEqual(rig.appliance.captureMode, .photo)
        XCTAssertEqual(rig.appliance.status().mode, "photo")
        click(rig, .shutter)
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(rig.store.photos.count, 1)
        XCTAssertFalse(isRecording(rig))
    }

    func testInVideoModeTheShutterStartsAndStopsAClipAndTakesNoPhoto() throws {
        let rig = try ApplianceRig.recording(into: clips)
        var notices: [String] = []
        rig.appliance.observe { if case .notice(let text) = $0 { notices.append(text) } }
        rig.hold(.mode)
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertEqual(rig.appliance.captureMode, .video)
        XCTAssertEqual(rig.appliance.status().mode, "video")
        XCTAssertEqual(notices, ["mode video: the shutter starts and stops recording"])
        XCTAssertEqual(capture(rig), "video-mode", "the capture LED blinks briefly in video mode")
        XCTAssertEqual(rig.appliance.recorder?.keepsEncoderReady, true, "video mode keeps the encoder open")
        click(rig, .shutter)
        XCTAssertTrue(isRecording(rig))
        rig.loop.advance(by: .seconds(3))
        XCTAssertEqual(capture(rig), "recording")
        click(rig, .shutter)
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertFalse(isRecording(rig))
        XCTAssertEqual(capture(rig), "video-mode")
        XCTAssertEqual(clips.clips.count, 1)
        XCTAssertGreaterThanOrEqual(clips.clips.first?.facts?.frameCount ?? 0, 30)
        XCTAssertEqual(rig.store.photos.count, 0, "video mode takes no photo")
    }

    func testHoldingTheShutterInVideoModeBurstsNothingAndKeepsRecording() throws {
        let rig = try ApplianceRig.recording(into: clips)
        rig.hold(.mode)
        rig.loop.advance(by: .milliseconds(100))
        rig.hold(.shutter)
        rig.loop.advance(by: .seconds(3))  // well past the hold time and many repeats
        XCTAssertTrue(isRecording(rig))
        rig.release(.shutter)
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertTrue(isRecording(rig), "letting go does not stop the clip; the next press does")
        XCTAssertEqual(rig.store.photos.count, 0)
        XCTAssertEqual(rig.appliance.burstShotsTaken, 0)
        XCTAssertFalse(rig.appliance.shutter.fullPressed)
    }

    func testASwitchAlreadyInVideoAtStartIsVideoModeWithoutAPress() throws {
        let rig = try ApplianceRig.recording(into: clips, closed: [.mode])
        XCTAssertEqual(rig.appliance.captureMode, .video)
        XCTAssertFalse(
            rig.buttonEvents.contains { $0.0 == .mode }, "a switch left on is a state, not a press")
        XCTAssertEqual(capture(rig), "video-mode")
        XCTAssertEqual(rig.appliance.recorder?.keepsEncoderReady, true)
        click(rig, .shutter)
        XCTAssertTrue(isRecording(rig))
        XCTAssertEqual(rig.store.photos.count, 0)
    }

    func testBackToPhotoModeStopsAndSavesTheClipAndTheShutterTakesPhotosAgain() throws {
        let rig = try ApplianceRig.recording(into: clips, closed: [.mode])
        click(rig, .shutter)
        rig.loop.advance(by: .seconds(2))
        XCTAssertTrue(isRecording(rig))
        rig.release(.mode)
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(rig.appliance.captureMode, .photo)
        XCTAssertFalse(isRecording(rig))
        XCTAssertEqual(rig.appliance.recorder?.keepsEncoderReady, false, "photo mode lets the encoder go")
        XCTAssertEqual(capture(rig), "off")
        XCTAssertEqual(clips.clips.count, 1)
        XCTAssertGreaterThanOrEqual(clips.clips.first?.facts?.frameCount ?? 0, 20)
        click(rig, .shutter)
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(rig.store.photos.count, 1)
        XCTAssertFalse(isRecording(rig))
    }

    func testABoardWithoutAModeSwitchIsAlwaysPhotoAndStatusOmitsTheMode() throws {
        let rig = try ApplianceRig.recording(into: clips) { board in board.buttons[.mode] = nil }
        XCTAssertEqual(rig.appliance.captureMode, .photo)
        XCTAssertNil(rig.appliance.status().mode)
    }

    func testTheProfileReadsAModeSwitchThatNeverRepeats() throws {
        let board = try BuiltInBoards.simulated()
        let mode = try XCTUnwrap(board.buttons[.mode])
        XCTAssertEqual(mode.line, "GPIO18")
        XCTAssertNil(mode.repeatInterval, "a switch left closed fires no repeats")
        XCTAssertEqual(board.buttons[.record]?.line, "GPIO19")
    }
}
