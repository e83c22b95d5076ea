// A trigger input in a board profile: a PIR sensor, a contact closure or an intervalometer on a GPIO line.

import PinholeCore
import SystemPackage

/// Which edge of a trigger line fires it.
public enum TriggerEdge: String, Sendable, Hashable, CaseIterable {
    /// Low to high (a PIR sensor's output going active).
    case rising
    /// High to low (a contact closing to ground against a pull-up).
    case falling
    /// Either.
    case both
}

/// A trigger's clip: from `preSeconds` before the trigger edge (from the pre-roll ring) to
/// `postSeconds` after it; a new edge during the post time moves the end.
public struct TriggerClip: Sendable, Hashable {
    /// Seconds before the edge.
    public var preSeconds: Double
    /// Seconds after the (last) edge.
    public var postSeconds: Double

    /// Creates a clip plan.
    public init(preSeconds: Double, postSeconds: Double) {
        self.preSeconds = preSeconds
        self.postSeconds = postSeconds
    }
}

/// A trigger line's wiring and behaviour.
public struct TriggerWiring: Sendable, Hashable {
    /// The trigger's name (`[triggers.NAME]`).
    public var name: String
    /// Line name.
    public var line: String
    /// The edge that fires it.
    public var edge: TriggerEdge
    /// Bias.
    public var bias: LineBias
    /// How long the new level must hold before it counts.
    public var debounce: Duration
    /// No new trigger within this time of the last one.
    public var holdOff: Duration
    /// Photos per trigger.
    public var shots: Int
    /// Time between the photos of one trigger.
    public var interval: Duration
    /// Album the photos go into.
    public var album: String?
    /// The clip each trigger records (`clip = { pre_s = 3, post_s = 10 }`); nil: photos only.
    public var clip: TriggerClip?

    /// Creates a wiring.
    public init(
        name: String, line: String, edge: TriggerEdge = .rising, bias: LineBias = .pullDown,
        debounce: Duration = .milliseconds(20), holdOff: Duration = .seconds(10), shots: Int = 1,
        interval: Duration = .milliseconds(500), album: String? = nil, clip: TriggerClip? = nil
    ) {
        self.clip = clip
        self.name = name
        self.line = line
        self.edge = edge
        self.bias = bias
        self.debounce = debounce
        self.holdOff = holdOff
        self.shots = shots
        self.interval = interval
        self.album = album
    }

    /// The line request: "active" is the firing edge's level (both edges: high). Debounced in
    /// software only: the kernel's debounced edge would carry the time its debounce ended, and
    /// the first photo is of the moment of the first edge.
    public var inputConfig: InputLineConfig {
        InputLineConfig(name: line, activeLow: edge == .falling, bias: bias, debounce: .zero)
    }
}

extension BoardProfile {
    /// Reads a trigger's `clip = { pre_s = 3, post_s = 10 }` (pre_s 0…30, post_s 1…3600).
    static func parseClip(_ r: inout TableReader, entry: TOMLTable, file: FilePath) throws -> TriggerClip? {
        guard let table = try r.table("clip") else { return nil }
        var clip = TableReader(table: table, file: file, context: "clip")
        let pre = try clip.number("pre_s", in: 0...VideoSettings.longestPreRollSeconds) ?? 3
        let post = try clip.number("post_s", in: 1...3600) ?? 10
        try clip.rejectUnknown()
        return TriggerClip(preSeconds: pre, postSeconds: post)
    }

    /// Reads `[triggers.NAME]` tables.
    static func parseTriggers(_ table: TOMLTable?, file: FilePath) throws -> [TriggerWiring] {
        var triggers: [TriggerWiring] = []
        for (name, value, line) in table?.entries ?? [] {
            guard case .table(let entry) = value else {
                throw ConfigurationError(file: file, line: line, reason: "[triggers.\(name)] must be a table")
            }
            var r = TableReader(table: entry, file: file, context: "[triggers.\(name)]")
            let lineName = try r.string("line", required: true)!
            try checkLineName(lineName, file: file, line: entry.line(of: "line"))
            let edgeText = try r.string("edge") ?? "rising"
            guard let edge = TriggerEdge(rawValue: edgeText) else {
                throw ConfigurationError(
                    file: file, line: entry.line(of: "edge"),
                    reason: "edge '\(edgeText)' is not one of rising, falling, both")
            }
            let biasText = try r.string("bias") ?? (edge == .falling ? "pull-up" : "pull-down")
            guard let bias = LineBias(rawValue: biasText) else {
                throw ConfigurationError(
                    file: file, line: entry.line(of: "bias"),
                    reason: "bias '\(biasText)' is not one of pull-up, pull-down, disabled")
            }
            let album = try r.string("album")
            if let album, album.isEmpty || album.count > 200 || album.contains(where: \.isNewline) {
                throw ConfigurationError(
                    file: file, line: entry.line(of: "album"),
                    reason: "album must be 1-200 characters on one line")
            }
            triggers.append(
                TriggerWiring(
                    name: name, line: lineName, edge: edge, bias: bias,
                    debounce: .milliseconds(try r.integer("debounce_ms", in: 0...1000) ?? 20),
                    holdOff: .seconds(try r.integer("holdoff_s", in: 0...86_400) ?? 10),
                    shots: try r.integer("shots", in: 1...20) ?? 1,
                    interval: .milliseconds(try r.integer("interval_ms", in: 100...60_000) ?? 500),
                    album: album, clip: try parseClip(&r, entry: entry, file: file)))
            try r.rejectUnknown()
        }
        return triggers.sorted { $0.name < $1.name }
    }
}
