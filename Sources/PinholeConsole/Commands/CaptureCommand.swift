// `capture`: a photo now, after a self-timer, or a burst; answers when the photos are saved.

import PinholeAppliance
import PinholeCapture
import PinholeCore

/// `capture [--json]`, `capture --live`, `capture --timer S [--live]`, `capture --burst N`.
public enum CaptureCommand: ConsoleCommand {
    /// One photo now.
    case now
    /// One photo now, paired with the clip from 1.5 s before to 1.5 s after it (a Live Photo).
    case live
    /// One photo after a self-timer of this many seconds (1-60); with `live` (or `[capture]
    /// live = true`) a Live Photo.
    case timer(seconds: Int, live: Bool = false)
    /// This many photos in a row (2-20).
    case burst(count: Int)

    /// The `capture` verb.
    public static let definition = CommandDefinition(
        "capture", group: .shooting,
        forms: [
            form("capture [--json]", "take a photo now; answers when it is saved", "capture"),
            form(
                "capture --live [--json]", "a Live Photo: the photo and 1.5 s of video before and after it",
                "capture --live"),
            form(
                "capture --timer SECONDS [--live]", "self-timer: a photo (a Live Photo) after SECONDS (1-60)",
                "capture --timer 10"),
            form(
                "capture --burst N", "N photos in a row (2-20); stills, never Live Photos",
                "capture --burst 3"),
        ]
    ) { words in
        let usage = "capture [--json] | capture --live | capture --timer SECONDS [--live] | capture --burst N"
        let live = words.flag("--live")
        let timer = try words.integer("--timer")
        let burst = try words.integer("--burst")
        try words.finish(usage: usage)
        if live && burst != nil {
            throw ConsoleError.usage(
                "a burst makes no Live Photos (its photos are stills, as on phones): use --live or --burst")
        }
        if timer != nil && burst != nil {
            throw ConsoleError.usage("use one of --timer and --burst: usage: \(usage)")
        }
        if let seconds = timer {
            guard (1...60).contains(seconds) else {
                throw ConsoleError.usage("--timer takes 1 to 60 seconds")
            }
            return CaptureCommand.timer(seconds: seconds, live: live)
        }
        if live { return CaptureCommand.live }
        if let count = burst {
            guard (2...20).contains(count) else {
                throw ConsoleError.usage("--burst takes 2 to 20 photos")
            }
            return CaptureCommand.burst(count: count)
        }
        return CaptureCommand.now
    }

    /// Takes the photo (or the burst) and answers when it is saved.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let appliance = console.appliance
        // Storage low and `when_full = recycle`: every photo taken removes the owner's oldest.
        // The shutter button may (the owner chose the policy for it); a locked console may not.
        if appliance.storagePolicy.whenFull == .recycle, appliance.indicator.lowStorage,
            !console.access.isUnlocked(at: appliance.loop.now)
        {
            throw ConsoleError.locked(
                "locked: storage is low and [library] when_full = recycle, so a photo would remove the "
                    + "oldest ones: unlock with the PIN first, or press the shutter button")
        }
        switch self {
        case .now:
            Self.captureOne(console, json: json, reply: reply)
        case .live:
            if let refusal = appliance.livePhotoRefusal {
                throw ConsoleError.failed("capture --live: \(refusal)")
            }
            Self.captureLive(console, json: json, reply: reply)
        case .timer(let seconds, let live):
            // Refused now, not when the timer runs out; `[capture] live = true` pairs it too.
            if live, let refusal = appliance.livePhotoRefusal {
                throw ConsoleError.failed("capture --timer --live: \(refusal)")
            }
            appliance.loop.schedule(after: .seconds(seconds)) { [weak console] in
                guard let console else { return }
                if live {
                    Self.captureLive(console, json: json, reply: reply)
                } else {
                    Self.captureOne(console, json: json, reply: reply)
                }
            }
        case .burst(let count):
            appliance.captureBurst(count: count) { [weak console] outcome in
                if case .success(let burst) = outcome {
                    console?.answerReports(
                        eventsStartingWith: burst.saved.map { "saved \($0.photo.id) " }
                            + (burst.liveNote == nil ? [] : ["burst of \(burst.report.taken): stills only"]))
                }
                reply(
                    outcome.flatMap { burst in
                        guard !burst.saved.isEmpty || !burst.pending.isEmpty else {
                            return .failure(
                                ConsoleError.failed(
                                    "no photo of the burst was saved: " + burst.failed.joined(separator: "; ")
                                ))
                        }
                        return .success(json ? jsonLine(BurstAnswer(burst)) : Self.burstText(burst))
                    })
            }
        }
    }

    /// Takes one photo; answers when it is saved (or with why it was not).
    private static func captureOne(_ console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        console.appliance.capture { [weak console] result in
            if case .success(let capture) = result {
                console?.answerReports(eventsStartingWith: ["saved \(capture.photo.id) "])
            }
            reply(
                result.map { capture in
                    json
                        ? jsonLine(CaptureAnswer(capture))
                        : "ok saved \(capture.photo.id) \(capture.photo.file)"
                })
        }
    }

    /// Takes one photo and answers once its motion clip is attached (`ok saved ID FILE live
    /// MOTION N frames`), or, when the clip could not be made, that the photo was kept as a
    /// still and why.
    private static func captureLive(_ console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        var saved: CaptureResult?
        console.appliance.capture(
            live: true,
            completion: { [weak console] result in
                switch result {
                case .success(let capture):
                    saved = capture
                    console?.answerReports(eventsStartingWith: ["saved \(capture.photo.id) "])
                case .failure(let error):
                    reply(.failure(error))
                }
            },
            motion: { [weak console] result in
                guard let capture = saved else { return }
                console?.answerReports(eventsStartingWith: [
                    "live saved \(capture.photo.id) ", "live failed \(capture.photo.id) ",
                ])
                switch result {
                case .success(let motion):
                    reply(
                        .success(
                            json
                                ? jsonLine(CaptureAnswer(capture, motion: motion))
                                : "ok saved \(capture.photo.id) \(capture.photo.file) live \(motion.file) \(motion.window.frameCount) frames"
                        ))
                case .failure(let error):
                    reply(
                        .failure(
                            ConsoleError.failed(
                                "saved \(capture.photo.id) \(capture.photo.file) as a still only, not a Live Photo: \(error)"
                            )
                        ))
                }
            })
    }

    /// `ok saved N photos: ID …`, then what failed, what storage has not answered for yet,
    /// whether storage kept up, and why the flash did not fire.
    static func burstText(_ burst: BurstOutcome) -> String {
        var text =
            "ok saved \(burst.saved.count) photos: " + burst.saved.map(\.photo.id).joined(separator: " ")
        if !burst.failed.isEmpty {
            text += "; \(burst.failed.count) failed: " + burst.failed.joined(separator: "; ")
        }
        if let note = burst.pendingNote { text += "; " + note }
        if let note = burst.report.storageNote { text += "; " + note }
        if let note = burst.report.flashNote { text += "; " + note }
        if let note = burst.liveNote { text += "; " + note }
        return text
    }
}

/// The `capture --json` answer.
struct CaptureAnswer: Encodable {
    var id: String
    var file: String
    var camera: String
    var selection: String
    var exposureTimeUs: Int
    var iso: Int?
    var lensPosition: Double?
    var pressToSavedMs: Double
    var pressToExposureMs: Double
    var gain: Double
    var flashFired: Bool?
    var afState: String
    /// Milliseconds from waking the camera to its first frame, for a press that woke it.
    var wakeCostMs: Double?
    /// A Live Photo's motion clip.
    var motionFile: String?
    /// Frames in the motion clip.
    var motionFrames: Int?
    /// Where the still falls in the motion clip, seconds from its start.
    var stillOffsetSeconds: Double?

    init(_ capture: CaptureResult, motion: LiveMotion? = nil) {
        motionFile = motion?.file.string
        motionFrames = motion?.window.frameCount
        stillOffsetSeconds = motion.map { Double($0.window.stillOffsetMicroseconds) / 1_000_000 }
        id = capture.photo.id
        wakeCostMs = capture.wakeCost?.milliseconds
        file = capture.photo.file.string
        camera = capture.cameraID
        selection = capture.selection.rawValue
        exposureTimeUs = Int(capture.frame.exposureTime.nanoseconds / 1000)
        iso = capture.metadata.iso
        lensPosition = capture.frame.lensPosition
        pressToSavedMs = (capture.savedAt - capture.pressedAt).milliseconds
        pressToExposureMs = capture.pressToExposure.milliseconds
        gain = capture.gain
        flashFired = capture.flashFired
        afState = capture.afState.rawValue
    }
}

extension CaptureCommand {
    /// Shutter, self-timer and burst on the Capture page; the shutter on the viewfinder.
    public static let menuEntries = [
        MenuEntry(.capture, at: 10) { _ in
            MenuItem("Shutter", value: "take a photo now", action: .run(CaptureCommand.now))
        },
        MenuEntry(.capture, at: 20) { _ in
            MenuItem(
                "Self-timer", value: "seconds, then a photo",
                action: .ask(
                    Prompt("Self-timer seconds (1-60)", .word(before: ["capture", "--timer"]), initial: "10"))
            )
        },
        MenuEntry(.capture, at: 30) { _ in
            MenuItem(
                "Burst", value: "several photos in a row",
                action: .ask(
                    Prompt(
                        "Burst: how many photos (2-20)", .word(before: ["capture", "--burst"]), initial: "3"))
            )
        },
        MenuEntry(.viewfinder, at: 10) { _ in MenuItem("Shutter", action: .run(CaptureCommand.now)) },
    ]
}
