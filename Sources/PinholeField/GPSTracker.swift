// Follows gpsd on the event loop: connects, reads TPV/SKY reports, keeps the current fix, reconnects.

import PinholeCore
import PinholeImaging

/// Where GPS stands, as `status` shows it.
public enum GPSState: Sendable, Hashable {
    /// No gpsd configured.
    case off
    /// Connecting to gpsd (or waiting for its first report).
    case connecting
    /// gpsd answers but has no GPS receiver.
    case noReceiver
    /// The receiver reports no fix (yet).
    case noFix
    /// A 2D or 3D fix.
    case fix
    /// There was a fix; the receiver lost it, or reports stopped.
    case lost(reason: String)
    /// gpsd cannot be reached or closed the connection; a reconnect is scheduled.
    case disconnected(reason: String, retryAt: Instant)
}

extension GPSState {
    /// The state in a word or two, for `status --json` and the menu.
    public var name: String {
        switch self {
        case .off: return "off"
        case .connecting: return "connecting"
        case .noReceiver: return "no receiver"
        case .noFix: return "no fix"
        case .fix: return "fix"
        case .lost: return "lost"
        case .disconnected: return "disconnected"
        }
    }
}

/// A gpsd client on the loop. Reading happens on the connector's thread; every report is
/// handled on the loop, and reconnection backs off on the loop's clock (1 s doubling to
/// `maxBackoff`), so nothing blocks and tests run on virtual time.
public final class GPSTracker {
    /// gpsd's host.
    public let host: String
    /// gpsd's TCP port.
    public let port: Int
    private let loop: EventLoop
    private let connector: any LineConnector
    /// The state.
    public private(set) var state: GPSState = .off
    /// The last position report with a fix, and when it arrived on the loop's clock.
    public private(set) var lastFix: (position: GPSDPosition, at: Instant)?
    /// The last satellites report.
    public private(set) var sky: GPSDSky?
    /// A fix older than this is not written into photos (reports stopped coming).
    public var maxFixAge: Duration = .seconds(5)
    /// Longest wait between reconnection attempts.
    public var maxBackoff: Duration = .seconds(30)
    /// Called on the loop for each state change worth logging (lost, regained, unreachable).
    public var onLog: ((String) -> Void)?
    /// Called on the loop with each fix's GPS time, the loop instant it arrived and the fix's
    /// mode (2: 2D, 3: 3D).
    public var onTime: ((WallTime, Instant, Int) -> Void)?
    /// Reports that could not be read since start.
    public private(set) var malformedReports = 0
    /// gpsd lines waiting for the loop, at most 64 (a flood is dropped and counted).
    private let backlog = LineBacklog(limit: 64)
    private var reportedDrops = 0
    /// Lines from gpsd dropped because 64 were already waiting for the loop.
    public var droppedLines: Int { backlog.refusedCount }
    private var connection: (any LineConnection)?
    private var generation = 0
    private var backoff: Duration = .seconds(1)
    private var staleTimer: TimerID?
    private var retryTimer: TimerID?

    /// Creates a tracker for gpsd at `host:port`; `start()` connects.
    public init(host: String, port: Int, loop: EventLoop, connector: any LineConnector) {
        self.host = host
        self.port = port
        self.loop = loop
        self.connector = connector
    }

    /// Connects; reconnects on its own from then on.
    public func start() {
        guard connection == nil, retryTimer == nil else { return }
        connect()
    }

    /// Closes the connection and stops reconnecting.
    public func stop() {
        generation += 1
        connection?.close()
        connection = nil
        if let retryTimer { loop.cancel(retryTimer) }
        if let staleTimer { loop.cancel(staleTimer) }
        retryTimer = nil
        staleTimer = nil
        state = .off
    }

    /// The fix a photo taken now carries: the last fix, if the receiver still has it and it
    /// is fresh; nil otherwise.
    public var currentFix: GPSFix? {
        guard state == .fix, let (position, at) = lastFix, loop.now - at <= maxFixAge,
            let latitude = position.latitude, let longitude = position.longitude
        else { return nil }
        var fix = GPSFix(
            latitude: latitude, longitude: longitude, altitude: position.mode == 3 ? position.altitude : nil)
        fix.time = position.time
        fix.measureMode = position.mode
        fix.speed = position.speed
        fix.track = position.track
        fix.satellites = sky?.satellitesUsed
        fix.dop = position.mode == 3 ? (sky?.pdop ?? sky?.hdop) : sky?.hdop
        return fix
    }

    /// One line for `status`: the fix, or why there is none.
    public var summary: String {
        switch state {
        case .off: return "off"
        case .connecting: return "connecting to gpsd at \(host):\(port)"
        case .noReceiver: return "no fix: gpsd has no GPS receiver"
        case .noFix: return "no fix: the receiver has none yet"
        case .fix:
            guard let fix = currentFix else { return "no fix: no recent report" }
            let mode = fix.measureMode == 3 ? "3D" : "2D"
            let satellites = fix.satellites.map { ", \($0) satellites" } ?? ""
            return "\(mode) fix \(Self.format(fix.latitude)),\(Self.format(fix.longitude))\(satellites)"
        case .lost(let reason): return "no fix: lost (\(reason))"
        case .disconnected(let reason, let retryAt):
            let seconds = max(0, Int(((retryAt - loop.now).milliseconds / 1000).rounded(.up)))
            return "no fix: gpsd at \(host):\(port) \(reason); retrying in \(seconds) s"
        }
    }

    static func format(_ degrees: Double) -> String {
        let scaled = (degrees * 100_000).rounded() / 100_000
        return String(scaled)
    }

    private func connect() {
        generation += 1
        let current = generation
        state = .connecting
        let loop = self.loop
        let target = LoopBound(WeakTracker(tracker: self), loop: loop)
        let backlog = self.backlog
        connection = connector.open(
            host: host, port: port, greeting: Array(GPSDReport.watchCommand.utf8),
            maxLine: GPSDReport.maxLineBytes,
            onLine: { line in
                guard backlog.admit() else { return }
                loop.post {
                    backlog.handled()
                    guard let tracker = target.value.tracker, tracker.generation == current else { return }
                    tracker.handle(line)
                }
            },
            onClosed: { reason in
                loop.post {
                    guard let tracker = target.value.tracker, tracker.generation == current else { return }
                    tracker.closed(reason)
                }
            })
    }

    private func closed(_ reason: String) {
        connection?.close()
        connection = nil
        if let staleTimer { loop.cancel(staleTimer) }
        staleTimer = nil
        let hadFix = state == .fix
        let retryAt = loop.now + backoff
        state = .disconnected(reason: reason, retryAt: retryAt)
        onLog?(
            "gps: gpsd at \(host):\(port): \(reason)" + (hadFix ? "; fix lost" : "")
                + "; photos have no location until it is back (retrying in \(Int(backoff.milliseconds / 1000)) s)"
        )
        retryTimer = loop.schedule(at: retryAt) { [weak self] in
            guard let self else { return }
            self.retryTimer = nil
            self.connect()
        }
        backoff = min(backoff * 2, maxBackoff)
    }

    private func handle(_ line: [UInt8]) {
        let dropped = backlog.refusedCount
        if dropped > reportedDrops {
            onLog?(
                "gps: \(dropped - reportedDrops) lines from gpsd dropped: 64 were waiting (\(dropped) so far)"
            )
            reportedDrops = dropped
        }
        let report: GPSDReport
        do { report = try GPSDReport.parse(line) } catch {
            malformedReports += 1
            if malformedReports == 1 || malformedReports % 1000 == 0 {
                onLog?("gps: \(error) (\(malformedReports) so far); ignored")
            }
            return
        }
        switch report {
        case .version:
            backoff = .seconds(1)
        case .devices(let count):
            if count == 0, state == .connecting {
                state = .noReceiver
                onLog?("gps: gpsd at \(host):\(port) has no GPS receiver; photos have no location")
            }
        case .position(let position) where position.mode >= 2 && !position.hasFix:
            // A fix without a position on Earth is a bad report, not a lost fix.
            malformedReports += 1
        case .position(let position):
            position.hasFix ? gotFix(position) : gotNoFix()
        case .sky(let sky):
            // gpsd sends partial SKY reports (DOPs from one sentence, satellites from
            // another): keep what a report leaves out.
            var merged = self.sky ?? GPSDSky()
            merged.satellitesUsed = sky.satellitesUsed ?? merged.satellitesUsed
            merged.hdop = sky.hdop ?? merged.hdop
            merged.pdop = sky.pdop ?? merged.pdop
            self.sky = merged
        case .error(let message):
            onLog?("gps: gpsd reports an error: \(message)")
        case .other("DEVICE"):
            if state == .noReceiver {
                state = .noFix
                onLog?("gps: gpsd at \(host):\(port) found a receiver; no fix yet")
            }
        case .watch, .other:
            break
        }
    }

    private func gotFix(_ position: GPSDPosition) {
        if state != .fix {
            let mode = position.mode == 3 ? "3D" : "2D"
            onLog?(
                "gps: \(mode) fix at \(Self.format(position.latitude!)),\(Self.format(position.longitude!))")
        }
        state = .fix
        var position = position
        if let (previous, at) = lastFix, loop.now - at <= maxFixAge {
            // gpsd reports each sentence's part of a fix: keep what this report leaves out.
            position.time = position.time ?? previous.time
            position.speed = position.speed ?? previous.speed
            position.track = position.track ?? previous.track
            position.altitude = position.altitude ?? previous.altitude
        }
        lastFix = (position, loop.now)
        if let time = position.time { onTime?(time, loop.now, position.mode) }
        if let staleTimer { loop.cancel(staleTimer) }
        staleTimer = loop.schedule(after: maxFixAge) { [weak self] in
            guard let self else { return }
            self.staleTimer = nil
            let reason = "no report for \(Int(self.maxFixAge.milliseconds / 1000)) s"
            self.state = .lost(reason: reason)
            self.onLog?("gps: fix lost (\(reason)); photos have no location")
        }
    }

    private func gotNoFix() {
        switch state {
        case .fix:
            if let staleTimer { loop.cancel(staleTimer) }
            staleTimer = nil
            state = .lost(reason: "the receiver reports no fix")
            onLog?("gps: fix lost (the receiver reports no fix); photos have no location")
        case .connecting, .noReceiver:
            state = .noFix
            onLog?("gps: connected to gpsd at \(host):\(port); no fix yet")
        case .noFix, .lost, .off, .disconnected:
            break
        }
    }
}

/// A weak reference to a tracker, for closures posted from the reader thread.
private struct WeakTracker {
    weak var tracker: GPSTracker?
}
