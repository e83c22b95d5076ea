// Trigger inputs: debounced edges with hold-off fire a number of shots, waking the camera from standby.

import PinholeBoard
import PinholeCore

/// Watches the board's trigger lines and takes photos when they fire.
///
/// An edge counts once the line has held the firing level for the trigger's debounce; the
/// first photo is the frame exposing at that first edge (zero shutter lag, or the first frame
/// after a wake when the camera slept), the others follow every `interval`. A trigger within
/// `holdOff` of the last one is ignored (and counted).
public final class TriggerController {
    /// The appliance, held weakly: it owns this controller (`Appliance.triggers`).
    private weak var appliance: (any UnattendedShooting)?
    private let loop: EventLoop
    private let triggers: [TriggerWiring]
    private let gpio: any GPIOBackend
    private var lines: [String: any InputLine] = [:]
    private var pending: [String: Instant] = [:]
    private var lastFired: [String: Instant] = [:]
    /// Triggers that fired, by name.
    public private(set) var fired: [String: Int] = [:]
    /// Triggers ignored inside their hold-off, by name.
    public private(set) var suppressed: [String: Int] = [:]
    /// Edges ignored because the line did not hold its level for the debounce, by name.
    public private(set) var glitches: [String: Int] = [:]
    /// Photos saved for triggers, by name.
    public private(set) var shotsTaken: [String: Int] = [:]
    /// Clips started for triggers, by name.
    public private(set) var clipsStarted: [String: Int] = [:]
    /// Triggers that extended a clip under way, by name.
    public private(set) var clipsExtended: [String: Int] = [:]
    /// The wall time each trigger last fired, by name.
    private var lastFiredWall: [String: WallTime] = [:]

    /// Creates a controller for a board's `triggers`, whose lines come from `gpio`.
    public init(appliance: any UnattendedShooting, triggers: [TriggerWiring], gpio: any GPIOBackend) {
        self.appliance = appliance
        self.loop = appliance.loop
        self.triggers = triggers
        self.gpio = gpio
    }

    /// Requests every trigger line; a line that cannot be requested is an error and releases
    /// the ones requested so far.
    public func start() throws {
        for trigger in triggers {
            do {
                let line = try gpio.requestInput(trigger.inputConfig) { [weak self] edge in
                    self?.edge(trigger, edge)
                }
                lines[trigger.name] = line
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Each trigger line's counts, in the board's order.
    public func status() -> [TriggerStatus] {
        triggers.map { trigger in
            TriggerStatus(
                name: trigger.name, line: trigger.line, fired: fired[trigger.name] ?? 0,
                shots: shotsTaken[trigger.name] ?? 0,
                clips: clipsStarted[trigger.name] ?? 0, clipExtensions: clipsExtended[trigger.name] ?? 0,
                ignoredHoldOff: suppressed[trigger.name] ?? 0, ignoredDebounce: glitches[trigger.name] ?? 0,
                lastFired: lastFiredWall[trigger.name]?.iso8601)
        }
    }

    /// Releases the lines.
    public func stop() {
        for line in lines.values { line.release() }
        lines.removeAll()
        pending.removeAll()
    }

    private func edge(_ trigger: TriggerWiring, _ edge: LineEdge) {
        guard trigger.edge == .both || edge.active else { return }
        guard pending[trigger.name] == nil else { return }  // a bounce of an edge being settled
        pending[trigger.name] = edge.timestamp
        let level = edge.active
        loop.schedule(at: max(loop.now, edge.timestamp + trigger.debounce)) { [weak self] in
            self?.settled(trigger, level: level)
        }
    }

    private func settled(_ trigger: TriggerWiring, level: Bool) {
        guard let first = pending.removeValue(forKey: trigger.name), let line = lines[trigger.name] else {
            return
        }
        guard (try? line.read()) == level else {  // it was a glitch
            glitches[trigger.name, default: 0] += 1
            return
        }
        // A clip is re-triggerable: an edge in its post time extends it, hold-off or not.
        if let clip = trigger.clip { record(trigger, clip, edge: first) }
        if let last = lastFired[trigger.name], first < last + trigger.holdOff {
            suppressed[trigger.name, default: 0] += 1
            return
        }
        lastFired[trigger.name] = first
        lastFiredWall[trigger.name] = loop.wallNow.adding(first - loop.now)
        fired[trigger.name, default: 0] += 1
        appliance?.notice(
            "trigger \(trigger.name) fired: \(trigger.shots) shot\(trigger.shots == 1 ? "" : "s")")
        appliance?.noteActivity(wakeFor: "trigger \(trigger.name)")
        shoot(trigger, at: first, remaining: trigger.shots)
    }

    private func record(_ trigger: TriggerWiring, _ clip: TriggerClip, edge: Instant) {
        guard let appliance else { return }
        do {
            switch try appliance.triggerClip(
                at: edge, preSeconds: clip.preSeconds, postSeconds: clip.postSeconds)
            {
            case .started: clipsStarted[trigger.name, default: 0] += 1
            case .extended: clipsExtended[trigger.name, default: 0] += 1
            case .alreadyRecording(let id):
                appliance.notice(
                    "trigger \(trigger.name): recording \(id) (record start) runs on; no trigger clip")
            }
        } catch {
            appliance.problem("trigger \(trigger.name): no clip: \(error)")
        }
    }

    private func shoot(_ trigger: TriggerWiring, at instant: Instant, remaining: Int) {
        guard remaining > 0, let appliance else { return }
        appliance.capture(pressedAt: instant) { [weak self] result in
            guard let self, case .success(let capture) = result else { return }
            self.shotsTaken[trigger.name, default: 0] += 1
            guard let album = trigger.album else { return }
            self.file(capture.photo.id, in: album, trigger: trigger.name)
        }
        guard remaining > 1 else { return }
        loop.schedule(at: max(loop.now, instant + trigger.interval)) { [weak self] in
            self?.shoot(trigger, at: instant + trigger.interval, remaining: remaining - 1)
        }
    }

    private func file(_ id: String, in album: String, trigger: String) {
        guard let store = appliance?.albumFiling else { return }
        loop.offload({ Result { try store.file(id, inAlbum: album) } }) { [weak self] outcome in
            if case .failure(let error) = outcome {
                self?.appliance?.problem(
                    "trigger \(trigger): photo \(id) could not be put in album \"\(album)\": \(error)")
            }
        }
    }
}
