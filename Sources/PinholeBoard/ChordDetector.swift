// Chords: several buttons held together for a while trigger an action (e.g. safe shutdown).

import PinholeCore

/// What a chord does.
public enum ChordAction: String, Sendable, Hashable, CaseIterable, Codable {
    /// Turn every output off and stop the appliance (and power off when configured).
    case shutdown
}

/// A chord: every button in `buttons` held down together for `hold`.
public struct Chord: Sendable, Hashable {
    /// What the chord does.
    public var action: ChordAction
    /// The buttons that must all be down.
    public var buttons: Set<ButtonFunction>
    /// How long they must be held together.
    public var hold: Duration
    /// For `shutdown`: also power the system off.
    public var powerOff: Bool

    /// Creates a chord.
    public init(action: ChordAction, buttons: Set<ButtonFunction>, hold: Duration, powerOff: Bool = false) {
        self.action = action
        self.buttons = buttons
        self.hold = hold
        self.powerOff = powerOff
    }
}

/// Watches debounced presses and releases and fires chords.
///
/// A chord is *engaged* once all its buttons are down; it fires `hold` after the last of
/// them went down, unless one is released first. While a chord is engaged, and until all
/// its buttons are up again, their hold and repeat events are suppressed, so that holding
/// torch + shutter for a shutdown does not start a burst. (The presses themselves have
/// already acted by then: a chord cannot be told from a single press at the first edge
/// without delaying every press.)
public final class ChordDetector {
    /// The chords watched.
    public let chords: [Chord]
    private let loop: EventLoop
    private let onChord: (Chord) -> Void
    private var down: [ButtonFunction: Instant] = [:]
    private var timers: [Int: TimerID] = [:]
    private var engaged: Set<Int> = []
    private var suppressed: Set<ButtonFunction> = []

    /// Creates a detector calling `onChord` on the loop when a chord completes.
    public init(loop: EventLoop, chords: [Chord], onChord: @escaping (Chord) -> Void) {
        self.loop = loop
        self.chords = chords
        self.onChord = onChord
    }

    /// Feeds a debounced button event.
    public func handle(_ function: ButtonFunction, _ event: ButtonEvent) {
        switch event {
        case .pressed(let at):
            down[function] = at
            for (index, chord) in chords.enumerated() where chord.buttons.contains(function) {
                engageIfComplete(index, chord)
            }
        case .released:
            down[function] = nil
            for (index, chord) in chords.enumerated() where chord.buttons.contains(function) {
                if let timer = timers.removeValue(forKey: index) { loop.cancel(timer) }
                engaged.remove(index)
            }
            suppressed = suppressed.filter { down[$0] != nil }
        case .held, .repeated:
            break
        }
    }

    /// Whether `function`'s hold and repeat events must be ignored (a chord holds it).
    public func suppresses(_ function: ButtonFunction) -> Bool { suppressed.contains(function) }

    /// Whether any chord is engaged (all its buttons down, not yet fired or released).
    public var isEngaged: Bool { !timers.isEmpty }

    /// Cancels every pending chord.
    public func reset() {
        for timer in timers.values { loop.cancel(timer) }
        timers.removeAll()
        engaged.removeAll()
        suppressed.removeAll()
        down.removeAll()
    }

    private func engageIfComplete(_ index: Int, _ chord: Chord) {
        guard !engaged.contains(index), !chord.buttons.isEmpty else { return }
        let times = chord.buttons.compactMap { down[$0] }
        guard times.count == chord.buttons.count, let last = times.max() else { return }
        engaged.insert(index)
        suppressed.formUnion(chord.buttons)
        timers[index] = loop.schedule(at: last + chord.hold) { [weak self] in
            guard let self else { return }
            self.timers[index] = nil
            self.onChord(chord)
        }
    }
}
