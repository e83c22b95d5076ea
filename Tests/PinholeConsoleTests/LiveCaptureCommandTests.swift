// `capture --live` and `[capture] live`: a still paired with the ring's clip, the answer and the event lines, bad input.

import PinholeAppliance
import PinholeCapture
import PinholeConfiguration
import PinholeConsole
import PinholeCore
import PinholeSim
import XCTest

final class LiveCaptureCommandTests: XCTestCase {
    let store = MemoryClipStore()

    private func ask(_ harness: ConsoleHarness, _ line: String, wait: Duration = .milliseconds(100)) -> String
    {
        harness.ask(line, wait: wait)
    }

    /// A console whose appliance records 160x96 at 10 fps through the fake backend, keeping
    /// `ringSeconds` of pre-roll; the ring has had 5 s to fill.
    private func harness(ringSeconds: Double) throws -> ConsoleHarness {
        let harness = try ConsoleHarness(quietFocus: true)
        var settings = VideoSettings()
        settings.size = PixelSize(width: 160, height: 96)
        settings.fps = 10
        let pick = try settings.pickEncoder(hardwareEncoder: false) { $0 == .libx264 }
        harness.appliance.attachRecorder(
            ClipRecorder(
                loop: harness.loop, backend: SimulatedVideoBackend(), store: store, settings: settings,
                pick: pick, ringSeconds: ringSeconds))
        harness.loop.advance(by: .seconds(5))
        _ = harness.lines.take()
        return harness
    }

    func testCaptureLiveAnswersWithTheStillAndItsMotionClip() throws {
        let harness = try harness(ringSeconds: 5)
        let answer = ask(harness, "capture --live", wait: .seconds(3))
        let words = answer.split(separator: " ").map(String.init)
        XCTAssertEqual(words.first, "ok", answer)
        let id = words[2]
        let motion = try XCTUnwrap(store.motions[id], answer)
        XCTAssertTrue(
            answer.hasSuffix(" live /motion/\(id).mp4 \(motion.window.frameCount) frames"), answer)
        // 1.5 s each side from a keyframe a second: 31 to 40 frames at 10 fps.
        XCTAssertTrue((31...40).contains(motion.window.frameCount), "\(motion.window.frameCount)")
        XCTAssertGreaterThanOrEqual(motion.window.stillOffsetMicroseconds, 1_500_000)
        XCTAssertFalse(answer.contains("event"), "the answer stands for the saved and live events: \(answer)")
        let json = ask(harness, "capture --live --json", wait: .seconds(3))
        XCTAssertTrue(json.contains(#""motionFrames":"#) && json.contains(#""motionFile":"/motion/"#), json)
        XCTAssertEqual(store.motions.count, 2)
        XCTAssertTrue(ask(harness, "help").contains("capture --live [--json]"))
    }

    func testLiveOnInTheConfigurationPairsEveryPhotoAndSaysSoInEventLines() throws {
        let harness = try harness(ringSeconds: 5)
        harness.appliance.livePhotos = true
        let answer = ask(harness, "capture", wait: .seconds(3))
        XCTAssertTrue(answer.hasPrefix("ok saved "), answer)
        let id = answer.split(separator: " ")[2]
        let frames = try XCTUnwrap(store.motions[String(id)]).window.frameCount
        XCTAssertTrue(
            answer.hasSuffix("\nevent live saved \(id) /motion/\(id).mp4 (\(frames) frames)"), answer)
    }

    func testTheSelfTimerMakesALivePhotoWithLiveOrTheConfiguration() throws {
        let harness = try harness(ringSeconds: 5)
        let answer = ask(harness, "capture --timer 2 --live", wait: .seconds(5))
        XCTAssertTrue(answer.hasPrefix("ok saved ") && answer.contains(" live /motion/"), answer)
        let id = String(answer.split(separator: " ")[2])
        XCTAssertNotNil(store.motions[id])
        XCTAssertTrue(ask(harness, "help capture").contains("capture --timer SECONDS [--live]"))
        // `[capture] live = true`: the self-timer's photo is paired as the shutter's is.
        harness.appliance.livePhotos = true
        let timed = ask(harness, "capture --timer 2", wait: .seconds(5))
        XCTAssertTrue(timed.hasPrefix("ok saved "), timed)
        let timedID = String(timed.split(separator: " ")[2])
        let frames = try XCTUnwrap(store.motions[timedID], timed).window.frameCount
        XCTAssertTrue(
            timed.hasSuffix("\nevent live saved \(timedID) /motion/\(timedID).mp4 (\(frames) frames)"), timed)
    }

    func testABurstSaysItsPhotosAreStillsWhenLivePhotosAreOn() throws {
        let harness = try harness(ringSeconds: 5)
        let plain = ask(harness, "capture --burst 3", wait: .seconds(3))
        XCTAssertTrue(plain.hasPrefix("ok saved 3 photos: "), plain)
        XCTAssertFalse(plain.contains("Live"), plain)
        harness.appliance.livePhotos = true
        let answer = ask(harness, "capture --burst 3", wait: .seconds(3))
        XCTAssertTrue(answer.hasPrefix("ok saved 3 photos: "), answer)
        XCTAssertTrue(answer.hasSuffix("; " + Appliance.burstLiveNote), answer)
        XCTAssertFalse(answer.contains("\nevent"), "the answer stands for the notice: \(answer)")
        let json = ask(harness, "capture --burst 2 --json", wait: .seconds(3))
        XCTAssertTrue(json.contains(#""liveNote":"stills only: a burst makes no Live Photos"#), json)
        XCTAssertTrue(store.motions.isEmpty, "no photo of a burst is paired")
    }

    func testARecordingUnderWayGoesOnAndBothAreKept() throws {
        let harness = try harness(ringSeconds: 5)
        XCTAssertEqual(ask(harness, "record start"), "ok recording 1\nevent recording started 1")
        let answer = ask(harness, "capture --live", wait: .seconds(3))
        XCTAssertTrue(answer.hasPrefix("ok saved ") && answer.contains(" live /motion/"), answer)
        XCTAssertTrue(ask(harness, "record status").hasPrefix("ok recording 1 "))
        XCTAssertTrue(ask(harness, "record stop").hasPrefix("ok saved 1 /clips/clip0.mp4 "))
        XCTAssertEqual(store.motions.count, 1)
        XCTAssertGreaterThan(try XCTUnwrap(store.clips.first?.facts).frameCount, 30)
    }

    func testBadOrImpossibleLiveCapturesAreErrorsAndTakeNoPhoto() throws {
        let harness = try harness(ringSeconds: 2)
        for line in [
            "capture --live --timer 0", "capture --timer 3 --burst 3", "capture --live --burst 3",
            "capture --live now", "capture --lively",
        ] {
            XCTAssertTrue(ask(harness, line).hasPrefix("error 64"), line)
        }
        XCTAssertTrue(
            ask(harness, "capture --live --burst 3").contains(
                "a burst makes no Live Photos (its photos are stills, as on phones): use --live or --burst"))
        XCTAssertEqual(
            ask(harness, "capture --timer 3 --live", wait: .seconds(5)),
            "error 70: capture --timer --live: Live Photos need a 5.0 s pre-roll ring: set live = true in [capture]",
            "refused at once, not when the timer runs out")
        let refused = ask(harness, "capture --live", wait: .seconds(3))
        XCTAssertEqual(
            refused,
            "error 70: capture --live: Live Photos need a 5.0 s pre-roll ring: set live = true in [capture]")
        XCTAssertNil(harness.appliance.lastCapture, "no photo was taken")
        XCTAssertTrue(store.motions.isEmpty)
        let bare = try ConsoleHarness(quietFocus: true)
        XCTAssertTrue(ask(bare, "capture --live").contains("Live Photos need recording"))
    }

    func testTheConfigurationReadsLiveAndNamesABadValue() throws {
        XCTAssertFalse(try Configuration.parse("", file: "p.toml").livePhotos)
        XCTAssertTrue(try Configuration.parse("[capture]\nlive = true\n", file: "p.toml").livePhotos)
        XCTAssertThrowsError(
            try Configuration.parse("[capture]\nquality = 90\nlive = \"yes\"\n", file: "p.toml")
        ) {
            XCTAssertEqual("\($0)", "p.toml:3: 'live' must be true or false, not a string")
        }
    }
}
