// A snapshot of the timelapse, as `timelapse status [--json]` and `status` report it.

/// The timelapse's progress.
public struct TimelapseStatus: Codable, Sendable, Hashable {
    /// Whether a timelapse runs.
    public var running: Bool
    /// Interval, e.g. "10s".
    public var every: String?
    /// Slots asked for (nil: until stopped).
    public var count: Int?
    /// Daily window "HH:MM-HH:MM".
    public var window: String?
    /// Album the photos go into.
    public var album: String?
    /// Whether exposure and focus are kept from the first shot.
    public var lock: Bool?
    /// Photos taken.
    public var taken: Int
    /// Slots missed.
    public var missed: Int
    /// The next slot, ISO 8601 local time.
    public var next: String?
    /// Why the last slot was missed, if one was.
    public var lastMissed: String?

    /// The one-line form.
    public var line: String {
        guard running else { return "timelapse off, taken \(taken), missed \(missed)" }
        var parts = ["timelapse every \(every ?? "?")"]
        if let count { parts.append("count \(count)") }
        if let window { parts.append("window \(window)") }
        if let album { parts.append("album \"\(album)\"") }
        if lock == true { parts.append("locked") }
        parts.append("taken \(taken), missed \(missed), next \(next ?? "none")")
        return parts.joined(separator: ", ")
    }
}
