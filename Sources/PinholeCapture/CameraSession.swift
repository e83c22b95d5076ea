// The loop's side of the camera session: one camera command at a time, each with a deadline; a late one is reported and awaited.

import PinholeCore

/// What the session says about a camera command that missed its deadline.
public enum CameraSessionNotice: Sendable, Equatable {
    /// `command` has not answered for `waited` (the camera or its driver hangs); the loop
    /// goes on and the session waits for it.
    case late(command: String, camera: String, waited: Duration)
    /// A late `command` answered after `after`.
    case answered(command: String, camera: String, after: Duration)
}

/// Runs the engine's camera commands (open, start, stop, close) one at a time, in order,
/// through the camera's non-blocking calls (`CameraDevice.start(_:controls:onFrame:then:)`
/// …): the camera's session thread does the work and hands the answer back to the loop, so
/// no command ever holds the loop. Each command carries a deadline: past it, the camera is
/// reported as not answering (`onNotice`), and the commands after it wait for its answer.
final class CameraSession {
    private struct Command {
        var name: String
        var camera: String
        var body: (@escaping () -> Void) -> Void
    }

    private let loop: EventLoop
    private var waiting: [Command] = []
    private var timer: TimerID?
    /// How long a command may take before the camera is reported as not answering.
    var deadline: Duration = .seconds(5)
    /// Reports late commands and their answers.
    var onNotice: ((CameraSessionNotice) -> Void)?
    /// The command under way: its name, camera, when it began and whether it is late.
    private(set) var current: (name: String, camera: String, began: Instant, late: Bool)?
    /// Called once no command is under way or waiting (`whenIdle`).
    private var idleWaiters: [() -> Void] = []

    init(loop: EventLoop) { self.loop = loop }

    /// Whether a command is under way or waiting.
    var isBusy: Bool { current != nil || !waiting.isEmpty }

    /// The command that missed its deadline and has not answered yet.
    var lateCommand: (name: String, camera: String, since: Instant)? {
        guard let current, current.late else { return nil }
        return (current.name, current.camera, current.began)
    }

    /// Calls `done` on the loop once no command is under way or waiting (at once when idle).
    func whenIdle(_ done: @escaping () -> Void) {
        guard isBusy else { return done() }
        idleWaiters.append(done)
    }

    /// Queues `body` under `name`: it runs after the commands before it, and calls the `done`
    /// it is given on the loop once the camera answered.
    func run(_ name: String, camera: String, _ body: @escaping (@escaping () -> Void) -> Void) {
        waiting.append(Command(name: name, camera: camera, body: body))
        if current == nil { next() }
    }

    private func next() {
        guard current == nil, !waiting.isEmpty else { return }
        let command = waiting.removeFirst()
        let began = loop.now
        current = (command.name, command.camera, began, false)
        timer = loop.schedule(after: deadline) { [weak self] in self?.missedDeadline() }
        var answered = false
        command.body { [weak self] in
            guard !answered else { return }
            answered = true
            self?.finished(began: began)
        }
    }

    private func missedDeadline() {
        timer = nil
        guard var command = current else { return }
        command.late = true
        current = command
        onNotice?(.late(command: command.name, camera: command.camera, waited: loop.now - command.began))
    }

    private func finished(began: Instant) {
        guard let command = current, command.began == began else { return }
        if let timer { loop.cancel(timer) }
        timer = nil
        current = nil
        if command.late {
            onNotice?(.answered(command: command.name, camera: command.camera, after: loop.now - began))
        }
        next()
        guard !isBusy else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter() }
    }
}
