// Control characters made visible in line-mode output, so text from photos or paths cannot drive the terminal.

extension String {
    /// The text with every C0 control but the newline, DEL and every C1 control written as
    /// `\xHH` (ESC as `\x1B`): metadata, album names and paths come from outside (a stick, a
    /// camera's EXIF) and must not move the cursor, clear the screen or retitle the terminal
    /// of whoever reads the console. The menu writes them the same way, the newline too
    /// (ScreenBuffer).
    var visibleControls: String { visibleControls(includingNewline: false) }

    /// `visibleControls`, the newline written as `\x0A` too when `includingNewline`.
    func visibleControls(includingNewline: Bool) -> String {
        let hidden = { (scalar: Unicode.Scalar) in
            Self.isHiddenControl(scalar) || (includingNewline && scalar.value == 0x0A)
        }
        guard unicodeScalars.contains(where: hidden) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if hidden(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
    }
}
