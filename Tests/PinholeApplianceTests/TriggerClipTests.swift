// Trigger clips on virtual time: pre-roll before the edge, post time after it, re-trigger, max duration, counts.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeField
import PinholeCore
import PinholeSim
import XCTest

final class TriggerClipTests: XCTestCase {
    let clips = MemoryClipStore()

    /// The simulated board whose PIR trigger records `clip = { pre_s = 2, post_s = 3 }`, with a
    /// recorder keeping a 2 s ring (`ApplianceRig.recording`).
    private func rig(maxSeconds: Double = 60) throws -> ApplianceRig {
        try ApplianceRig.recording(into: clips, maxSeconds: maxSeconds) { board in
            board.triggers[0].clip = TriggerClip(preSeconds: 2, postSeconds: 3)
            board.triggers[0].shots = 1
        }
    }

    private func pulse(_ rig: ApplianceRig, then wait: Duration) {
        rig.gpio.drive("GPIO21", active: true)
        rig.loop.advance(by: .milliseconds(300))
        rig.gpio.drive("GPIO21", active: false)
        rig.loop.advance(by: wait - .milliseconds(300))
    }

    func testAClipStartsPreSecondsBeforeTheEdgeAndEndsPostSecondsAfterTheLastEdge() throws {
        let rig = try rig()
        let edge = rig.loop.now
        pulse(rig, then: .seconds(2))
        XCTAssertTrue(rig.appliance.recorder?.isRecording ?? false)
        let second = rig.loop.now
        pulse(rig, then: .milliseconds(2900))
        XCTAssertTrue(
            rig.appliance.recorder?.isRecording ?? false, "re-triggered: runs to 3 s after the second edge")
        rig.loop.advance(by: .seconds(1))
        XCTAssertFalse(rig.appliance.recorder?.isRecording ?? true)
        XCTAssertEqual(clips.clips.count, 1, "one clip for two edges 2 s apart")
        let facts = try XCTUnwrap(clips.clips.first?.facts)
        // The first frame is a keyframe at or before edge − 2 s: the trigger lies ≥ 2 s into the clip.
        XCTAssertGreaterThanOrEqual(facts.triggerMicroseconds, 2_000_000)
        XCTAssertLessThan(
            facts.triggerMicroseconds, 3_000_000, "the ring holds whole seconds back from a keyframe")
        let first = edge.nanoseconds / 1000 - facts.triggerMicroseconds
        let end = (second + .seconds(3)).nanoseconds / 1000
        XCTAssertGreaterThanOrEqual(
            first + facts.durationMicroseconds, end, "it runs post_s past the last edge")
        let status = try XCTUnwrap(rig.appliance.triggers?.status().first)
        XCTAssertEqual(
            [status.fired, status.clips, status.clipExtensions], [1, 1, 1], "the second edge is in hold-off")
        XCTAssertTrue(status.summary.contains("1 clip (1 extended)"), status.summary)
    }

    func testReTriggersExtendOnlyUpToTheMaximumDuration() throws {
        let rig = try rig(maxSeconds: 6)
        for _ in 0..<5 { pulse(rig, then: .seconds(2)) }  // edges every 2 s would run past 10 s
        rig.loop.advance(by: .seconds(4))
        let facts = try XCTUnwrap(clips.clips.first?.facts)
        XCTAssertLessThanOrEqual(facts.durationMicroseconds, 6_000_000, "max_duration_s caps the clip")
        XCTAssertGreaterThanOrEqual(facts.durationMicroseconds, 5_900_000)
        XCTAssertEqual(clips.clips.count, 2, "an edge after the capped clip closed starts the next clip")
        XCTAssertEqual(rig.appliance.triggers?.status().first?.clips, 2)
    }

    func testARecordingStartedByHandIsLeftAlone() throws {
        let rig = try rig()
        let id = try rig.appliance.startRecording(maxSeconds: 30)
        rig.loop.advance(by: .seconds(1))
        pulse(rig, then: .seconds(5))
        XCTAssertEqual(rig.appliance.recorder?.status?.id, id, "the trigger neither stopped nor replaced it")
        XCTAssertEqual(rig.appliance.triggers?.status().first?.clips, 0)
    }

    func testTheClipIsReadFromTheBoardProfileWithFileAndLineErrors() throws {
        let base = "[board]\nname = \"t\"\n[triggers.pir]\nline = \"GPIO21\"\n"
        let good = try BoardProfile.parse(
            base + "clip = { pre_s = 3, post_s = 10 }\n", file: "b.toml", name: "t")
        XCTAssertEqual(good.triggers.first?.clip, TriggerClip(preSeconds: 3, postSeconds: 10))
        XCTAssertNil(try BoardProfile.parse(base, file: "b.toml", name: "t").triggers.first?.clip)
        for (bad, reason) in [
            ("clip = { pre_s = 31 }", "b.toml:5: 'pre_s' is 31.0, outside 0.0…30.0"),
            ("clip = { post_s = 0 }", "b.toml:5: 'post_s' is 0.0, outside 1.0…3600.0"),
            ("clip = { pre_s = nan }", "b.toml:5: 'pre_s' is nan, outside 0.0…30.0"),
            ("clip = { pre_s = -1 }", "b.toml:5: 'pre_s' is -1.0, outside 0.0…30.0"),
            ("clip = { post_s = 1e300 }", "b.toml:5: 'post_s' is 1e+300, outside 1.0…3600.0"),
            ("clip = { len = 3 }", "b.toml:5: unknown key 'len' in clip"),
            ("clip = 3", "b.toml:5: 'clip' must be a table, not an integer"),
        ] {
            XCTAssertThrowsError(try BoardProfile.parse(base + bad + "\n", file: "b.toml", name: "t"), bad) {
                XCTAssertEqual("\($0)", reason, bad)
            }
        }
    }
}
