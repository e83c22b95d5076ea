// A trigger input in a board profile: a PIR sensor, a contact closure or an intervalometer on a GPIO line.

import PinholeCore

/// Which edge of a trigger line fires it.
public enum TriggerEdge: String, Sendable, Hashable, CaseIterable {
    /// Low to high (a PIR sensor's output going active).
    case rising
    /// High to low (a contact closing to ground against a pull-up).
    case falling
    /// Either.
    case both
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

    /// Creates a wiring.
    public init(
        name: String, line: String, edge: TriggerEdge = .rising, bias: LineBias = .pullDown,
        debounce: Duration = .milliseconds(20), holdOff: Duration = .seconds(10), shots: Int = 1,
        interval: Duration = .milliseconds(500), album: String? = nil
    ) {
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
    /// Reads `[triggers.NAME]` tables.
    static func parseTriggers(_ table: TOMLTable?, file: String) throws -> [TriggerWiring] {
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
                    album: album))
            try r.rejectUnknown()
        }
        return triggers.sorted { $0.name < $1.name }
    }
}
