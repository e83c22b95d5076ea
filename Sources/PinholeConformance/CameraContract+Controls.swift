// The camera contract's controls step: what the camera lists is accepted and takes effect in time, the rest is refused.

import PinholeCore

extension CameraContract {
    /// Controls that take rectangles, not numbers (their listed range says nothing of a value).
    static let rectangleControls: Set<String> = ["AfWindows", "AeWindows", "ScalerCrop"]

    /// An unlisted control and an out-of-range value are refused, changing nothing; every
    /// listed control accepts its default; a change shows within `CameraInfo.controlDelayFrames`
    /// frames: in the metadata where the camera echoes it (and in exposure and gain when set
    /// manually), or else in the picture (Brightness, for a camera that echoes nothing).
    func checkControls() throws -> String {
        guard let device, let info else { throw ContractFailure("no camera open") }
        releaseReceived()
        var notes: [String] = []
        do {
            try device.setControls(["PinholeNoSuchControl": .int(1)])
            throw ContractFailure("an unlisted control PinholeNoSuchControl was accepted")
        } catch let error as CameraError {
            guard case .unsupportedControl("PinholeNoSuchControl", _) = error else {
                throw ContractFailure("an unlisted control gave \(error), expected unsupportedControl")
            }
            notes.append("unlisted refused (\(error))")
        }
        let numeric = info.controls.filter { !Self.rectangleControls.contains($0.key) }
        if let (name, range) = numeric.sorted(by: { $0.key < $1.key }).first {
            for bad in [range.max + Swift.max(1, abs(range.max)), Double.nan] {
                do {
                    try device.setControls([name: .double(bad)])
                    throw ContractFailure("\(name) \(bad) outside \(range.min)…\(range.max) was accepted")
                } catch let error as CameraError {
                    guard case .outOfRange(name, _, _) = error else {
                        throw ContractFailure("\(name) \(bad) gave \(error), expected outOfRange")
                    }
                }
            }
            notes.append("out of range refused (\(name) above its maximum, and NaN)")
        }
        let defaults = numeric.compactMapValues { range in range.defaultValue.map(ControlValue.double) }
        try device.setControls(defaults)
        notes.append("all \(defaults.count) listed defaults accepted")
        releaseReceived()
        if !echoed.isEmpty || (info.controls["ExposureTime"] != nil && info.controls["AnalogueGain"] != nil) {
            notes.append(try checkEchoedChange())
        } else if let brightness = info.controls["Brightness"] {
            notes.append(try checkBrightnessInPicture(brightness))
        } else {
            throw ContractFailure(
                "the camera echoes no control in its metadata and lists neither ExposureTime and AnalogueGain"
                    + " nor Brightness: no control change can be seen")
        }
        return "\(notes.joined(separator: "; "))"
    }

    /// Sets every echoed control to another listed value (and a manual exposure and gain where
    /// listed) and waits for one frame that shows them all.
    private func checkEchoedChange() throws -> String {
        guard let device, let info else { throw ContractFailure("no camera open") }
        let last = try take(1, "before the change")[0].frame
        let before = last.metadata
        last.release()
        var wanted: [String: Double] = [:]
        for name in echoed {
            guard let range = info.controls[name], let current = before.controls[name].map(Self.number) else {
                continue
            }
            wanted[name] = current == range.max ? range.min : range.max
        }
        var exposure: Duration?
        var gain: Double?
        if let exposureRange = info.controls["ExposureTime"], let gainRange = info.controls["AnalogueGain"] {
            let micros = before.exposureTime == .microseconds(10_000) ? 12_000.0 : 10_000.0
            wanted["ExposureTime"] = Swift.min(exposureRange.max, Swift.max(exposureRange.min, micros))
            wanted["AnalogueGain"] = Swift.min(
                gainRange.max, Swift.max(gainRange.min, before.analogueGain == 2 ? 3 : 2))
            exposure = .microseconds(Int64(wanted["ExposureTime"]!))
            gain = wanted["AnalogueGain"]
            for (mode, manual) in [("AeEnable", 0.0), ("ExposureTimeMode", 1), ("AnalogueGainMode", 1)]
            where info.controls[mode] != nil {
                wanted[mode] = manual
            }
        }
        try device.setControls(wanted.mapValues(ControlValue.double))
        var seen: [FrameMetadata] = []
        func shows(_ data: FrameMetadata) -> Bool {
            for (name, value) in wanted where echoed.contains(name) {
                guard let echo = data.controls[name].map(Self.number), Self.close(echo, value) else {
                    return false
                }
            }
            if let exposure, !Self.close(data.exposureTime.seconds, exposure.seconds) { return false }
            if let gain, !Self.close(data.analogueGain, gain) { return false }
            return true
        }
        while seen.count < CameraInfo.controlDelayFrames {
            let frame = try take(1, "after setting \(wanted.keys.sorted())")[0].frame
            seen.append(frame.metadata)
            frame.release()
            if shows(frame.metadata) {
                let names = wanted.keys.sorted().map { "\($0)=\(wanted[$0]!)" }.joined(separator: ",")
                return "\(names) in the metadata of the \(ordinal(seen.count)) frame after setting them"
                    + " (at most \(CameraInfo.controlDelayFrames))"
            }
        }
        let last8 =
            seen.last.map { "exposure \($0.exposureTime), gain \($0.analogueGain), \($0.controls)" } ?? ""
        throw ContractFailure(
            "\(wanted) not in effect within \(CameraInfo.controlDelayFrames) frames; the last showed \(last8)"
        )
    }

    /// Brightness to its maximum brightens the picture, and back to its default darkens it,
    /// each within the delay.
    private func checkBrightnessInPicture(_ range: ControlRange) throws -> String {
        guard let device else { throw ContractFailure("no camera open") }
        let first = try take(1, "before the change")[0].frame
        let base = try Self.meanLevel(first)
        first.release()
        var levels: [Double] = [base]
        func wait(_ what: String, until done: (Double) -> Bool) throws -> Int {
            for index in 1...CameraInfo.controlDelayFrames {
                let frame = try take(1, what)[0].frame
                let level = try Self.meanLevel(frame)
                frame.release()
                levels.append(level)
                if done(level) { return index }
            }
            throw ContractFailure(
                "\(what): mean level \(levels.map(oneDecimal)) over \(CameraInfo.controlDelayFrames) frames")
        }
        try device.setControls(["Brightness": .double(range.max)])
        let up = try wait("Brightness \(range.max)") { $0 > base + 8 }
        let bright = levels.last!
        try device.setControls(["Brightness": .double(range.defaultValue ?? range.min)])
        let down = try wait("Brightness back to \(range.defaultValue ?? range.min)") { $0 < bright - 8 }
        return
            "the camera echoes no control in its metadata; Brightness \(range.max) raised the picture's mean"
            + " level \(oneDecimal(base))→\(oneDecimal(bright)) by the \(ordinal(up)) frame, and back to"
            + " \(oneDecimal(levels.last!)) by the \(ordinal(down)) (at most \(CameraInfo.controlDelayFrames))"
    }

    /// The mean byte value of the frame's first plane (luma, or packed RGB), sampled.
    static func meanLevel(_ frame: any CameraFrame) throws -> Double {
        let image = try frame.viewfinderImage() ?? frame.stillImage()
        guard let plane = image.planes.first, !plane.bytes.isEmpty else {
            throw ContractFailure("a frame has an empty image")
        }
        var sum = 0
        var count = 0
        for index in stride(from: 0, to: plane.bytes.count, by: 7) {
            sum += Int(plane.bytes[index])
            count += 1
        }
        return Double(sum) / Double(count)
    }

    static func number(_ value: ControlValue) -> Double {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let int): return Double(int)
        case .double(let double): return double
        case .rectangles: return .nan
        }
    }

    /// Equal up to the 2 % a sensor may round exposure (whole lines) and gain (register steps) by.
    static func close(_ actual: Double, _ wanted: Double) -> Bool {
        abs(actual - wanted) <= 0.02 * Swift.max(abs(wanted), 1e-9)
    }
}

/// "1st", "2nd", "3rd", "4th" …
func ordinal(_ number: Int) -> String {
    switch number {
    case 1: return "1st"
    case 2: return "2nd"
    case 3: return "3rd"
    default: return "\(number)th"
    }
}
