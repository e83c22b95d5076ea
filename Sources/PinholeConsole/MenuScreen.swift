// Lays the menu out on the screen: title, status line, the page, the message, the prompt.

extension ConsoleMenu {
    /// A page's title.
    public static func title(_ page: MenuPageID) -> String {
        switch page {
        case .main: return "Main menu"
        case .capture: return "Capture"
        case .camera: return "Camera"
        case .library: return "Library"
        case .albums: return "Albums"
        case .photos: return "Photos"
        case .photo: return "Photo"
        case .system: return "System"
        case .diagnostics: return "Board diagnostics"
        case .logs: return "Logs"
        case .settings: return "Settings"
        case .viewfinder: return "Viewfinder"
        case .gps: return "GPS and clock"
        }
    }

    /// The screen for the current state.
    public func screen() -> ScreenBuffer {
        var screen = ScreenBuffer(width: width, height: height)
        drawTitle(&screen)
        screen.put(StatusLine.format(snapshot.status, width: width), row: 1, column: 0, style: .note)
        if page == .viewfinder { drawPreview(&screen) }
        let picture = page == .photo ? photoPicture() : []
        draw(picture, on: &screen)
        drawItems(&screen, below: picture.count)
        let messageStyle: CellStyle = messageIsError ? .error : .plain
        screen.put(String(message.prefix(width)), row: height - 2, column: 0, style: messageStyle)
        drawPromptLine(&screen)
        return screen
    }

    private func drawTitle(_ screen: inout ScreenBuffer) {
        screen.clear(row: 0, style: .highlight)
        let path = stack.map(Self.title).joined(separator: " > ")
        screen.put(" Pinhole  " + path, row: 0, column: 0, style: .highlight)
        var right = "[\(snapshot.access.label)]"
        if snapshot.simulated { right = "[sim] " + right }
        if !waiting.isEmpty { right = "busy " + right }
        screen.put(right, row: 0, column: max(0, width - right.count - 1), style: .highlight)
    }

    /// The Photo page's picture in cells: at most half the body's rows, upright as loaded.
    func photoPicture() -> [[ScreenCell]] {
        guard let image = browser.photo?.preview else { return [] }
        return ViewfinderPreview.cells(from: image, columns: width - 2, rows: bodyRows / 2, unicode: unicode)
    }

    /// Draws `picture` centred under the status line.
    private func draw(_ picture: [[ScreenCell]], on screen: inout ScreenBuffer) {
        for (y, cells) in picture.enumerated() {
            let left = max(0, (width - cells.count) / 2)
            for (x, cell) in cells.prefix(width).enumerated() {
                screen.set(row: 3 + y, column: left + x, cell)
            }
        }
    }

    /// The page's items; below a picture of `pictureRows` rows (and one blank row) if any.
    private func drawItems(_ screen: inout ScreenBuffer, below pictureRows: Int) {
        let items = items(for: page)
        let top = pictureRows > 0 ? 3 + pictureRows + 1 : 3
        let rows = page == .viewfinder ? 1 : bodyRows - (top - 3)
        let firstRow = page == .viewfinder ? height - 4 : top
        let selected = selection
        let start = items.count <= rows ? 0 : min(max(0, selected - rows / 2), items.count - rows)
        var number = items[..<start].filter { $0.action != nil }.count
        let locked = snapshot.access.pinConfigured && !snapshot.access.unlocked
        for (offset, item) in items[start..<min(items.count, start + rows)].enumerated() {
            let row = firstRow + offset
            var text = "    "
            if item.action != nil {
                number += 1
                text = number <= 9 ? " \(number)  " : "    "
            }
            text += item.label
            if item.needsPIN && locked { text += " (PIN)" }
            if !item.value.isEmpty {
                let column = max(text.count + 2, 32)
                text += String(repeating: " ", count: column - text.count) + item.value
            }
            let isSelected = start + offset == selected && item.action != nil && prompt == nil
            if isSelected { screen.clear(row: row, style: .highlight) }
            screen.put(
                String(text.prefix(width)), row: row, column: 0, style: isSelected ? .highlight : .plain)
        }
        if items.count > rows, page != .viewfinder {
            screen.put("(\(selected + 1)/\(items.count))", row: top + rows, column: width - 12, style: .note)
        }
    }

    private func drawPreview(_ screen: inout ScreenBuffer) {
        let rows = height - 8
        if preview.isEmpty {
            screen.put("waiting for the camera…", row: 3 + rows / 2, column: width / 2 - 12, style: .note)
            return
        }
        draw(Array(preview.prefix(rows)), on: &screen)
    }

    private func drawPromptLine(_ screen: inout ScreenBuffer) {
        let row = height - 1
        if let prompt {
            let label = String(prompt.label.prefix(width / 2)) + ": "
            let (text, column) = editor.visible(width: width - label.count - 1)
            screen.put(label, row: row, column: 0, style: .strong)
            screen.put(text, row: row, column: label.count)
            screen.cursor = (row, label.count + column)
        } else if let question = pendingConfirmation {
            let text = question + " (y/n) "
            screen.put(text, row: row, column: 0, style: .strong)
            screen.cursor = (row, min(width - 1, text.count))
        } else {
            let help =
                page == .main
                ? "Up/Down move  Enter choose  1-9 pick  Ctrl-L redraw"
                : "Up/Down move  Enter choose  1-9 pick  Esc back  Ctrl-C main menu"
            screen.put(String(help.prefix(width - 1)), row: row, column: 0, style: .note)
        }
    }
}
