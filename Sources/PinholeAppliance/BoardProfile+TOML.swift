// Reads board profiles from TOML, rejecting mistakes with the file, line and reason.

import PinholeCore

extension BoardProfile {
    /// Parses a profile; `file` is used in error messages and `name` defaults to its directory.
    public static func parse(_ text: String, file: String, name: String) throws -> BoardProfile {
        let root = try TOMLDocument.parse(text, file: file)
        var reader = TableReader(table: root, file: file, context: "")
        let board = try reader.table("board", required: true)!
        var boardReader = TableReader(table: board, file: file, context: "[board]")
        let description = try boardReader.string("name") ?? name
        let model = try boardReader.string("model")
        let make = try boardReader.string("make") ?? "Raspberry Pi"
        try boardReader.rejectUnknown()

        var buttons: [ButtonFunction: ButtonWiring] = [:]
        if let table = try reader.table("buttons") {
            for (key, value, line) in table.entries {
                guard let function = ButtonFunction(rawValue: key) else {
                    throw ConfigurationError(file: file, line: line, reason: "unknown button '\(key)': expected one of "
                        + ButtonFunction.allCases.map(\.rawValue).joined(separator: ", "))
                }
                guard case .table(let entry) = value else {
                    throw ConfigurationError(file: file, line: line, reason: "[buttons.\(key)] must be a table")
                }
                var r = TableReader(table: entry, file: file, context: "[buttons.\(key)]")
                let lineName = try r.string("line", required: true)!
                let activeLow = try r.bool("active_low") ?? true
                let biasText = try r.string("bias") ?? "pull-up"
                guard let bias = LineBias(rawValue: biasText) else {
                    throw ConfigurationError(file: file, line: entry.line(of: "bias"),
                                             reason: "bias '\(biasText)' is not one of pull-up, pull-down, disabled")
                }
                let debounce = try r.integer("debounce_ms", in: 0...1000) ?? 10
                try r.rejectUnknown()
                buttons[function] = ButtonWiring(line: lineName, activeLow: activeLow, bias: bias,
                                                 debounce: .milliseconds(debounce))
            }
        }
        var outputs: [OutputFunction: OutputWiring] = [:]
        if let table = try reader.table("leds") {
            for (key, value, line) in table.entries {
                guard let function = OutputFunction(rawValue: key) else {
                    throw ConfigurationError(file: file, line: line, reason: "unknown output '\(key)': expected one of "
                        + OutputFunction.allCases.map(\.rawValue).joined(separator: ", "))
                }
                guard case .table(let entry) = value else {
                    throw ConfigurationError(file: file, line: line, reason: "[leds.\(key)] must be a table")
                }
                var r = TableReader(table: entry, file: file, context: "[leds.\(key)]")
                let lineName = try r.string("line", required: true)!
                let activeLow = try r.bool("active_low") ?? false
                try r.rejectUnknown()
                outputs[function] = OutputWiring(line: lineName, activeLow: activeLow)
            }
        }
        var cameras: [CameraFitting] = []
        if let list = root["cameras"] {
            guard case .array(let items) = list else {
                throw ConfigurationError(file: file, line: root.line(of: "cameras"), reason: "cameras must be [[cameras]] tables")
            }
            for item in items {
                guard case .table(let entry) = item else {
                    throw ConfigurationError(file: file, line: root.line(of: "cameras"), reason: "cameras must be [[cameras]] tables")
                }
                var r = TableReader(table: entry, file: file, context: "[[cameras]]")
                let match = try r.string("match", required: true)!
                var position: CameraPosition?
                if let text = try r.string("position") {
                    guard let value = CameraPosition(rawValue: text) else {
                        throw ConfigurationError(file: file, line: entry.line(of: "position"),
                                                 reason: "position '\(text)' is not one of back, front, external")
                    }
                    position = value
                }
                let rotation = try r.integer("mount_rotation") ?? 0
                guard [0, 90, 180, 270].contains(rotation) else {
                    throw ConfigurationError(file: file, line: entry.line(of: "mount_rotation"),
                                             reason: "mount_rotation \(rotation) must be 0, 90, 180 or 270")
                }
                cameras.append(CameraFitting(
                    match: match, position: position, torch: try r.bool("torch") ?? false, mountRotation: rotation,
                    focalLength: try r.number("focal_length_mm", in: 0.1...2000),
                    fNumber: try r.number("f_number", in: 0.5...64), lensModel: try r.string("lens_model")))
                try r.rejectUnknown()
            }
        }
        var consoleDevice: String?
        var baud = 115_200
        if let console = try reader.table("console") {
            var r = TableReader(table: console, file: file, context: "[console]")
            consoleDevice = try r.string("device")
            baud = try r.integer("baud", in: 50...4_000_000) ?? 115_200
            try r.rejectUnknown()
        }
        reader.markUsed("cameras")
        try reader.rejectUnknown()

        var seen: [String: String] = [:]
        for (function, wiring) in buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let other = seen[wiring.line] {
                throw ConfigurationError(file: file, line: lineOf(root, "buttons", function.rawValue),
                                         reason: "line \(wiring.line) is used by both \(other) and button \(function.rawValue)")
            }
            seen[wiring.line] = "button \(function.rawValue)"
        }
        for (function, wiring) in outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let other = seen[wiring.line] {
                throw ConfigurationError(file: file, line: lineOf(root, "leds", function.rawValue),
                                         reason: "line \(wiring.line) is used by both \(other) and output \(function.rawValue)")
            }
            seen[wiring.line] = "output \(function.rawValue)"
        }
        return BoardProfile(name: name, description: description, model: model, make: make, buttons: buttons,
                            outputs: outputs, cameras: cameras, consoleDevice: consoleDevice, consoleBaud: baud)
    }

    private static func lineOf(_ root: TOMLTable, _ table: String, _ key: String) -> Int {
        guard case .table(let inner)? = root[table] else { return 0 }
        return inner.line(of: key)
    }
}

/// Reads typed keys from a table, remembering which were used so unknown keys are rejected.
struct TableReader {
    let table: TOMLTable
    let file: String
    let context: String
    private var used: Set<String> = []

    init(table: TOMLTable, file: String, context: String) {
        self.table = table
        self.file = file
        self.context = context
    }

    private func error(_ key: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(file: file, line: table.line(of: key), reason: reason)
    }

    private func missing(_ key: String) -> ConfigurationError {
        let place = context.isEmpty ? "" : " in \(context)"
        return ConfigurationError(file: file, line: table.line, reason: "missing '\(key)'\(place)")
    }

    mutating func markUsed(_ key: String) { used.insert(key) }

    mutating func string(_ key: String, required: Bool = false) throws -> String? {
        used.insert(key)
        guard let value = table[key] else {
            if required { throw missing(key) }
            return nil
        }
        guard case .string(let text) = value else { throw error(key, "'\(key)' must be a string, not \(value.typeName)") }
        return text
    }

    mutating func bool(_ key: String) throws -> Bool? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "'\(key)' must be true or false, not \(value.typeName)") }
        return flag
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .integer(let number) = value else { throw error(key, "'\(key)' must be an integer, not \(value.typeName)") }
        if let range, !range.contains(number) {
            throw error(key, "'\(key)' is \(number), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        let number: Double
        switch value {
        case .integer(let int): number = Double(int)
        case .float(let double): number = double
        default: throw error(key, "'\(key)' must be a number, not \(value.typeName)")
        }
        if let range, !range.contains(number) {
            throw error(key, "'\(key)' is \(number), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    mutating func table(_ key: String, required: Bool = false) throws -> TOMLTable? {
        used.insert(key)
        guard let value = table[key] else {
            if required { throw missing(key) }
            return nil
        }
        guard case .table(let inner) = value else { throw error(key, "'\(key)' must be a table, not \(value.typeName)") }
        return inner
    }

    func rejectUnknown() throws {
        for key in table.keys where !used.contains(key) {
            let place = context.isEmpty ? "" : " in \(context)"
            throw error(key, "unknown key '\(key)'\(place)")
        }
    }
}
