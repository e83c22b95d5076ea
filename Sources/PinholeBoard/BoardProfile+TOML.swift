// Reads board profiles from TOML, rejecting mistakes with the file, line and reason.

import PinholeCore
import SystemPackage

extension BoardProfile {
    /// Parses a profile; `file` is used in error messages and `name` defaults to its directory.
    public static func parse(_ text: String, file: FilePath, name: String) throws -> BoardProfile {
        let root = try TOMLDocument.parse(text, file: file)
        var reader = TableReader(table: root, file: file, context: "")
        let board = try reader.table("board", required: true)!
        var boardReader = TableReader(table: board, file: file, context: "[board]")
        let description = try boardReader.string("name") ?? name
        let model = try boardReader.string("model")
        let make = try boardReader.string("make") ?? "Raspberry Pi"
        let chip = try boardReader.string("gpio_chip")
        try boardReader.rejectUnknown()

        let buttons = try parseButtons(try reader.table("buttons"), file: file)
        let outputs = try parseOutputs(try reader.table("leds"), file: file)
        let cameras = try parseCameras(root, file: file)
        reader.markUsed("cameras")
        var consoleDevice: FilePath?
        var baud = 115_200
        if let console = try reader.table("console") {
            var r = TableReader(table: console, file: file, context: "[console]")
            consoleDevice = try r.string("device").map { FilePath($0) }
            baud = try r.integer("baud", in: 50...4_000_000) ?? 115_200
            try r.rejectUnknown()
        }
        let chords = try parseChords(try reader.table("chords"), buttons: buttons, file: file)
        let tilt = try parseTilt(try reader.table("tilt"), buttons: buttons, file: file, root: root)
        let triggers = try parseTriggers(try reader.table("triggers"), file: file)
        try reader.rejectUnknown()
        try checkLinesUnique(buttons: buttons, outputs: outputs, root: root, file: file)
        try checkTriggerLinesUnique(triggers, buttons: buttons, outputs: outputs, root: root, file: file)
        return BoardProfile(
            name: name, description: description, model: model, make: make, buttons: buttons,
            outputs: outputs, cameras: cameras, consoleDevice: consoleDevice, consoleBaud: baud,
            gpioChip: chip, chords: chords, tilt: tilt, triggers: triggers)
    }

    private static func parseButtons(_ table: TOMLTable?, file: FilePath) throws -> [ButtonFunction:
        ButtonWiring]
    {
        var buttons: [ButtonFunction: ButtonWiring] = [:]
        let named: [(key: ButtonFunction, table: TOMLTable, reader: TableReader)] =
            try TableReader.namedTables(
                table, section: "buttons", noun: "button", file: file)
        for (function, entry, reader) in named {
            var r = reader
            let lineName = try r.string("line", required: true)!
            try checkLineName(lineName, file: file, line: entry.line(of: "line"))
            let activeLow = try r.bool("active_low") ?? true
            let biasText = try r.string("bias") ?? "pull-up"
            guard let bias = LineBias(rawValue: biasText) else {
                throw ConfigurationError(
                    file: file, line: entry.line(of: "bias"),
                    reason: "bias '\(biasText)' is not one of pull-up, pull-down, disabled")
            }
            let debounce = try r.integer("debounce_ms", in: 0...1000) ?? 10
            // The shutter's press time feeds zero shutter lag: software debounce only by default.
            let kernel = try r.bool("kernel_debounce") ?? (function != .shutter)
            let hold = try r.integer("hold_ms", in: 10...60_000) ?? 800
            // A mode switch stays closed: it holds, but never repeats.
            let repeatMs = try r.integer("repeat_ms", in: 0...60_000) ?? (function == .mode ? 0 : 250)
            try r.rejectUnknown()
            buttons[function] = ButtonWiring(
                line: lineName, activeLow: activeLow, bias: bias, debounce: .milliseconds(debounce),
                kernelDebounce: kernel, holdTime: .milliseconds(hold),
                repeatInterval: repeatMs == 0 ? nil : .milliseconds(repeatMs))
        }
        return buttons
    }

    private static func parseOutputs(_ table: TOMLTable?, file: FilePath) throws -> [OutputFunction:
        OutputWiring]
    {
        var outputs: [OutputFunction: OutputWiring] = [:]
        let named: [(key: OutputFunction, table: TOMLTable, reader: TableReader)] =
            try TableReader.namedTables(
                table, section: "leds", noun: "output", file: file)
        for (function, entry, reader) in named {
            var r = reader
            let lineName = try r.string("line", required: true)!
            try checkLineName(lineName, file: file, line: entry.line(of: "line"))
            let activeLow = try r.bool("active_low") ?? false
            try r.rejectUnknown()
            outputs[function] = OutputWiring(line: lineName, activeLow: activeLow)
        }
        return outputs
    }

    private static func parseCameras(_ root: TOMLTable, file: FilePath) throws -> [CameraFitting] {
        guard let list = root["cameras"] else { return [] }
        guard case .array(let items) = list else {
            throw ConfigurationError(
                file: file, line: root.line(of: "cameras"), reason: "cameras must be [[cameras]] tables")
        }
        var cameras: [CameraFitting] = []
        for item in items {
            guard case .table(let entry) = item else {
                throw ConfigurationError(
                    file: file, line: root.line(of: "cameras"), reason: "cameras must be [[cameras]] tables")
            }
            var r = TableReader(table: entry, file: file, context: "[[cameras]]")
            let match = try r.string("match", required: true)!
            var position: CameraPosition?
            if let text = try r.string("position") {
                guard let value = CameraPosition(rawValue: text) else {
                    throw ConfigurationError(
                        file: file, line: entry.line(of: "position"),
                        reason: "position '\(text)' is not one of back, front, external")
                }
                position = value
            }
            let rotation = try r.integer("mount_rotation") ?? 0
            guard [0, 90, 180, 270].contains(rotation) else {
                throw ConfigurationError(
                    file: file, line: entry.line(of: "mount_rotation"),
                    reason: "mount_rotation \(rotation) must be 0, 90, 180 or 270")
            }
            cameras.append(
                CameraFitting(
                    match: match, position: position, torch: try r.bool("torch") ?? false,
                    mountRotation: rotation,
                    focalLength: try r.number("focal_length_mm", in: 0.1...2000),
                    fNumber: try r.number("f_number", in: 0.5...64), lensModel: try r.string("lens_model")))
            try r.rejectUnknown()
        }
        return cameras
    }

    private static func checkLinesUnique(
        buttons: [ButtonFunction: ButtonWiring], outputs: [OutputFunction: OutputWiring],
        root: TOMLTable, file: FilePath
    ) throws {
        var seen: [String: String] = [:]
        for (function, wiring) in buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let other = seen[wiring.line] {
                throw ConfigurationError(
                    file: file, line: lineOf(root, "buttons", function.rawValue),
                    reason: "line \(wiring.line) is used by both \(other) and button \(function.rawValue)")
            }
            seen[wiring.line] = "button \(function.rawValue)"
        }
        for (function, wiring) in outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let other = seen[wiring.line] {
                throw ConfigurationError(
                    file: file, line: lineOf(root, "leds", function.rawValue),
                    reason: "line \(wiring.line) is used by both \(other) and output \(function.rawValue)")
            }
            seen[wiring.line] = "output \(function.rawValue)"
        }
    }

    /// Lines are named, never numbered: chip numbering differs between boards (the Pi 5
    /// renumbered its chip) but the device tree's line names do not.
    static func checkLineName(_ name: String, file: FilePath, line: Int) throws {
        if name.allSatisfy(\.isWhitespace) {
            throw ConfigurationError(
                file: file, line: line,
                reason: "the line name is empty: use the name the device tree gives it, e.g. \"GPIO17\"")
        }
        if name.allSatisfy(\.isNumber) {
            throw ConfigurationError(
                file: file, line: line,
                reason: "line \"\(name)\" is a number: lines are found by name "
                    + "(gpioinfo lists them), e.g. \"GPIO\(name)\"")
        }
    }

    private static func checkTriggerLinesUnique(
        _ triggers: [TriggerWiring], buttons: [ButtonFunction: ButtonWiring],
        outputs: [OutputFunction: OutputWiring],
        root: TOMLTable, file: FilePath
    ) throws {
        var used = Set(buttons.values.map(\.line)).union(outputs.values.map(\.line))
        for trigger in triggers {
            guard used.insert(trigger.line).inserted else {
                throw ConfigurationError(
                    file: file, line: lineOf(root, "triggers", trigger.name),
                    reason:
                        "line \(trigger.line) of trigger \(trigger.name) is already used by another input or output"
                )
            }
        }
    }

    static func lineOf(_ root: TOMLTable, _ table: String, _ key: String) -> Int {
        guard case .table(let inner)? = root[table] else { return 0 }
        return inner.line(of: key)
    }
}
