// The record button: a press starts a clip, the next press stops and saves it; a refusal becomes a problem.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeField
import PinholeCore
import PinholeSim
import XCTest

final class RecordButtonTests: XCTestCase {
    let clips = MemoryClipStore()

    private func rig(fps: Int = 10) throws -> ApplianceRig {
        try ApplianceRig.recording(into: clips, fps: fps) { board in
            board.buttons[.record] = ButtonWiring(line: "GPIO20")
        }
    }

    private func click(_ rig: ApplianceRig) {
        rig.hold(.record)
        rig.loop.advance(by: .milliseconds(100))
        rig.release(.record)
        rig.loop.advance(by: .milliseconds(100))
    }

    func testAPressStartsAClipAndTheNextStopsAndSavesIt() throws {
        let rig = try rig()
        click(rig)
        XCTAssertTrue(rig.appliance.recorder?.isRecording ?? false)
        rig.loop.advance(by: .seconds(3))
        click(rig)
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertFalse(rig.appliance.recorder?.isRecording ?? true)
        XCTAssertEqual(clips.clips.count, 1)
        XCTAssertGreaterThanOrEqual(clips.clips.first?.facts?.frameCount ?? 0, 30)
    }

    func testARefusedStartIsReportedAndChangesNothing() throws {
        let rig = try rig(fps: 60)
        click(rig)
        XCTAssertFalse(rig.appliance.recorder?.isRecording ?? true)
        XCTAssertEqual(
            rig.appliance.status().problems.last,
            "record button: video rate 60 fps is not offered: choose 10, 15, 24, 25, 30")
    }
}
