// record start refused, changing nothing: a video size or rate the camera does not list (the error lists them).

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeField
import PinholeCore
import PinholeSim
import XCTest

final class RecordingRefusalTests: XCTestCase {
    let clips = MemoryClipStore()

    func testARateTheCameraDoesNotListIsRefusedWithTheChoices() throws {
        let rig = try ApplianceRig.recording(into: clips, fps: 60)
        XCTAssertThrowsError(try rig.appliance.startRecording()) { error in
            XCTAssertEqual(
                "\(error)", "video rate 60 fps is not offered: choose 10, 15, 24, 25, 30")
        }
        XCTAssertNil(rig.appliance.recorder?.status)
        rig.loop.advance(by: .seconds(1))
        XCTAssertTrue(clips.clips.isEmpty)
    }

    func testASizeTheCameraDoesNotListIsRefusedWithTheChoices() throws {
        let rig = try ApplianceRig.recording(into: clips, size: PixelSize(width: 1280, height: 720))
        XCTAssertThrowsError(try rig.appliance.startRecording()) { error in
            XCTAssertEqual(
                "\(error)", "the camera offers no 1280x720 video stream: choose one of 320x240, 160x96")
        }
        XCTAssertNil(rig.appliance.recorder?.status)
    }

    func testACameraThatVanishesMidClipEndsTheClipAndKeepsIt() throws {
        let rig = try ApplianceRig.recording(into: clips)
        var events: [RecordingEvent] = []
        rig.appliance.observe { if case .recording(let event) = $0 { events.append(event) } }
        try rig.appliance.startRecording()
        rig.loop.advance(by: .seconds(3))
        rig.cameras.world.deadCameras.insert("test/imx477@1a")
        rig.loop.advance(by: .seconds(10))
        XCTAssertFalse(rig.appliance.recorder?.isRecording ?? true)
        XCTAssertEqual(clips.clips.count, 1)
        XCTAssertGreaterThanOrEqual(
            clips.clips.first?.facts?.frameCount ?? 0, 29, "the 3 s recorded are kept")
        guard case .saved(_, _, let note)? = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(note, "the camera stopped sending frames")
    }
}
