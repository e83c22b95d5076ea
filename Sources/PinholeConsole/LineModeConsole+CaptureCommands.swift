// Line-mode capture commands: now, after a self-timer, or a burst; and the LED test.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func captureCommand(
        _ request: CaptureRequest, json: Bool, reply: @escaping (Result<String, Error>) -> Void
    ) {
        switch request {
        case .now:
            captureSeries(count: 1, json: json, reply: reply)
        case .timer(let seconds):
            appliance.loop.schedule(after: .seconds(seconds)) { [weak self] in
                self?.captureSeries(count: 1, json: json, reply: reply)
            }
        case .burst(let count):
            appliance.captureBurst(count: count) { [weak self] outcome in
                if case .success(let burst) = outcome {
                    self?.answerReports(eventsStartingWith: burst.saved.map { "saved \($0.photo.id) " })
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
        return text
    }

    /// Takes `count` photos one after the other; answers when the last is saved (or one fails).
    private func captureSeries(
        count: Int, json: Bool, reply: @escaping (Result<String, Error>) -> Void,
        done: [CaptureResult] = []
    ) {
        appliance.capture { [weak self] result in
            switch result {
            case .failure(let error):
                if done.isEmpty {
                    reply(.failure(error))
                } else {
                    reply(.failure(ConsoleError.failed("burst stopped after \(done.count) photos: \(error)")))
                }
            case .success(let capture):
                let all = done + [capture]
                self?.answerReports(eventsStartingWith: all.map { "saved \($0.photo.id) " })
                if all.count < count {
                    self?.captureSeries(count: count, json: json, reply: reply, done: all)
                    return
                }
                if count == 1 {
                    reply(
                        .success(
                            json
                                ? jsonLine(CaptureAnswer(capture))
                                : "ok saved \(capture.photo.id) \(capture.photo.file)"))
                } else {
                    reply(
                        .success(
                            json
                                ? jsonLine(all.map(CaptureAnswer.init))
                                : "ok saved \(all.count) photos: "
                                    + all.map(\.photo.id).joined(separator: " ")))
                }
            }
        }
    }

    func ledCommand(_ function: OutputFunction, reply: @escaping (Result<String, Error>) -> Void) throws {
        guard let controller = appliance.outputs[function] else {
            throw ConsoleError.unavailable("this board has no \(function.rawValue) output")
        }
        // A transient pattern: the output's steady state resumes when it ends.
        controller.play(BlinkPattern(name: "test", on: .milliseconds(200), off: .milliseconds(200), count: 3))
        appliance.loop.schedule(after: .milliseconds(1200)) {
            reply(.success("ok blinked \(function.rawValue) 3 times"))
        }
    }
}
