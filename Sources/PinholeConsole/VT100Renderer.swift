// Turns screen buffers into VT100 output: a full redraw first, then only what changed.

/// Sends `ScreenBuffer`s to a VT100-compatible terminal (picocom, minicom, screen, xterm).
///
/// The first frame (and any after `invalidate()`) clears the screen and draws every row;
/// later frames rewrite only the changed spans of changed rows. Uses only VT100 sequences
/// (CUP, ED, SGR 0/1/7) plus SGR colours when enabled and the cursor hide/show that
/// terminals without it ignore. Never writes the bottom-right cell, so nothing scrolls.
public struct VT100Renderer: Sendable {
    private var previous: ScreenBuffer?
    /// Whether colours are sent.
    public var colour: Bool {
        didSet { if colour != oldValue { previous = nil } }
    }

    /// A renderer; the first frame will be a full redraw.
    public init(colour: Bool = false) {
        self.colour = colour
    }

    /// Forces the next frame to be a full redraw (Ctrl-L, a reconnected terminal).
    public mutating func invalidate() { previous = nil }

    /// The bytes that bring the terminal from the previous frame to `screen`.
    public mutating func render(_ screen: ScreenBuffer) -> [UInt8] {
        if let previous, previous == screen { return [] }
        var out = "\u{1B}[?25l"
        var current = CellStyle.plain
        let old: ScreenBuffer
        if let previous, previous.width == screen.width, previous.height == screen.height {
            old = previous
        } else {
            out += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
            old = ScreenBuffer(width: screen.width, height: screen.height)
        }
        for row in 0..<screen.height {
            let lastColumn = row == screen.height - 1 ? screen.width - 2 : screen.width - 1
            guard lastColumn >= 0 else { continue }
            var first: Int?
            var last = -1
            for column in 0...lastColumn where screen[row, column] != old[row, column] {
                if first == nil { first = column }
                last = column
            }
            guard let first else { continue }
            out += "\u{1B}[\(row + 1);\(first + 1)H"
            for column in first...last {
                let cell = screen[row, column]
                if cell.style != current {
                    out += sgr(cell.style)
                    current = cell.style
                }
                out.append(cell.character)
            }
        }
        if current != .plain { out += "\u{1B}[0m" }
        let (row, column) = screen.cursor ?? (screen.height - 1, screen.width - 1)
        out += "\u{1B}[\(row + 1);\(column + 1)H"
        if screen.cursor != nil { out += "\u{1B}[?25h" }
        previous = screen
        return Array(out.utf8)
    }

    private func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.reverse { codes.append("7") }
        if colour, let colour = style.foreground { codes.append("\(30 + colour.rawValue)") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
