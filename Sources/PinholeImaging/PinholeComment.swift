// Pinhole's record in EXIF UserComment: clock trust, press-to-exposure lag and standby wake cost.

import PinholeCore

/// What Pinhole writes into EXIF UserComment, after the eight-byte "ASCII\0\0\0" character
/// code the tag requires, as `Pinhole ` and `key: value` fields joined by `; `:
///
///     Pinhole clock: synchronized; press-to-exposure: -0.400 ms; wake: 182.000 ms
///
/// Each field is there only when known. `press-to-exposure` is signed, in milliseconds from
/// the shutter press to the start of the photo's exposure (negative: the exposure was already
/// under way at the press, as zero shutter lag gives); `wake` is the time the camera took from
/// standby to its first usable frame, on photos whose press woke it.
public struct PinholeComment: Sendable, Hashable {
    /// Whether the clock could be trusted.
    public var clockTrust: ClockTrust?
    /// From the press to the start of the exposure (negative: before the press).
    public var pressToExposure: Duration?
    /// For a press that woke the camera: the time to its first usable frame.
    public var wakeCost: Duration?

    static let asciiCode: [UInt8] = Array("ASCII".utf8) + [0, 0, 0]

    /// Creates a record.
    public init(clockTrust: ClockTrust? = nil, pressToExposure: Duration? = nil, wakeCost: Duration? = nil) {
        self.clockTrust = clockTrust
        self.pressToExposure = pressToExposure
        self.wakeCost = wakeCost
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { clockTrust == nil && pressToExposure == nil && wakeCost == nil }

    /// The comment's text (without the character code).
    public var text: String {
        var fields: [String] = []
        if let clockTrust { fields.append("clock: \(clockTrust.rawValue)") }
        if let pressToExposure {
            fields.append("press-to-exposure: \(PressLagText.milliseconds(pressToExposure)) ms")
        }
        if let wakeCost { fields.append("wake: \(PressLagText.milliseconds(wakeCost)) ms") }
        return "Pinhole " + fields.joined(separator: "; ")
    }

    /// The UserComment bytes.
    public var userComment: [UInt8] { Self.asciiCode + Array(text.utf8) }

    /// The record a UserComment holds, if it is Pinhole's (fields it does not know are skipped).
    public static func read(_ bytes: [UInt8]?) -> PinholeComment? {
        guard let bytes, bytes.count > asciiCode.count, Array(bytes.prefix(asciiCode.count)) == asciiCode
        else { return nil }
        let text = String(decoding: bytes.dropFirst(asciiCode.count).prefix { $0 != 0 }, as: UTF8.self)
        guard text.hasPrefix("Pinhole ") else { return nil }
        var comment = PinholeComment()
        for field in text.dropFirst("Pinhole ".count).split(separator: ";") {
            let parts = field.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = String(parts[0]).trimmingCharacters(in: " ")
            let value = String(parts[1]).trimmingCharacters(in: " ")
            switch key {
            case "clock": comment.clockTrust = ClockTrust(rawValue: value)
            case "press-to-exposure": comment.pressToExposure = duration(value)
            case "wake": comment.wakeCost = duration(value)
            default: continue
            }
        }
        return comment.isEmpty ? nil : comment
    }

    /// "12.345 ms" back to a duration; nil when malformed or beyond a day.
    static func duration(_ text: String) -> Duration? {
        guard text.hasSuffix(" ms"), let value = Double(text.dropLast(3)), value.isFinite,
            abs(value) <= 86_400_000
        else { return nil }
        return .nanoseconds(Int64((value * 1_000_000).rounded()))
    }
}
