// The Capture page: shutter, self-timer, burst, timelapse, record and stop.

/// Capture: take a photo now, after a delay, or several in a row.
enum CapturePage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        var items = [
            MenuItem("Shutter", value: "take a photo now", action: .run(CaptureCommand.now)),
            MenuItem(
                "Self-timer", value: "seconds, then a photo",
                action: .ask(
                    Prompt("Self-timer seconds (1-60)", .word(before: ["capture", "--timer"]), initial: "10"))
            ),
            MenuItem(
                "Burst", value: "several photos in a row",
                action: .ask(
                    Prompt(
                        "Burst: how many photos (2-20)", .word(before: ["capture", "--burst"]), initial: "3"))
            ),
            MenuItem(
                "Timelapse", value: menu.snapshot.status?.timelapse?.line ?? "photos on a wall-clock grid",
                action: .ask(
                    Prompt(
                        "Timelapse: every DURATION [--count N] [--from HH:MM --to HH:MM] [--album NAME] [--lock]",
                        .words(before: ["timelapse", "start", "--every"]), initial: "10s"))),
            MenuItem(
                "Stop timelapse", value: "end the running timelapse", action: .run(TimelapseCommand.stop)),
            MenuItem(
                "Record",
                value: menu.snapshot.status?.recording.map { $0.line(bytes: StatusLine.bytes) }
                    ?? "start a clip (H.264 MP4, no sound)",
                action: .run(RecordCommand.start(max: nil, pre: 0))),
            MenuItem("Stop recording", value: "end the clip and save it", action: .run(RecordCommand.stop)),
        ]
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
