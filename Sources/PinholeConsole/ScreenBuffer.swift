// A character grid (80×24 by default) that the menu draws into and the renderer sends.

/// Colours a terminal may show (ANSI's eight); used only when colour is on.
public enum TerminalColour: Int, Sendable, Hashable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell is drawn. Bold and reverse work on every VT100; colour only when enabled.
public struct CellStyle: Hashable, Sendable {
    /// Bold (bright).
    public var bold = false
    /// Reverse video (selection bars, title).
    public var reverse = false
    /// Foreground colour (ignored without colour).
    public var foreground: TerminalColour?

    /// Plain text.
    public static let plain = CellStyle()
    /// Reverse video: the title bar and the selected item.
    public static let highlight = CellStyle(reverse: true)
    /// Bold text.
    public static let strong = CellStyle(bold: true)
    /// An error: bold, red where colour is on.
    public static let error = CellStyle(bold: true, foreground: .red)
    /// Good news: green where colour is on.
    public static let good = CellStyle(foreground: .green)
    /// Dimmed information: cyan where colour is on.
    public static let note = CellStyle(foreground: .cyan)

    /// Creates a style.
    public init(bold: Bool = false, reverse: Bool = false, foreground: TerminalColour? = nil) {
        self.bold = bold
        self.reverse = reverse
        self.foreground = foreground
    }
}

/// One character cell.
public struct ScreenCell: Hashable, Sendable {
    /// The character (one column wide).
    public var character: Character
    /// Its style.
    public var style: CellStyle

    /// A blank cell.
    public static let blank = ScreenCell(character: " ", style: .plain)
}

/// A grid of cells plus where the cursor should rest.
public struct ScreenBuffer: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Cells, row by row.
    public private(set) var cells: [ScreenCell]
    /// Where the cursor rests after drawing (row, column), or nil to park it at the bottom right.
    public var cursor: (row: Int, column: Int)? {
        get { cursorRow.map { ($0, cursorColumn) } }
        set {
            cursorRow = newValue.map { min(max(0, $0.row), height - 1) }
            cursorColumn = newValue.map { min(max(0, $0.column), width - 1) } ?? 0
        }
    }
    private var cursorRow: Int?
    private var cursorColumn = 0

    /// A blank screen.
    public init(width: Int = 80, height: Int = 24) {
        self.width = max(1, width)
        self.height = max(1, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at a position.
    public subscript(row: Int, column: Int) -> ScreenCell {
        cells[row * width + column]
    }

    /// Writes `text` from (row, column), clipped at the right edge; control characters (C0,
    /// DEL and C1) are written as line mode writes them, `\xHH`, so that text from a photo,
    /// a stick or a path can neither drive the terminal nor pass unseen. Returns the column
    /// after the text.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain) -> Int {
        guard row >= 0, row < height else { return column }
        var x = column
        for character in text.visibleControls(includingNewline: true) {
            guard x < width else { break }
            if x >= 0 { cells[row * width + x] = ScreenCell(character: character, style: style) }
            x += 1
        }
        return x
    }

    /// Fills a row from `column` to the right edge with `style` blanks.
    public mutating func clear(row: Int, from column: Int = 0, style: CellStyle = .plain) {
        guard row >= 0, row < height else { return }
        for x in max(0, column)..<width { cells[row * width + x] = ScreenCell(character: " ", style: style) }
    }

    /// Sets one cell.
    public mutating func set(row: Int, column: Int, _ cell: ScreenCell) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        cells[row * width + column] = cell
    }

    /// The text of one row, trailing blanks removed.
    public func line(_ row: Int) -> String {
        var text = String(cells[(row * width)..<((row + 1) * width)].map(\.character))
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row's text, joined with newlines (for tests and logs).
    public var text: String { (0..<height).map(line).joined(separator: "\n") }

    /// Same size, cells and cursor.
    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
            && lhs.cursorRow == rhs.cursorRow && lhs.cursorColumn == rhs.cursorColumn
    }

    /// Hashes the cells and cursor.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(cells)
        hasher.combine(cursorRow)
        hasher.combine(cursorColumn)
    }
}
