// The one check of controls against what a camera lists, before any of them is set.

extension CameraInfo {
    /// Throws unless every control is one this camera lists, with a numeric value inside its
    /// range (rectangles are checked by whoever maps them); checks all before any is set, so a
    /// bad one changes nothing.
    public func checkControls(_ controls: [String: ControlValue]) throws {
        for (name, value) in controls {
            guard let range = self.controls[name] else {
                throw CameraError.unsupportedControl(name, camera: model)
            }
            let number: Double
            switch value {
            case .bool(let flag): number = flag ? 1 : 0
            case .int(let int): number = Double(int)
            case .double(let double): number = double
            case .rectangles: continue
            }
            guard number >= range.min, number <= range.max else {
                throw CameraError.outOfRange(control: name, value: number, range: range)
            }
        }
    }
}
