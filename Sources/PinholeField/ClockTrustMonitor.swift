// Decides whether the clock can be trusted: the kernel's sync status, or a GPS time fix; may set it.

import PinholeCore

/// Tracks clock trust on the loop. A GPS time that agrees with the clock (within
/// `agreement`) makes it trusted for `gpsValidity`; when it disagrees and the kernel says
/// the clock is unsynchronized, `setClock` lets the GPS time set it.
public final class ClockTrustMonitor {
    private let loop: EventLoop
    private let clock: any SystemClockControl
    /// Whether a GPS time fix may set an unsynchronized clock (`[gps] set_clock`).
    public var setClock: Bool
    /// How close GPS time and the clock must be to count as agreeing.
    public var agreement: Duration = .seconds(2)
    /// How long a GPS agreement keeps the clock trusted without another one.
    public var gpsValidity: Duration = .seconds(600)
    /// The earliest GPS time believed enough to set the clock (the build's commit time: a
    /// receiver that reports an earlier time, after a GPS week rollover say, is wrong).
    public var earliestSettableTime: WallTime
    /// The least time between two clock settings from GPS (a receiver that jumps about must
    /// not move the clock every second).
    public var minimumSetInterval: Duration = .seconds(3600)
    /// Called on the loop with lines worth logging (clock set, clock off).
    public var onLog: ((String) -> Void)?
    /// When GPS time last set the clock (loop clock).
    public private(set) var lastSet: Instant?
    /// When GPS time last agreed with the clock (loop clock).
    public private(set) var lastGPSAgreement: Instant?
    /// The clock's offset from GPS time at the last GPS time report (GPS minus clock).
    public private(set) var lastGPSOffset: Duration?
    private var reportedDisagreement = false

    /// Creates a monitor; GPS time before `earliestSettableTime` never sets the clock.
    public init(
        loop: EventLoop, clock: any SystemClockControl, setClock: Bool = false,
        earliestSettableTime: WallTime = WallTime(secondsSince1970: 0)
    ) {
        self.loop = loop
        self.clock = clock
        self.setClock = setClock
        self.earliestSettableTime = earliestSettableTime
    }

    /// Whether the local time zone is known (so a photo's UTC offset is meaningful).
    public var timeZoneKnown: Bool { clock.timeZoneKnown }

    /// The trust a photo taken now gets.
    public var trust: ClockTrust {
        if let lastGPSAgreement, loop.now - lastGPSAgreement <= gpsValidity { return .gps }
        switch clock.kernelSynchronized() {
        case true?: return .synchronized
        case false?: return .unsynchronized
        case nil: return .unknown
        }
    }

    /// One line for `status`.
    public var summary: String {
        switch trust {
        case .gps: return "trusted (GPS time)"
        case .synchronized: return "trusted (kernel synchronized)"
        case .unsynchronized:
            if let offset = lastGPSOffset {
                return "not trusted: unsynchronized, \(Self.seconds(offset)) from GPS time"
            }
            return "not trusted: the kernel reports it unsynchronized and no GPS time confirmed it"
        case .unknown: return "unknown: the kernel's status cannot be read"
        }
    }

    /// A GPS fix's time `gpsTime`, received at `receivedAt` on the loop clock, from a fix of
    /// `fixMode` (2: 2D, 3: 3D). Only a 3D fix, a time not before `earliestSettableTime`, and
    /// at most one setting per `minimumSetInterval` may set the clock.
    public func gpsTime(_ gpsTime: WallTime, receivedAt: Instant, fixMode: Int = 3) {
        let clockThen = loop.wallTime(at: receivedAt)
        let offset =
            Duration.seconds(gpsTime.secondsSince1970 - clockThen.secondsSince1970)
            + .nanoseconds(Int64(gpsTime.nanoseconds) - Int64(clockThen.nanoseconds))
        lastGPSOffset = offset
        if abs(offset.milliseconds) <= agreement.milliseconds {
            lastGPSAgreement = receivedAt
            reportedDisagreement = false
            return
        }
        if setClock && clock.kernelSynchronized() != true {
            if let refusal = setRefusal(gpsTime, fixMode: fixMode) {
                if !reportedDisagreement {
                    onLog?("clock: \(Self.seconds(offset)) from GPS time; not set: \(refusal)")
                    reportedDisagreement = true
                }
                return
            }
            let now = gpsTime.adding(loop.now - receivedAt)
            do {
                try clock.setClock(to: now)
                lastSet = loop.now
                lastGPSAgreement = loop.now
                lastGPSOffset = .zero
                reportedDisagreement = false
                onLog?("clock: set from GPS time to \(now.iso8601) (it was \(Self.seconds(offset)) off)")
            } catch {
                if !reportedDisagreement {
                    onLog?("clock: \(Self.seconds(offset)) from GPS time; \(error)")
                    reportedDisagreement = true
                }
            }
            return
        }
        if !reportedDisagreement {
            reportedDisagreement = true
            onLog?(
                "clock: \(Self.seconds(offset)) from GPS time"
                    + (setClock
                        ? " but the kernel reports it synchronized: not changed"
                        : "; photos are marked unsynchronized unless the kernel is synchronized ([gps] set_clock = true lets GPS set it)")
            )
        }
    }

    /// Why GPS time may not set the clock now, or nil when it may.
    private func setRefusal(_ gpsTime: WallTime, fixMode: Int) -> String? {
        if fixMode < 3 { return "a 2D fix (setting the clock needs a 3D fix)" }
        if gpsTime.secondsSince1970 < earliestSettableTime.secondsSince1970 {
            return "GPS time \(gpsTime.iso8601) is before this build (\(earliestSettableTime.iso8601))"
        }
        if let lastSet, loop.now - lastSet < minimumSetInterval {
            let seconds = Int((minimumSetInterval - (loop.now - lastSet)).milliseconds / 1000) + 1
            return
                "set from GPS less than \(Int(minimumSetInterval.milliseconds / 1000)) s ago (again in \(seconds) s)"
        }
        return nil
    }

    static func seconds(_ offset: Duration) -> String {
        let seconds = Double(offset.milliseconds) / 1000
        let rounded = (seconds * 10).rounded() / 10
        return (rounded >= 0 ? "+" : "") + String(rounded) + " s"
    }
}
