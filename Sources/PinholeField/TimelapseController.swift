// Runs a timelapse on the appliance: wall-clock slots, durable progress, missed slots, per-shot AF or a lock.

import PinholeCapture
import PinholeCore
import PinholeSystem
import SystemPackage

/// Shoots a timelapse through the appliance's normal capture path.
///
/// Each slot's photo is the frame exposing at the slot's instant (the engine's zero-shutter-lag
/// selection), so shots stay on the wall-clock grid. A slot whose time has passed by more than
/// `lateTolerance` (the appliance was off, the loop was blocked, the previous shot is still
/// being saved) is counted as missed and never shot late. Progress is written durably after
/// every slot, so a restart resumes the run.
public final class TimelapseController {
    /// The appliance, held weakly: it owns this controller (`Appliance.timelapse`).
    private weak var appliance: (any UnattendedShooting)?
    private let loop: EventLoop
    private let engine: CaptureEngine
    /// Where the running timelapse is kept (nil: not durable, for tests of the schedule only).
    public let stateFile: FilePath?
    /// The running timelapse.
    public private(set) var state: TimelapseState?
    /// Progress of the last run, kept after it ended.
    public private(set) var finished: TimelapseState?
    /// How long before a slot the camera is woken and AF runs.
    public var prepareLead: Duration = .seconds(2)
    /// How late a slot may still be shot.
    public var lateTolerance: Duration = .milliseconds(500)
    /// Why the last slot was missed.
    public private(set) var lastMissed: String?
    /// Things worth a log line ("timelapse missed …", "timelapse ended …").
    public var onEvent: ((String) -> Void)?
    private var prepareTimer: TimerID?
    private var shotTimer: TimerID?
    private var shotInFlight = false
    private var restore: (exposure: ExposureMode, focus: AutofocusMode?)?
    private var generation = 0

    /// Creates a controller; call `resume()` once the appliance has started.
    public init(appliance: any UnattendedShooting, stateFile: FilePath?) {
        self.appliance = appliance
        self.loop = appliance.loop
        self.engine = appliance.engine
        self.stateFile = stateFile
    }

    // MARK: Commands

    /// Starts a timelapse; the first slot is the next one on the grid.
    @discardableResult
    public func start(_ plan: TimelapsePlan) throws -> TimelapseStatus {
        try plan.validate()
        guard state == nil else { throw TimelapseError.alreadyRunning }
        let now = loop.wallNow
        let grid = TimelapseGrid(intervalMs: plan.intervalMs, utcOffsetSeconds: now.utcOffsetSeconds)
        // A slot needs the preparation lead in front of it, when the interval leaves room.
        let lead = plan.intervalMs > 2 * prepareLead.nanoseconds / 1_000_000 ? prepareLead : .zero
        let first = nextInside(grid.slot(atOrAfter: now.adding(lead)), grid: grid, window: plan.window)
        guard hasSlotInside(grid: grid, window: plan.window) else {
            throw TimelapseError.invalid("no slot of this interval falls inside the window")
        }
        state = TimelapseState(
            plan: plan, utcOffsetSeconds: now.utcOffsetSeconds, startedAt: now, nextSlot: first)
        finished = nil
        lastMissed = nil
        persist()
        scheduleNext()
        return status()
    }

    /// Stops the running timelapse (exposure and focus return to what they were before `--lock`).
    @discardableResult
    public func stop() throws -> TimelapseStatus {
        guard state != nil else { throw TimelapseError.notRunning }
        end(reason: "stopped")
        return status()
    }

    /// Resumes a timelapse recorded in the state file: slots that passed meanwhile are counted
    /// as missed. Returns what happened, for the log (nil: nothing to resume).
    @discardableResult
    public func resume() -> String? {
        guard let stateFile, state == nil, let text = FileSystem.readText(stateFile) else { return nil }
        let saved: TimelapseState
        do {
            saved = try TimelapseState.parse(text, file: stateFile)
            try saved.plan.validate()
        } catch {
            return "timelapse state not resumed (\(error)): fix or delete the file"
        }
        state = saved
        if let exposure = saved.lockedExposure { applyLock(exposure: exposure, lens: saved.lockedLens) }
        let before = saved.missed
        accountMissed(upTo: loop.wallNow, reason: "the appliance was not running")
        guard let current = state else {
            return "timelapse resumed and ended: its count was reached while off"
        }
        persist()
        scheduleNext()
        return "timelapse resumed: \(current.taken) taken, \(current.missed - before) slots missed while off"
    }

    /// The progress now.
    public func status() -> TimelapseStatus {
        guard let state else {
            return TimelapseStatus(
                running: false, taken: finished?.taken ?? 0, missed: finished?.missed ?? 0,
                lastMissed: lastMissed)
        }
        let next: String? =
            state.isFinished
            ? nil
            : state.grid.time(ofSlot: nextInside(state.nextSlot, grid: state.grid, window: state.plan.window))
                .iso8601
        return TimelapseStatus(
            running: true, every: TimelapsePlan.durationText(state.plan.intervalMs), count: state.plan.count,
            window: state.plan.window?.description, album: state.plan.album, lock: state.plan.lock,
            taken: state.taken, missed: state.missed, next: next, lastMissed: lastMissed)
    }

    /// The wall time of the next slot, if a timelapse runs.
    public var nextSlotTime: WallTime? {
        guard let state, !state.isFinished else { return nil }
        return state.grid.time(
            ofSlot: nextInside(state.nextSlot, grid: state.grid, window: state.plan.window))
    }

    // MARK: Scheduling

    private func nextInside(_ slot: Int64, grid: TimelapseGrid, window: DailyWindow?) -> Int64 {
        guard window != nil else { return slot }
        let perDay = max(1, 86_400_000 / grid.intervalMs + 1)
        var candidate = slot
        for _ in 0..<perDay {
            if grid.isInside(candidate, window: window) { return candidate }
            candidate += 1
        }
        return slot
    }

    private func hasSlotInside(grid: TimelapseGrid, window: DailyWindow?) -> Bool {
        guard window != nil else { return true }
        let start = grid.slot(atOrAfter: loop.wallNow)
        return (0..<max(1, 86_400_000 / grid.intervalMs + 1)).contains {
            grid.isInside(start + $0, window: window)
        }
    }

    /// The monotonic instant of a wall time (through the loop's clock).
    private func instant(of wall: WallTime) -> Instant {
        let now = loop.wallNow
        let delta =
            (wall.secondsSince1970 - now.secondsSince1970) * 1_000_000_000 + Int64(wall.nanoseconds)
            - Int64(now.nanoseconds)
        return loop.now + .nanoseconds(delta)
    }

    private func cancelTimers() {
        if let prepareTimer { loop.cancel(prepareTimer) }
        if let shotTimer { loop.cancel(shotTimer) }
        prepareTimer = nil
        shotTimer = nil
    }

    private func scheduleNext() {
        cancelTimers()
        guard var current = state else { return }
        if current.isFinished {
            if !shotInFlight { end(reason: "count reached") }
            return
        }
        if let count = current.plan.count, current.slotsDone + (shotInFlight ? 1 : 0) >= count { return }
        current.nextSlot = nextInside(current.nextSlot, grid: current.grid, window: current.plan.window)
        state = current
        let slot = current.nextSlot
        let at = instant(of: current.grid.time(ofSlot: slot))
        let generation = self.generation
        let lead = current.plan.intervalMs > 2 * prepareLead.nanoseconds / 1_000_000 ? prepareLead : .zero
        if lead > .zero, at - lead > loop.now {
            prepareTimer = loop.schedule(at: at - lead) { [weak self] in
                guard let self, self.generation == generation else { return }
                self.prepare()
            }
        } else {
            prepare()
        }
        shotTimer = loop.schedule(at: at) { [weak self] in
            guard let self, self.generation == generation else { return }
            self.slotDue(slot)
        }
    }

    /// Before a slot: wake the camera and, in auto AF without a lock, focus.
    private func prepare() {
        appliance?.noteActivity(wakeFor: "timelapse")
        guard let state, state.lockedExposure == nil || !state.plan.lock else { return }
        if engine.focus.mode == .auto, engine.current?.hasFocusControl ?? false {
            try? engine.focus.trigger { _ in }
        }
    }

    private func slotDue(_ slot: Int64) {
        shotTimer = nil
        guard let current = state else { return }
        let now = loop.wallNow
        let slotTime = current.grid.time(ofSlot: slot)
        if instant(of: slotTime) > loop.now + .milliseconds(1) {
            scheduleNext()  // the wall clock was set back: wait for the slot's new instant
            return
        }
        accountMissed(upTo: now, reason: "the loop was late")
        guard var running = state, running.nextSlot == slot else {
            scheduleNext()
            return
        }
        running.nextSlot = slot + 1
        state = running
        if shotInFlight {
            miss(reason: "the previous shot was still being saved")
            persist()
            scheduleNext()
            return
        }
        shoot(at: instant(of: slotTime))
        scheduleNext()
    }

    /// Counts every slot inside the window whose time is more than `lateTolerance` before `now` as missed.
    private func accountMissed(upTo now: WallTime, reason: String) {
        guard var current = state else { return }
        let cutoff = current.grid.slot(atOrBefore: now.adding(.zero - lateTolerance))
        guard current.nextSlot <= cutoff else { return }
        var slot = current.nextSlot
        var missed = 0
        while slot <= cutoff {
            if current.grid.isInside(slot, window: current.plan.window) {
                if let count = current.plan.count, current.slotsDone + missed >= count { break }
                missed += 1
            }
            slot += 1
        }
        current.nextSlot = max(slot, current.nextSlot)
        current.missed += missed
        state = current
        if missed > 0 {
            lastMissed = reason
            onEvent?("timelapse missed \(missed) slot\(missed == 1 ? "" : "s"): \(reason)")
        }
        if current.isFinished { end(reason: "count reached") }
    }

    private func miss(reason: String) {
        state?.missed += 1
        lastMissed = reason
        onEvent?("timelapse missed a slot: \(reason)")
    }

    private func shoot(at instant: Instant) {
        guard let appliance else { return }
        shotInFlight = true
        let generation = self.generation
        appliance.capture(pressedAt: instant) { [weak self] result in
            guard let self else { return }
            self.shotInFlight = false
            guard self.generation == generation, self.state != nil else { return }
            switch result {
            case .success(let capture):
                self.state?.taken += 1
                if let state = self.state, state.plan.lock, state.lockedExposure == nil {
                    let exposure = (
                        Int64(capture.frame.exposureTime.nanoseconds / 1000), capture.frame.analogueGain
                    )
                    self.state?.lockedExposure = exposure
                    self.state?.lockedLens = capture.frame.lensPosition
                    self.applyLock(exposure: exposure, lens: capture.frame.lensPosition)
                }
                if let album = self.state?.plan.album { self.fileInAlbum(capture.photo.id, album: album) }
            case .failure(let error):
                self.miss(reason: "the capture failed: \(error)")
            }
            self.persist()
            if self.state?.isFinished ?? false {
                self.end(reason: "count reached")
            } else {
                self.scheduleNext()
            }
        }
    }

    private func fileInAlbum(_ id: String, album: String) {
        guard let store = appliance?.albumFiling else {
            onEvent?("timelapse: this library keeps no albums; photo \(id) is not in \"\(album)\"")
            return
        }
        loop.offload({ Result { try store.file(id, inAlbum: album) } }) { [weak self] outcome in
            if case .failure(let error) = outcome {
                self?.onEvent?("timelapse: photo \(id) could not be put in album \"\(album)\": \(error)")
            }
        }
    }

    // MARK: Lock

    private func applyLock(exposure: (timeUs: Int64, gain: Double), lens: Double?) {
        if restore == nil {
            let focus: AutofocusMode? = engine.current?.hasFocusControl ?? false ? engine.focus.mode : nil
            restore = (engine.exposure.mode, focus)
        }
        let gain = max(1, exposure.gain)
        do { try engine.setExposure(.manual(time: .microseconds(exposure.timeUs), gain: gain)) } catch {
            onEvent?("timelapse: the first shot's exposure could not be kept: \(error)")
        }
        if let lens, engine.current?.hasFocusControl ?? false {
            do { try engine.focus.setLens(lens) } catch {
                onEvent?("timelapse: the first shot's focus could not be kept: \(error)")
            }
        }
    }

    private func releaseLock() {
        guard let restore else { return }
        self.restore = nil
        try? engine.setExposure(restore.exposure)
        if let focus = restore.focus { try? engine.focus.setMode(focus) }
    }

    // MARK: Ending and persistence

    private func end(reason: String) {
        guard let current = state else { return }
        cancelTimers()
        generation += 1
        finished = current
        state = nil
        releaseLock()
        if let stateFile {
            // A state file left behind would resume this finished run at the next start: say so.
            loop.offload({ Result { try DurableFiles.remove(stateFile) } }) { [weak self] outcome in
                if case .failure(let error) = outcome {
                    self?.onEvent?(
                        "timelapse state file \(stateFile) could not be removed (\(error)): the next start"
                            + " resumes the ended run; remove the file, or stop it then with `timelapse stop`"
                    )
                }
            }
        }
        onEvent?("timelapse ended (\(reason)): \(current.taken) taken, \(current.missed) missed")
    }

    private func persist() {
        guard let stateFile, let state else { return }
        let bytes = Array(state.serialized().utf8)
        loop.offload({ Result { try DurableFiles.write(bytes, to: stateFile, replace: true) } }) {
            [weak self] outcome in
            if case .failure(let error) = outcome {
                self?.onEvent?(
                    "timelapse progress could not be saved (\(error)): a restart would not resume it")
            }
        }
    }
}
