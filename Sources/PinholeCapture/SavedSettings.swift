// The camera settings that survive a restart, and their TOML form in the settings file.

import PinholeCore
import PinholeImaging
import SystemPackage

/// What the owner set: exposure, white balance, focus and the current album for every
/// camera, and per camera what belongs to its lens and fitting (still size, manual lens
/// position, flash). Saved whenever one changes; restored at start.
public struct SavedSettings: Sendable, Hashable {
    /// Settings that belong to one camera.
    public struct PerCamera: Sendable, Hashable {
        /// Still size, one the camera lists.
        public var stillSize: PixelSize?
        /// Lens position in manual focus, in dioptres.
        public var lens: Double?
        /// Flash mode (cameras with a torch).
        public var flash: FlashMode?
        /// Digital zoom (ScalerCrop), above 1.
        public var zoom: Double?

        /// Nothing saved.
        public init() {}
    }

    /// Exposure, EV, metering and white balance.
    public var exposure = ExposureSettings()
    /// AF mode.
    public var afMode = AutofocusMode.continuous
    /// AF range.
    public var afRange = AutofocusRange.normal
    /// AF speed.
    public var afSpeed = AutofocusSpeed.normal
    /// The album new photos go into (nil: none).
    public var album: String?
    /// Per camera, by camera id.
    public var cameras: [String: PerCamera] = [:]

    /// The defaults.
    public init() {}

    // MARK: TOML

    /// The settings file's text.
    public var toml: String {
        var lines = [
            "# Pinhole camera settings: written by the appliance whenever one changes (see README,",
            "# \"Settings that survive a restart\"). Edit only while Pinhole is stopped.",
            "", "[exposure]",
        ]
        switch exposure.mode {
        case .auto: lines.append("mode = \"auto\"")
        case .manual(let time, let gain):
            lines += ["mode = \"manual\"", "time_us = \(time.nanoseconds / 1000)", "gain = \(gain)"]
        }
        lines += [
            "ev = \(exposure.ev)", "metering = \"\(exposure.metering.rawValue)\"",
            "awb = \"\(exposure.whiteBalance.rawValue)\"",
        ]
        if let point = exposure.point { lines += ["point_x = \(point.x)", "point_y = \(point.y)"] }
        lines += [
            "", "[focus]", "mode = \"\(afMode.rawValue)\"",
            "range = \"\(afRange.rawValue)\"", "speed = \"\(afSpeed.rawValue)\"",
        ]
        if let album { lines += ["", "[capture]", "album = \(Self.quoted(album))"] }
        for (id, camera) in cameras.sorted(by: { $0.key < $1.key }) {
            lines += ["", "[cameras.\(Self.quoted(id))]"]
            if let size = camera.stillSize { lines.append("still_size = \"\(size.width)x\(size.height)\"") }
            if let lens = camera.lens { lines.append("lens = \(lens)") }
            if let flash = camera.flash { lines.append("flash = \"\(flash.rawValue)\"") }
            if let zoom = camera.zoom { lines.append("zoom = \(zoom)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a settings file's text; errors name the file, line and reason.
    public static func parse(_ text: String, file: FilePath) throws -> SavedSettings {
        let root = try TOMLDocument.parse(text, file: file)
        var settings = SavedSettings()
        var reader = SettingsTableReader(root, file: file, context: "")
        if let table = try reader.table("exposure") {
            var r = SettingsTableReader(table, file: file, context: "[exposure]")
            let mode = try r.choice("mode", ["auto", "manual"]) ?? "auto"
            if mode == "manual" {
                let time = try r.number("time_us", in: 1...3_600_000_000) ?? 10_000
                let gain = try r.number("gain", in: 1...1000) ?? 1
                settings.exposure.mode = .manual(time: .microseconds(Int64(time)), gain: gain)
            }
            settings.exposure.ev = try r.number("ev", in: -16...16) ?? 0
            settings.exposure.metering = try r.enumerated("metering") ?? .centre
            settings.exposure.whiteBalance = try r.enumerated("awb") ?? .auto
            let pointX = try r.number("point_x", in: 0...1)
            let pointY = try r.number("point_y", in: 0...1)
            if let pointX, let pointY {
                settings.exposure.point = PicturePoint(x: pointX, y: pointY)
            } else if pointX != nil || pointY != nil {
                throw ConfigurationError(
                    file: file, line: table.line(of: pointX != nil ? "point_x" : "point_y"),
                    reason: "[exposure] point_x and point_y go together")
            }
            try r.rejectUnknown()
        }
        if let table = try reader.table("focus") {
            var r = SettingsTableReader(table, file: file, context: "[focus]")
            settings.afMode = try r.enumerated("mode") ?? .continuous
            settings.afRange = try r.enumerated("range") ?? .normal
            settings.afSpeed = try r.enumerated("speed") ?? .normal
            try r.rejectUnknown()
        }
        if let table = try reader.table("capture") {
            var r = SettingsTableReader(table, file: file, context: "[capture]")
            settings.album = try r.string("album")
            try r.rejectUnknown()
        }
        if let table = try reader.table("cameras") {
            for (id, value, line) in table.entries {
                guard case .table(let cameraTable) = value else {
                    throw ConfigurationError(
                        file: file, line: line, reason: "[cameras] \(id) must be a table")
                }
                var r = SettingsTableReader(cameraTable, file: file, context: "[cameras.\"\(id)\"]")
                var camera = PerCamera()
                if let size = try r.string("still_size") {
                    guard let parsed = PixelSize(text: size) else {
                        throw ConfigurationError(
                            file: file, line: cameraTable.line(of: "still_size"),
                            reason: "still_size '\(size)' is not WIDTHxHEIGHT")
                    }
                    camera.stillSize = parsed
                }
                camera.lens = try r.number("lens", in: 0...1000)
                camera.flash = try r.enumerated("flash")
                camera.zoom = try r.number("zoom", in: 1...1000)
                try r.rejectUnknown()
                settings.cameras[id] = camera
            }
        }
        try reader.rejectUnknown()
        return settings
    }

    /// A TOML basic string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\u{FFFD}"  // no other control character has an escape our reader knows
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension PixelSize {
    /// Parses `WIDTHxHEIGHT` (each 1…65535).
    public init?(text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...65_535).contains(width), (1...65_535).contains(height)
        else { return nil }
        self.init(width: width, height: height)
    }
}

/// Reads typed keys of one settings-file table, remembering which were read.
struct SettingsTableReader {
    let table: TOMLTable
    let file: FilePath
    let context: String
    private var used: Set<String> = []

    init(_ table: TOMLTable, file: FilePath, context: String) {
        self.table = table
        self.file = file
        self.context = context
    }

    private func fail(_ key: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(file: file, line: table.line(of: key), reason: "\(context) \(key) \(reason)")
    }

    mutating func table(_ key: String) throws -> TOMLTable? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .table(let inner) = value else { throw fail(key, "must be a table") }
        return inner
    }

    mutating func string(_ key: String) throws -> String? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .string(let text) = value else { throw fail(key, "must be a string") }
        return text
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
        used.insert(key)
        let number: Double
        switch table[key] {
        case nil: return nil
        case .integer(let int)?: number = Double(int)
        case .float(let double)?: number = double
        default: throw fail(key, "must be a number")
        }
        guard number.isFinite, range.contains(number) else {
            throw fail(key, "is \(number): use \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    mutating func choice(_ key: String, _ choices: [String]) throws -> String? {
        guard let text = try string(key) else { return nil }
        guard choices.contains(text) else {
            throw fail(key, "is '\(text)': use \(choices.joined(separator: ", "))")
        }
        return text
    }

    mutating func enumerated<T: RawRepresentable & CaseIterable>(_ key: String) throws -> T?
    where T.RawValue == String {
        guard let text = try choice(key, T.allCases.map(\.rawValue)) else { return nil }
        return T(rawValue: text)
    }

    func rejectUnknown() throws {
        if let key = table.keys.first(where: { !used.contains($0) }) {
            throw fail(key, "is not a setting")
        }
    }
}
