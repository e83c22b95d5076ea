// The gpsd client against a real gpsd reading NMEA logs from a pty: fix, no fix, loss of fix, gpsd killed and restarted.

import Foundation
import PinholeAppliance
import PinholeCore
import PinholeField
import PinholeImaging
@testable import PinholeLinux
import PinholeSystem
import SystemPackage
import PinholeTestTools
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class GPSDTrackerTests: XCTestCase {
    private var loop: EventLoop!
    private var tracker: GPSTracker!
    private var log: [String] = []

    private func makeTracker(port: Int) {
        loop = EventLoop.virtual()
        tracker = GPSTracker(host: "127.0.0.1", port: port, loop: loop, connector: TCPLineConnector())
        tracker.onLog = { [unowned self] in log.append($0) }
        tracker.start()
    }

    override func tearDown() {
        tracker?.stop()
        super.tearDown()
    }

    /// Runs what the reader posted until `condition` holds, blocking until the reader posts
    /// again (virtual time stands still, so no fix goes stale while real time passes); a
    /// failed reconnection is retried at once by moving virtual time to its retry. Gives up
    /// after 30 s of real time.
    private func waitFor(
        _ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
    ) {
        let deadline = monotonicNow() + .seconds(30)
        while monotonicNow() < deadline {
            loop.runUntilIdle()
            if condition() { return }
            if case .disconnected(_, let retryAt) = tracker.state, what != "disconnected" {
                loop.advance(to: retryAt)
                continue
            }
            loop.waitForPostedWork(realDeadline: deadline)
        }
        XCTFail("waited 30 s for \(what); state \(tracker.state), log: \(log)", file: file, line: line)
    }

    func testAFixGivesPhotosPlaceTimeSatellitesAndDOP() throws {
        let gpsd = try FakeGPSD(log: "fix")
        defer { gpsd.kill() }
        try gpsd.waitUntilListening()
        makeTracker(port: gpsd.port)
        waitFor("a 3D fix with satellites, DOP, speed, track and time") {
            // gpsd reports a fix sentence by sentence: wait until every part has arrived.
            guard let fix = tracker.currentFix else { return false }
            return fix.measureMode == 3 && fix.altitude != nil && fix.satellites != nil && fix.dop != nil
                && fix.speed != nil
                && fix.track != nil && fix.time != nil
        }
        let fix = try XCTUnwrap(tracker.currentFix)
        XCTAssertEqual(fix.latitude, 46.5201, accuracy: 1e-6)
        XCTAssertEqual(fix.longitude, 6.6334, accuracy: 1e-6)
        XCTAssertEqual(fix.altitude ?? -1, 495.2, accuracy: 0.01)
        XCTAssertEqual(fix.speed ?? -1, 2.5, accuracy: 0.01)
        XCTAssertEqual(fix.track ?? -1, 271.2, accuracy: 0.01)
        XCTAssertEqual(fix.satellites, 9)
        XCTAssertEqual(fix.dop ?? -1, 1.6, accuracy: 1e-6, "PDOP for a 3D fix")
        XCTAssertEqual(fix.time.map { CivilDateTime(epochSeconds: $0.secondsSince1970).day }, 21)
        XCTAssertTrue(tracker.summary.hasPrefix("3D fix 46.5201,6.6334"), tracker.summary)

        // The same fix goes stale when reports stop coming (on the loop's clock).
        loop.advance(by: tracker.maxFixAge + .milliseconds(1))
        XCTAssertNil(tracker.currentFix)
        XCTAssertEqual(tracker.summary, "no fix: lost (no report for 5 s)")
    }

    func testNoFixMeansNoLocationAndStatusSaysWhy() throws {
        let gpsd = try FakeGPSD(log: "nofix")
        defer { gpsd.kill() }
        try gpsd.waitUntilListening()
        makeTracker(port: gpsd.port)
        waitFor("gpsd's no-fix reports") { tracker.state == .noFix }
        XCTAssertNil(tracker.currentFix)
        XCTAssertEqual(tracker.summary, "no fix: the receiver has none yet")
        XCTAssertTrue(log.contains { $0.contains("no fix yet") }, "\(log)")
    }

    func testLossOfFixIsNoticedAndLogged() throws {
        let gpsd = try FakeGPSD(log: "loss")
        defer { gpsd.kill() }
        try gpsd.waitUntilListening()
        makeTracker(port: gpsd.port)
        // The log comes as fast as gpsd reads it: the fix may be lost again by the time the
        // loop runs, so wait for its log line, not for the state.
        waitFor("a fix") { log.contains { $0.hasPrefix("gps: ") && $0.contains(" fix at ") } }
        waitFor("the fix to be lost") {
            if case .lost = tracker.state { return true }
            return false
        }
        XCTAssertNil(tracker.currentFix)
        XCTAssertEqual(tracker.summary, "no fix: lost (the receiver reports no fix)")
        XCTAssertTrue(log.contains { $0.contains("fix lost (the receiver reports no fix)") }, "\(log)")
    }

    func testGPSDKilledAndRestartedReconnectsWithBackoff() throws {
        let gpsd = try FakeGPSD(log: "fix")
        let port = gpsd.port
        try gpsd.waitUntilListening()
        makeTracker(port: port)
        waitFor("a fix") { tracker.currentFix != nil }

        gpsd.kill()
        waitFor("disconnected") {
            if case .disconnected = tracker.state { return true }
            return false
        }
        XCTAssertNil(tracker.currentFix, "no location while gpsd is gone")
        XCTAssertTrue(tracker.summary.contains("retrying in 1 s"), tracker.summary)
        XCTAssertTrue(log.contains { $0.contains("fix lost") && $0.contains("retrying") }, "\(log)")

        // Nothing listens: a retry on the loop's clock fails and backs off further.
        guard case .disconnected(_, let retryAt) = tracker.state else { return XCTFail("\(tracker.state)") }
        loop.advance(to: retryAt)
        waitFor("disconnected") {
            if case .disconnected(_, let next) = tracker.state, next > retryAt { return true }
            return false
        }
        XCTAssertTrue(tracker.summary.contains("retrying in 2 s"), tracker.summary)

        try gpsd.restart()
        try gpsd.waitUntilListening()
        waitFor("a fix again after the restart") { tracker.currentFix != nil }
        XCTAssertEqual(tracker.state, .fix)
    }

    func testNothingListeningIsReportedAndRetried() throws {
        let port = try FakeGPSD.freePort()
        makeTracker(port: port)
        waitFor("disconnected") {
            if case .disconnected = tracker.state { return true }
            return false
        }
        XCTAssertTrue(
            tracker.summary.hasPrefix("no fix: gpsd at 127.0.0.1:\(port) connection refused"), tracker.summary
        )
        XCTAssertEqual(loop.pendingTimerCount, 1, "one retry scheduled")
    }
}

/// The doctor's gpsd probe against a real gpsd, a server that is not gpsd, and no server.
final class GPSDProbeTests: XCTestCase {
    func testTheProbeReadsGPSDsReleaseAndClosesItsSocket() throws {
        let gpsd = try FakeGPSD(log: "fix")
        defer { gpsd.kill() }
        try gpsd.waitUntilListening()
        let before = LoopbackServer.openDescriptors
        let release = try GPSDProbe.version(host: "127.0.0.1", port: gpsd.port)
        XCTAssertTrue(release.first?.isNumber == true && release.contains("."), release)
        XCTAssertEqual(LoopbackServer.openDescriptors, before)
    }

    func testSomethingElseOrNothingListeningIsSaidAndLeavesNoDescriptorOpen() throws {
        let server = try LoopbackServer()
        let port = try LoopbackServer.closedPort()
        let before = LoopbackServer.openDescriptors
        let answer = try SystemThread.start {
            guard let peer = try? server.accept() else { return }
            _ = try? peer.writeAll(Array("220 mail.example ESMTP\r\n".utf8))
            try? peer.close()
        }
        XCTAssertThrowsError(try GPSDProbe.version(host: "127.0.0.1", port: server.port)) {
            XCTAssertEqual("\($0)", "not gpsd (no VERSION line)")
        }
        answer.join()
        XCTAssertThrowsError(try GPSDProbe.version(host: "127.0.0.1", port: port)) {
            XCTAssertEqual("\($0)", "connection refused or reset (Connection refused)")
        }
        XCTAssertEqual(LoopbackServer.openDescriptors, before)
    }
}
