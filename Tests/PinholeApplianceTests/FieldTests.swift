// GPS place and clock trust on the appliance, with a scripted gpsd connection and an injected clock.

import PinholeAppliance
import PinholeCore
import PinholeField
import PinholeImaging
import PinholeSim
import Synchronization
import XCTest

/// A LineConnector whose connections the test drives line by line.
final class ScriptedConnector: LineConnector, @unchecked Sendable {
    final class Connection: LineConnection, @unchecked Sendable {
        let onLine: @Sendable ([UInt8]) -> Void
        let onClosed: @Sendable (String) -> Void
        private(set) var closedByClient = false
        init(onLine: @escaping @Sendable ([UInt8]) -> Void, onClosed: @escaping @Sendable (String) -> Void) {
            self.onLine = onLine
            self.onClosed = onClosed
        }
        func close() { closedByClient = true }
    }

    private(set) var connections: [Connection] = []
    private(set) var greetings: [String] = []

    func open(
        host: String, port: Int, greeting: [UInt8], maxLine: Int,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onClosed: @escaping @Sendable (String) -> Void
    ) -> any LineConnection {
        let connection = Connection(onLine: onLine, onClosed: onClosed)
        connections.append(connection)
        greetings.append(String(decoding: greeting, as: UTF8.self))
        return connection
    }

    /// Sends lines on the newest connection.
    func send(_ lines: String...) {
        for line in lines { connections.last?.onLine(Array(line.utf8)) }
    }
}

/// A system clock whose kernel status the test sets; records attempts to set it.
final class FakeSystemClock: SystemClockControl, @unchecked Sendable {
    var synchronized: Bool? = false
    var setAllowed = true
    var timeZoneKnown = true
    private(set) var setTimes: [WallTime] = []

    func kernelSynchronized() -> Bool? { synchronized }

    func setClock(to time: WallTime) throws {
        guard setAllowed else { throw ClockSetErrorForTests() }
        setTimes.append(time)
    }
}

struct ClockSetErrorForTests: Error, CustomStringConvertible {
    var description: String { "cannot set the clock: not permitted" }
}

final class FieldTests: XCTestCase {
    private var rig: CaptureTestRig!
    private let connector = ScriptedConnector()
    private let clock = FakeSystemClock()
    private var tracker: GPSTracker!
    private var monitor: ClockTrustMonitor!

    private func attach(setClock: Bool = false) throws {
        rig = try CaptureTestRig()
        tracker = GPSTracker(host: "localhost", port: 2947, loop: rig.loop, connector: connector)
        monitor = ClockTrustMonitor(loop: rig.loop, clock: clock, setClock: setClock)
        rig.appliance.attachField(gps: tracker, clock: monitor)
        rig.loop.runUntilIdle()
    }

    /// A TPV line whose time is the loop's wall clock now plus `clockError`.
    private func tpv(mode: Int = 3, clockError: Duration = .zero) -> String {
        let time = rig.loop.wallNow.adding(clockError)
        let c = CivilDateTime(epochSeconds: time.secondsSince1970)
        let stamp =
            "\(c.year)-\(twoDigits(c.month))-\(twoDigits(c.day))T\(twoDigits(c.hour)):\(twoDigits(c.minute)):\(twoDigits(c.second)).000Z"
        if mode < 2 { return #"{"class":"TPV","mode":1,"time":"\#(stamp)"}"# }
        return
            #"{"class":"TPV","mode":\#(mode),"time":"\#(stamp)","lat":-33.8568,"lon":151.2153,"altMSL":12.5,"speed":1.5,"track":90.0}"#
    }

    private func feed(_ lines: String...) {
        for line in lines { connector.send(line) }
        rig.loop.runUntilIdle()
    }

    private func photo() throws -> PhotoMetadata {
        let result = try rig.capture()
        return try ExifReader.read(jpeg: XCTUnwrap(rig.store.jpeg(result.photo.id)))
    }

    func testAPhotoWithAFixCarriesPlaceAndGPSTrustedTime() throws {
        try attach()
        XCTAssertEqual(connector.greetings, [GPSDReport.watchCommand])
        feed(
            #"{"class":"VERSION","release":"3.22"}"#,
            #"{"class":"DEVICES","devices":[{"path":"/dev/ttyAMA0"}]}"#,
            #"{"class":"SKY","hdop":0.9,"pdop":1.6,"uSat":8}"#, tpv())
        let metadata = try photo()
        let fix = try XCTUnwrap(metadata.gps, "the photo has the fix")
        XCTAssertEqual(fix.latitude, -33.8568, accuracy: 1e-6)
        XCTAssertEqual(fix.longitude, 151.2153, accuracy: 1e-6)
        XCTAssertEqual(fix.altitude ?? 0, 12.5, accuracy: 1e-3)
        XCTAssertEqual(fix.satellites, 8)
        XCTAssertEqual(fix.dop ?? 0, 1.6, accuracy: 1e-6)
        XCTAssertEqual(fix.measureMode, 3)
        XCTAssertEqual(fix.speed ?? 0, 1.5, accuracy: 0.01)
        XCTAssertEqual(metadata.clockTrust, .gps, "GPS time agreed with the clock")
        let status = rig.appliance.status()
        XCTAssertEqual(status.gps, "3D fix -33.8568,151.2153, 8 satellites")
        XCTAssertEqual(status.gpsFix?.satellites, 8)
        XCTAssertEqual(status.clockTrust, "gps")
        XCTAssertEqual(status.clock, "trusted (GPS time)")
    }

    func testLostFixMeansNoLocationAndTheLogSaysWhy() throws {
        try attach()
        feed(#"{"class":"VERSION","release":"3.22"}"#, tpv())
        XCTAssertNotNil(try photo().gps)
        feed(tpv(mode: 1))
        let metadata = try photo()
        XCTAssertNil(metadata.gps, "photos are still taken, without location")
        XCTAssertEqual(rig.appliance.status().gps, "no fix: lost (the receiver reports no fix)")
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("gps: fix lost") }, "\(rig.appliance.problems)")
        XCTAssertNil(rig.appliance.status().gpsFix)
    }

    func testGPSDGoneReconnectsWithBackoffOnTheLoopClock() throws {
        // The tracker alone on a virtual loop: no camera needs to run for minutes of virtual time.
        let loop = EventLoop.virtual()
        let tracker = GPSTracker(host: "localhost", port: 2947, loop: loop, connector: connector)
        tracker.start()
        let fix = #"{"class":"TPV","mode":2,"lat":1.5,"lon":2.5}"#
        connector.send(fix)
        loop.runUntilIdle()
        XCTAssertNotNil(tracker.currentFix)
        connector.connections.last?.onClosed("the server closed the connection")
        loop.runUntilIdle()
        XCTAssertNil(tracker.currentFix, "no location while gpsd is gone")
        XCTAssertEqual(
            tracker.summary,
            "no fix: gpsd at localhost:2947 the server closed the connection; retrying in 1 s")
        XCTAssertEqual(connector.connections.count, 1)
        XCTAssertTrue(connector.connections[0].closedByClient)
        var expected = 1
        for seconds in [1, 2, 4, 8, 16, 30, 30] {
            loop.advance(by: .seconds(Int64(seconds)) - .milliseconds(300))
            XCTAssertEqual(connector.connections.count, expected, "no reconnection before \(seconds) s")
            loop.advance(by: .milliseconds(300))
            expected += 1
            XCTAssertEqual(connector.connections.count, expected, "reconnected after \(seconds) s")
            connector.connections.last?.onClosed("connection refused")
            loop.runUntilIdle()
        }
        // A connection that works resets the backoff.
        loop.advance(by: .seconds(30))
        connector.send(#"{"class":"VERSION","release":"3.22"}"#, fix)
        loop.runUntilIdle()
        XCTAssertNotNil(tracker.currentFix)
        connector.connections.last?.onClosed("reset")
        loop.runUntilIdle()
        let count = connector.connections.count
        loop.advance(by: .seconds(1))
        XCTAssertEqual(connector.connections.count, count + 1)
        tracker.stop()
        XCTAssertEqual(loop.pendingTimerCount, 0, "stop leaves no timer behind")
        XCTAssertEqual(tracker.summary, "off")
    }

    func testHostileLinesAreCountedAndChangeNothing() throws {
        try attach()
        feed(tpv())
        let before = try photo().gps
        feed(
            "{", #"{"class":"TPV","mode":3,"lat":400,"lon":1}"#, String(repeating: "[", count: 50),
            "\u{0}\u{1}garbage")
        XCTAssertEqual(tracker.malformedReports, 4)
        XCTAssertEqual(try photo().gps?.latitude, before?.latitude, "a position off Earth is not a fix")
        XCTAssertEqual(rig.appliance.problems.filter { $0.contains("cannot read") }.count, 1, "logged once")
    }

    func testUnsynchronizedClockWithoutGPSIsMarkedAndUnknownZoneHasNoOffset() throws {
        clock.timeZoneKnown = false
        rig = try CaptureTestRig()
        rig.appliance.attachField(gps: nil, clock: ClockTrustMonitor(loop: rig.loop, clock: clock))
        let metadata = try photo()
        XCTAssertEqual(metadata.clockTrust, .unsynchronized)
        XCTAssertFalse(metadata.timeZoneKnown, "no OffsetTime written")
        XCTAssertNil(metadata.gps)
        let status = rig.appliance.status()
        XCTAssertEqual(status.gps, "off")
        XCTAssertEqual(
            status.clock, "not trusted: the kernel reports it unsynchronized and no GPS time confirmed it")
        clock.synchronized = true
        XCTAssertEqual(try photo().clockTrust, .synchronized)
        clock.synchronized = nil
        XCTAssertEqual(try photo().clockTrust, .unknown)
    }

    func testGPSTimeSetsAnUnsynchronizedClockOnlyWhenAllowed() throws {
        try attach(setClock: false)
        feed(tpv(clockError: .seconds(86_400 * 400)))
        XCTAssertTrue(clock.setTimes.isEmpty)
        XCTAssertEqual(try photo().clockTrust, .unsynchronized)
        XCTAssertTrue(
            rig.appliance.status().clock!.contains("+34560000.0 s from GPS time"),
            rig.appliance.status().clock!)
        XCTAssertTrue(rig.appliance.problems.contains { $0.contains("set_clock = true lets GPS set it") })
    }

    func testSetClockSetsItFromGPSTimeAndTrustsIt() throws {
        try attach(setClock: true)
        let gpsNow = rig.loop.wallNow.adding(.seconds(86_400 * 400))
        feed(tpv(clockError: .seconds(86_400 * 400)))
        XCTAssertEqual(clock.setTimes.map(\.secondsSince1970), [gpsNow.secondsSince1970])
        XCTAssertEqual(try photo().clockTrust, .gps)
        XCTAssertTrue(rig.appliance.problems.contains { $0.hasPrefix("clock: set from GPS time") })
        // A synchronized kernel clock is never overridden.
        clock.synchronized = true
        feed(tpv(clockError: .seconds(30)))
        XCTAssertEqual(clock.setTimes.count, 1)
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("the kernel reports it synchronized: not changed") }
        )
    }

    /// GPS time sets the clock only from a 3D fix, only when it is not before the build, and
    /// at most once an hour.
    func testSetClockNeedsA3DFixATimeAfterTheBuildAndARateLimit() throws {
        try attach(setClock: true)
        feed(tpv(mode: 2, clockError: .seconds(86_400 * 400)))
        XCTAssertEqual(clock.setTimes.count, 0, "a 2D fix never sets the clock")
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("not set: a 2D fix") }, "\(rig.appliance.problems)")
        monitor.earliestSettableTime = rig.loop.wallNow.adding(.seconds(86_400 * 800))
        feed(tpv(clockError: .seconds(86_400 * 400)))
        XCTAssertEqual(clock.setTimes.count, 0, "a time before the build never sets the clock")
        monitor.earliestSettableTime = rig.loop.wallNow.adding(.seconds(-86_400 * 10))
        XCTAssertEqual(monitor.minimumSetInterval, .seconds(3600), "at most once an hour")
        monitor.minimumSetInterval = .seconds(10)  // the loop's camera would take long to run an hour
        feed(tpv(clockError: .seconds(86_400 * 400)))
        XCTAssertEqual(clock.setTimes.count, 1)
        feed(tpv(clockError: .seconds(-86_400)))
        XCTAssertEqual(clock.setTimes.count, 1, "not again within the hour")
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("not set: set from GPS less than 10 s ago") },
            "\(rig.appliance.problems)")
        rig.loop.advance(by: .seconds(11))
        feed(tpv(clockError: .seconds(-86_400)))
        XCTAssertEqual(clock.setTimes.count, 2, "after the interval it may set it again")
    }

    func testBeforeTheBuildDateGPSTimeIsNotBelieved() throws {
        try attach(setClock: true)
        monitor.earliestSettableTime = rig.loop.wallNow.adding(.seconds(86_400 * 800))
        feed(tpv(clockError: .seconds(86_400 * 400)))
        XCTAssertEqual(clock.setTimes.count, 0)
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("is before this build") },
            "\(rig.appliance.problems)")
    }

    /// A flood from gpsd's port while the loop is busy: 64 lines wait, the rest are dropped,
    /// counted and logged.
    func testTheLineQueueFromGPSDIsBounded() throws {
        try attach()
        for _ in 0..<1000 { connector.send(tpv()) }
        rig.loop.runUntilIdle()
        XCTAssertEqual(tracker.droppedLines, 936)
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("936 lines from gpsd dropped: 64 were waiting") },
            "\(rig.appliance.problems)")
        feed(tpv())
        XCTAssertEqual(tracker.droppedLines, 936, "the queue drained: nothing more is dropped")
    }

    func testSetClockWithoutThePrivilegeSaysSo() throws {
        clock.setAllowed = false
        try attach(setClock: true)
        feed(tpv(clockError: .seconds(-3600)))
        XCTAssertEqual(try photo().clockTrust, .unsynchronized)
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("-3600.0 s from GPS time; cannot set the clock") })
    }
}
