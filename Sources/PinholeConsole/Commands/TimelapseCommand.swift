// `timelapse`: start photos on a wall-clock grid, stop them, or ask how they are going.

import PinholeAppliance
import PinholeCore
import PinholeField

/// `timelapse start …`, `timelapse stop`, `timelapse status [--json]`.
public enum TimelapseCommand: ConsoleCommand {
    /// Start a timelapse.
    case start(TimelapsePlan)
    /// Stop the running timelapse.
    case stop
    /// The timelapse's progress.
    case status

    static let usage =
        "timelapse start --every DURATION [--count N] [--from HH:MM --to HH:MM] [--album NAME] [--lock]"
        + " | timelapse stop | timelapse status [--json]"

    /// Starting or stopping a timelapse changes what survives a restart (it resumes after a
    /// power cut), files photos into an album (`--album` creates it) and fills the card: it
    /// needs the PIN. Its status is open.
    public var access: CommandAccess {
        if case .status = self { return .open }
        return .pin
    }

    /// The `timelapse` verb.
    public static let definition = CommandDefinition(
        "timelapse", group: .shooting,
        forms: [
            form(
                "timelapse start --every DURATION [--count N] [--from HH:MM --to HH:MM] [--album NAME] [--lock]",
                "photos on a wall-clock grid (DURATION: seconds, or 30s, 5m, 1h); resumes after a restart",
                "timelapse start --every 10s --count 100",
                "timelapse start --every 5m --from 07:00 --to 19:00",
                "timelapse start --every 1h --album Building --lock"),
            form("timelapse stop", "end the running timelapse", "timelapse stop"),
            form("timelapse status [--json]", "shots taken, missed, next", "timelapse status"),
        ]
    ) { words in
        switch words.word() {
        case "start":
            return TimelapseCommand.start(try parsePlan(&words))
        case "stop":
            try words.finish(usage: "timelapse stop")
            return TimelapseCommand.stop
        case "status":
            try words.finish(usage: "timelapse status [--json]")
            return TimelapseCommand.status
        default:
            throw ConsoleError.usage("usage: " + usage)
        }
    }

    /// Reads `--every`, `--count`, `--from`/`--to`, `--album` and `--lock`.
    static func parsePlan(_ words: inout CommandWords) throws -> TimelapsePlan {
        let usage = "usage: " + Self.usage
        let lock = words.flag("--lock")
        var values: [String: String] = [:]
        for name in ["--every", "--count", "--from", "--to", "--album"] {
            values[name] = try words.option(name)
        }
        try words.finish(usage: Self.usage)
        guard let everyText = values["--every"] else {
            throw ConsoleError.usage("--every is required: \(usage)")
        }
        guard let interval = TimelapsePlan.parseDuration(everyText) else {
            throw ConsoleError.usage(
                "--every \(everyText): use seconds, or a number with s, m or h (30s, 5m, 1h)")
        }
        var plan = TimelapsePlan(intervalMs: interval, lock: lock)
        if let text = values["--count"] {
            guard let count = Int(text), count >= 1 else {
                throw ConsoleError.usage("--count needs a whole number ≥ 1")
            }
            plan.count = count
        }
        switch (values["--from"], values["--to"]) {
        case (nil, nil): break
        case (let from?, let to?):
            guard let start = DailyWindow.minute(from), let end = DailyWindow.minute(to) else {
                throw ConsoleError.usage("--from and --to take HH:MM (00:00-23:59)")
            }
            plan.window = DailyWindow(fromMinute: start, toMinute: end)
        default:
            throw ConsoleError.usage("--from and --to go together")
        }
        plan.album = values["--album"]
        do { try plan.validate() } catch { throw ConsoleError.usage("\(error)") }
        return plan
    }

    /// Starts, stops or reports the timelapse; answers with its status.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard let timelapse = console.appliance.timelapse else {
            throw ConsoleError.unavailable("timelapse is not available on this appliance")
        }
        let status: TimelapseStatus
        do {
            switch self {
            case .start(let plan): status = try timelapse.start(plan)
            case .stop: status = try timelapse.stop()
            case .status: status = timelapse.status()
            }
        } catch let error as TimelapseError {
            throw ConsoleError.usage("\(error)")
        }
        reply(.success(json ? jsonLine(status) : "ok " + status.line))
    }
}

extension TimelapseCommand {
    /// Start (with its status as the value) and stop on the Capture page.
    public static let menuEntries = [
        MenuEntry(.capture, at: 40) { menu in
            MenuItem(
                "Timelapse", value: menu.snapshot.status?.timelapse?.line ?? "photos on a wall-clock grid",
                action: .ask(
                    Prompt(
                        "Timelapse: every DURATION [--count N] [--from HH:MM --to HH:MM] [--album NAME] [--lock]",
                        .words(before: ["timelapse", "start", "--every"]), initial: "10s")))
        },
        MenuEntry(.capture, at: 50) { _ in
            MenuItem(
                "Stop timelapse", value: "end the running timelapse", action: .run(TimelapseCommand.stop))
        },
    ]
}
