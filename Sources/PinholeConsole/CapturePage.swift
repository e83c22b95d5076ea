// The Capture page: shutter, self-timer, burst, timelapse, record and stop.

/// Capture: take a photo now, after a delay, or several in a row.
enum CapturePage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        // Shutter, self-timer, burst (CaptureCommand), timelapse (TimelapseCommand), record (RecordCommand).
        var items = CommandCatalog.menuItems(on: .capture, menu)
        if let last = menu.snapshot.status?.lastCapture {
            items.append(.info(""))
            items.append(.info("Last photo", "\(last.id)"))
            items.append(.info("File", last.file))
            items.append(
                .info("Press to saved", "\(Int(last.pressToSavedMs.rounded())) ms (\(last.selection))"))
        }
        return items
    }
}
