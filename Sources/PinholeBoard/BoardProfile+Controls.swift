// Reads the `[chords.*]` and `[tilt]` sections of a board profile.

import PinholeCore
import SystemPackage

extension BoardProfile {
    static func parseChords(_ table: TOMLTable?, buttons: [ButtonFunction: ButtonWiring], file: FilePath)
        throws
        -> [Chord]
    {
        var chords: [Chord] = []
        let named: [(key: ChordAction, table: TOMLTable, reader: TableReader)] = try TableReader.namedTables(
            table, section: "chords", noun: "chord", file: file)
        for (action, entry, reader) in named {
            var r = reader
            guard let names = try r.strings("buttons") else {
                throw ConfigurationError(
                    file: file, line: entry.line, reason: "missing 'buttons' in [chords.\(action.rawValue)]")
            }
            let where_ = entry.line(of: "buttons")
            var members: Set<ButtonFunction> = []
            for name in names {
                guard let function = ButtonFunction(rawValue: name) else {
                    throw ConfigurationError(
                        file: file, line: where_,
                        reason: "unknown button '\(name)' in chord \(action.rawValue)")
                }
                guard buttons[function] != nil else {
                    throw ConfigurationError(
                        file: file, line: where_,
                        reason: "chord \(action.rawValue) uses button \(name), which has no [buttons.\(name)]"
                    )
                }
                members.insert(function)
            }
            guard members.count >= 2 else {
                throw ConfigurationError(
                    file: file, line: where_,
                    reason: "chord \(action.rawValue) needs at least two different buttons")
            }
            let hold = try r.integer("hold_ms", in: 100...60_000) ?? 5000
            let powerOff = try r.bool("power_off") ?? false
            try r.rejectUnknown()
            chords.append(
                Chord(action: action, buttons: members, hold: .milliseconds(hold), powerOff: powerOff))
        }
        return chords
    }

    static func parseTilt(
        _ table: TOMLTable?, buttons: [ButtonFunction: ButtonWiring], file: FilePath,
        root: TOMLTable
    ) throws -> TiltMapping? {
        let hasA = buttons[.tiltA] != nil
        let hasB = buttons[.tiltB] != nil
        if hasA != hasB {
            let missing = hasA ? "tilt_b" : "tilt_a"
            let present = hasA ? "tilt_a" : "tilt_b"
            throw ConfigurationError(
                file: file, line: lineOf(root, "buttons", present),
                reason: "a tilt sensor needs both tilt_a and tilt_b: add [buttons.\(missing)]")
        }
        guard let table else { return hasA ? .grayCode : nil }
        guard hasA else {
            throw ConfigurationError(
                file: file, line: table.line,
                reason: "[tilt] needs the tilt switches [buttons.tilt_a] and [buttons.tilt_b]")
        }
        var r = TableReader(table: table, file: file, context: "[tilt]")
        var rotations = TiltMapping.grayCode.rotations
        for (index, key) in ["a0_b0", "a1_b0", "a0_b1", "a1_b1"].enumerated() {
            guard let degrees = try r.integer(key) else { continue }
            guard [0, 90, 180, 270].contains(degrees) else {
                throw ConfigurationError(
                    file: file, line: table.line(of: key),
                    reason: "\(key) = \(degrees) must be 0, 90, 180 or 270")
            }
            rotations[index] = degrees
        }
        try r.rejectUnknown()
        return TiltMapping(rotations: rotations)
    }
}
