// Line-mode `record` commands: start, status (text and JSON), stop with the saved clip, events, and bad input.

import PinholeAppliance
import PinholeCapture
import PinholeConsole
import PinholeCore
import PinholeSim
import XCTest

final class RecordCommandsTests: XCTestCase {
    let store = MemoryClipStore()

    private func ask(_ harness: ConsoleHarness, _ line: String, wait: Duration = .milliseconds(100)) -> String
    {
        harness.ask(line, wait: wait)
    }

    /// A console whose appliance records 160x96 at 10 fps through the fake backend.
    private func harness(
        preRoll: Double = 0, size: PixelSize = PixelSize(width: 160, height: 96), fps: Int = 10
    ) throws -> ConsoleHarness {
        let harness = try ConsoleHarness(quietFocus: true, simulated: true)
        var settings = VideoSettings()
        settings.size = size
        settings.fps = fps
        settings.bitRate = 400_000
        let pick = try settings.pickEncoder(hardwareEncoder: false) { $0 == .libx264 }
        harness.appliance.attachRecorder(
            ClipRecorder(
                loop: harness.loop, backend: SimulatedVideoBackend(), store: store, settings: settings,
                pick: pick,
                ringSeconds: preRoll))
        harness.loop.advance(by: .milliseconds(200))
        _ = harness.lines.take()
        return harness
    }

    func testStartStatusStopAndTheEventLines() throws {
        let harness = try harness()
        XCTAssertEqual(ask(harness, "record status"), "ok idle (160x96 10 fps, libx264)")
        XCTAssertEqual(ask(harness, "record start"), "ok recording 1\nevent recording started 1")
        _ = ask(harness, "sim wait 3000", wait: .seconds(3))
        let status = ask(harness, "record status")
        // 100 ms of the start's answer, then 3 s: 31 frames at 10 fps.
        XCTAssertTrue(status.hasPrefix("ok recording 1 3.1 s 0.2 MB "), status)
        XCTAssertTrue(status.hasSuffix(" 31 frames 0 dropped libx264"), status)
        let json = ask(harness, "record status --json")
        XCTAssertTrue(json.contains(#""recording":true"#) && json.contains(#""frames":32"#), json)
        // Where the start latency went: the first frame reached the recorder 100 ms after the
        // command (virtual time; the lane's parts take none), no ring, the encoder not kept.
        for part in [
            #""start_wait_ms":100"#, #""start_open_ms":0"#, #""start_encoder_ms":0"#,
            #""start_encoder_wait_ms":0"#,
            #""start_encode_ms":0"#,
            #""encoder_ready":false"#, #""ring_s":0"#, #""keyframe_s":1"#,
        ] {
            XCTAssertTrue(json.contains(part), "\(part) in \(json)")
        }
        let stopped = ask(harness, "record stop")
        XCTAssertEqual(stopped, "ok saved 1 /clips/clip0.mp4 33 frames 3.3 s")
        XCTAssertEqual(store.clips.first?.facts?.frameCount, 33)
        XCTAssertTrue(ask(harness, "help").contains("record start [--max SECONDS] [--pre SECONDS]"))
        XCTAssertEqual(store.clips.count, 1)
    }

    func testBadRecordCommandsAreErrorsAndChangeNothing() throws {
        let harness = try harness()
        for line in [
            "record", "record begin", "record start --max 0", "record start --max nan",
            "record start --max -5",
            "record start --max 1e300", "record start --pre 1e9", "record start --pre nan",
            "record start --pre -1",
            "record start --max", "record start extra", "record stop now", "record status soon",
            "record start --pre 2",
        ] {
            let answer = ask(harness, line)
            XCTAssertTrue(answer.hasPrefix("error 64"), "\(line): \(answer)")
        }
        XCTAssertTrue(ask(harness, "record stop").hasPrefix("error 64: not recording"))
        XCTAssertTrue(store.clips.isEmpty)
        XCTAssertEqual(ask(harness, "record start --max 5"), "ok recording 1\nevent recording started 1")
        XCTAssertTrue(ask(harness, "record start").hasPrefix("error 64: already recording (clip 1)"))
        XCTAssertEqual(store.clips.count, 1)
    }

    /// Issue 21's bad input, each through line mode: the answer says what is wrong and what to
    /// do, and the recording (none, then clip 1 running), the clips and the camera are as before.
    func testEachBadRecordLineSaysWhatToDoAndLeavesTheRecordingAsItWas() throws {
        let harness = try harness()
        let camera = harness.appliance.engine.current?.id
        for (line, answer) in [
            ("record stop", "error 64: not recording: `record start` first"),
            ("record start --max 0", "error 64: --max 0: give the longest clip in seconds, 1 to 86400"),
            ("record start --max nan", "error 64: --max nan: give the longest clip in seconds, 1 to 86400"),
            ("record start --max inf", "error 64: --max inf: give the longest clip in seconds, 1 to 86400"),
            ("record start --pre nan", "error 64: --pre nan: give the seconds before now, 0 to 30"),
            ("record start --pre 1e9", "error 64: --pre 1e9: give the seconds before now, 0 to 30"),
            ("record start --pre -1", "error 64: --pre -1: give the seconds before now, 0 to 30"),
            (
                "record start --pre 2",
                "error 64: no pre-roll is kept: set pre_roll_s in [video] (up to 30 s) to record --pre 2.0"
            ),
        ] {
            XCTAssertEqual(ask(harness, line), answer, line)
            XCTAssertNil(harness.appliance.recorder?.status, "\(line) started a clip")
            XCTAssertEqual(ask(harness, "record status"), "ok idle (160x96 10 fps, libx264)", line)
        }
        XCTAssertEqual(ask(harness, "record start"), "ok recording 1\nevent recording started 1")
        _ = ask(harness, "sim wait 2000", wait: .seconds(2))
        for (line, answer) in [
            ("record start", "error 64: already recording (clip 1): `record stop` first"),
            ("record start --max 5", "error 64: already recording (clip 1): `record stop` first"),
            ("record start --max nan", "error 64: --max nan: give the longest clip in seconds, 1 to 86400"),
            ("record stop now", "error 64: unexpected 'now': usage: record stop"),
        ] {
            let frames = harness.appliance.recorder?.status?.progress.frames ?? 0
            XCTAssertEqual(ask(harness, line), answer, line)
            XCTAssertEqual(harness.appliance.recorder?.status?.id, 1, "\(line) stopped or replaced clip 1")
            XCTAssertGreaterThan(harness.appliance.recorder?.status?.progress.frames ?? 0, frames, line)
        }
        XCTAssertEqual(store.clips.count, 1)
        XCTAssertNil(store.clips.first?.facts, "clip 1 is still being recorded")
        XCTAssertEqual(harness.appliance.engine.current?.id, camera)
        XCTAssertTrue(ask(harness, "record stop").hasPrefix("ok saved 1 /clips/clip0.mp4 "))
    }

    /// A size or rate the camera does not list ([video] size, fps): `record start` says which
    /// it offers, and nothing starts.
    func testASizeOrRateTheCameraDoesNotListIsRefusedInLineModeWithTheChoices() throws {
        for (harness, answer) in [
            (
                try harness(size: PixelSize(width: 1280, height: 720)),
                "error 64: the camera offers no 1280x720 video stream: choose one of 320x240, 160x96"
            ),
            (try harness(fps: 60), "error 64: video rate 60 fps is not offered: choose 10, 15, 24, 25, 30"),
        ] {
            XCTAssertEqual(ask(harness, "record start"), answer)
            XCTAssertNil(harness.appliance.recorder?.status)
            _ = ask(harness, "sim wait 1000", wait: .seconds(1))
            XCTAssertTrue(store.clips.isEmpty)
        }
    }

    /// Standby waits while a clip is recorded (the README says so): the camera streams past
    /// its idle time, every frame is in the clip, and standby comes once the clip is saved.
    func testStandbyWaitsWhileRecordingAndComesAfterTheClip() throws {
        let harness = try harness()
        harness.appliance.standby.after = .seconds(20)
        XCTAssertEqual(ask(harness, "record start --max 120"), "ok recording 1\nevent recording started 1")
        _ = ask(harness, "sim wait 60000", wait: .seconds(60))
        XCTAssertFalse(harness.appliance.engine.isInStandby, "standby during a recording")
        XCTAssertEqual(harness.appliance.recorder?.status?.id, 1)
        let stopped = ask(harness, "record stop")
        XCTAssertTrue(stopped.hasPrefix("ok saved 1 /clips/clip0.mp4 "), stopped)
        let facts = try XCTUnwrap(store.clips.first?.facts)
        XCTAssertGreaterThanOrEqual(facts.durationMicroseconds, 60_000_000)
        XCTAssertEqual(
            Double(facts.frameCount), Double(facts.durationMicroseconds) / 100_000, accuracy: 1,
            "every frame at 10 fps, no gap")
        harness.wait(.seconds(2))
        XCTAssertTrue(harness.appliance.engine.isInStandby, "no standby after the clip")
    }

    /// The camera vanishing mid-clip (`sim fault camera-dead`: it stops and cannot start): the
    /// clip ends, is kept with what was recorded, and the event says why.
    func testACameraThatVanishesMidClipEndsItAndTheClipIsKept() throws {
        let harness = try harness()
        XCTAssertEqual(ask(harness, "record start"), "ok recording 1\nevent recording started 1")
        _ = ask(harness, "sim wait 3000", wait: .seconds(3))
        let lines = ask(harness, "sim fault camera-dead", wait: .seconds(10))
        XCTAssertTrue(
            lines.contains("event recording saved 1 /clips/clip0.mp4 (the camera stopped sending frames)"),
            lines)
        XCTAssertNil(harness.appliance.recorder?.status)
        XCTAssertGreaterThanOrEqual(
            store.clips.first?.facts?.frameCount ?? 0, 30, "the 3 s recorded are kept")
    }

    func testPreRollAndASwitchClosesTheClipFirst() throws {
        let harness = try harness(preRoll: 3)
        _ = ask(harness, "sim wait 4000", wait: .seconds(4))
        XCTAssertEqual(ask(harness, "record start --pre 2"), "ok recording 1\nevent recording started 1")
        _ = ask(harness, "sim wait 1000", wait: .seconds(1))
        let switched = ask(harness, "camera switch", wait: .seconds(1))
        XCTAssertTrue(
            switched.contains("event recording saved 1 /clips/clip0.mp4 (the camera was switched)"), switched)
        let facts = try XCTUnwrap(store.clips.first?.facts)
        XCTAssertGreaterThanOrEqual(facts.triggerMicroseconds, 2_000_000)
        XCTAssertEqual(facts.cutShort, "the camera was switched")
    }

    func testWithoutARecorderRecordingIsUnavailable() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        XCTAssertTrue(ask(harness, "record start").hasPrefix("error 69: recording is not set up"))
    }

    func testWhileRecordingTheStatusLineShowsElapsedTimeAndSizeAndTheCaptureLEDBlinks() throws {
        let harness = try harness()
        XCTAssertFalse(StatusLine.format(harness.appliance.status(), width: 200).contains("REC"))
        _ = ask(harness, "record start")
        _ = ask(harness, "sim wait 12000", wait: .seconds(12))
        let status = harness.appliance.status()
        let line = StatusLine.format(status, width: 200)
        let recording = try XCTUnwrap(status.recording)
        XCTAssertEqual(recording.elapsedSeconds, 12.1, accuracy: 0.001)
        XCTAssertTrue(line.hasPrefix("REC 0:12 \(StatusLine.bytes(recording.bytes)) | "), line)
        XCTAssertGreaterThan(recording.bytes, 0)
        XCTAssertEqual(harness.appliance.outputs[.capture]?.showing, "recording")
        var snapshot = MenuSnapshot()
        snapshot.status = status
        var menu = ConsoleMenu()
        _ = menu.handle(.snapshot(snapshot))
        let items = menu.items(for: .capture)
        XCTAssertEqual(items.first { $0.label == "Record" }?.value, recording.line(bytes: StatusLine.bytes))
        XCTAssertNotNil(items.first { $0.label == "Stop recording" })
        _ = ask(harness, "record stop")
        XCTAssertNil(harness.appliance.status().recording)
        XCTAssertEqual(harness.appliance.outputs[.capture]?.showing, "off", "the pattern ends with the clip")
    }

    func testTheSimBoardRecordsFromItsRecordButtonAndFromTheShutterInVideoMode() throws {
        let harness = try harness()
        let photos = try XCTUnwrap(harness.appliance.status().photos)
        let photoStatus = ask(harness, "status", wait: .seconds(1))
        XCTAssertTrue(photoStatus.contains(", mode photo, "), photoStatus)
        XCTAssertTrue(StatusLine.format(harness.appliance.status(), width: 200).hasPrefix("PHOTO | imx477 "))
        XCTAssertTrue(StatusLine.format(harness.appliance.status(), width: 60).hasPrefix("PH|imx477|"))
        XCTAssertEqual(modeItem(harness), "photo: the shutter takes photos (the switch)")
        let started = ask(harness, "sim press record", wait: .seconds(1))
        XCTAssertTrue(started.hasSuffix("; recording started 1"), started)
        let saved = ask(harness, "sim press record", wait: .seconds(1))
        XCTAssertTrue(saved.hasSuffix("; recording saved 1 /clips/clip0.mp4"), saved)
        XCTAssertEqual(
            ask(harness, "sim hold mode", wait: .seconds(1)),
            "ok holding mode\nevent mode video: the shutter starts and stops recording")
        let videoStatus = ask(harness, "status")
        XCTAssertTrue(videoStatus.contains(", mode video, "), videoStatus)
        XCTAssertTrue(StatusLine.format(harness.appliance.status(), width: 200).hasPrefix("VIDEO | imx477 "))
        XCTAssertTrue(StatusLine.format(harness.appliance.status(), width: 60).hasPrefix("VID|imx477|"))
        XCTAssertEqual(modeItem(harness), "video: the shutter starts and stops recording (the switch)")
        let first = ask(harness, "sim press shutter", wait: .seconds(2))
        XCTAssertTrue(first.hasSuffix("; recording started 2"), first)
        XCTAssertTrue(
            StatusLine.format(harness.appliance.status(), width: 200).hasPrefix("REC 0:0"),
            StatusLine.format(harness.appliance.status(), width: 200))
        let second = ask(harness, "sim press shutter", wait: .seconds(1))
        XCTAssertTrue(second.hasSuffix("; recording saved 2 /clips/clip1.mp4"), second)
        XCTAssertEqual(store.clips.count, 2)
        XCTAssertEqual(harness.appliance.status().photos, photos, "no photo in video mode")
        let photo = ask(harness, "sim release mode", wait: .seconds(1))
        XCTAssertEqual(photo, "ok released mode; mode photo: the shutter takes photos")
        XCTAssertTrue(StatusLine.format(harness.appliance.status(), width: 200).hasPrefix("PHOTO | imx477 "))
        XCTAssertEqual(modeItem(harness), "photo: the shutter takes photos (the switch)")
    }

    /// The Capture page's Mode row, from the appliance's status now.
    private func modeItem(_ harness: ConsoleHarness) -> String? {
        var snapshot = MenuSnapshot()
        snapshot.status = harness.appliance.status()
        var menu = ConsoleMenu()
        _ = menu.handle(.snapshot(snapshot))
        return menu.items(for: .capture).first { $0.label == "Mode" }?.value
    }
}
