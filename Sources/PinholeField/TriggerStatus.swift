// One trigger line's counts, as `status` and `status --json` report them.

/// What a trigger line has done since the appliance started.
public struct TriggerStatus: Codable, Sendable, Hashable {
    /// The trigger's name (`[triggers.NAME]`).
    public var name: String
    /// Its GPIO line.
    public var line: String
    /// Triggers that fired.
    public var fired: Int
    /// Photos saved for those triggers.
    public var shots: Int
    /// Clips started by those triggers (`clip = { … }`).
    public var clips: Int = 0
    /// Triggers that moved the end of a clip under way (re-triggered in its post time).
    public var clipExtensions: Int = 0
    /// Triggers ignored because they came within the hold-off of the last one.
    public var ignoredHoldOff: Int
    /// Edges ignored because the line did not hold its level for the debounce (glitches).
    public var ignoredDebounce: Int
    /// When it last fired, ISO 8601 local time (nil: never).
    public var lastFired: String?

    /// ` 2 clips (1 extended),` once the trigger recorded a clip; empty before.
    private var clipText: String {
        clips + clipExtensions == 0
            ? "" : " \(clips) clip\(clips == 1 ? "" : "s") (\(clipExtensions) extended),"
    }

    /// The one-line form, e.g. `trigger pir: fired 3, 6 shots, ignored 2 (hold-off) 1 (debounce), last …`.
    public var summary: String {
        "trigger \(name) (\(line)): fired \(fired), \(shots) shot\(shots == 1 ? "" : "s"),\(clipText) ignored"
            + " \(ignoredHoldOff) in hold-off, \(ignoredDebounce) in debounce, last \(lastFired ?? "never")"
    }
}
