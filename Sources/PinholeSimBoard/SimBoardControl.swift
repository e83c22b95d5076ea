// The simulated board's scripting hooks (`sim …` commands), over the simulated GPIO chip and world.

import PinholeAppliance
import PinholeBoard
import PinholeConsole
import PinholeCore
import PinholeSim

/// Implements `sim …` console commands for the simulated board: presses with contact
/// bounce on the simulated GPIO chip, tilt, triggers, light, scene and camera faults. Used
/// by `pinhole run --board sim` and by the command fuzzer, so both drive the same board.
public final class SimBoardControl: SimulationControl {
    let gpio: SimulatedGPIO
    let world: SimWorld
    let board: BoardProfile
    let loop: EventLoop

    /// Controls `board` wired to `gpio`, its cameras looking at `world`; the torch output
    /// lights the world.
    public init(gpio: SimulatedGPIO, world: SimWorld, board: BoardProfile, loop: EventLoop) {
        self.gpio = gpio
        self.world = world
        self.board = board
        self.loop = loop
        // The torch LED lights the simulated scene: flash and torch really change the frames.
        if let torch = board.outputs[.torch]?.line {
            world.torchIsLit = { [gpio] in gpio.outputValue(torch) ?? false }
        }
    }

    /// Every simulated camera this board may have.
    private var cameraIDs: [String] {
        [SimCameraSpec.back, .front, .backWithAutofocus].map(\.id)
    }

    private func line(_ button: ButtonFunction) throws -> String {
        guard let wiring = board.buttons[button] else {
            throw ConsoleError.unavailable("this board has no \(button.rawValue) button")
        }
        return wiring.line
    }

    /// Presses `button` for `hold` with `bounce` contact bounces; returns when it settles.
    public func press(_ button: ButtonFunction, hold: Duration, bounce: Int) throws -> Instant {
        gpio.press(try line(button), hold: hold, bounce: bounce)
    }

    /// Holds `button` down (after `bounce` bounces).
    public func hold(_ button: ButtonFunction, bounce: Int) throws {
        let name = try line(button)
        scheduleChatter(name, ending: true, bounce: bounce)
    }

    /// Lets `button` go (after `bounce` bounces).
    public func release(_ button: ButtonFunction, bounce: Int) throws {
        let name = try line(button)
        scheduleChatter(name, ending: false, bounce: bounce)
    }

    /// Turns the board to `degrees` through the tilt switches.
    public func tilt(degrees: Int, bounce: Int) throws {
        guard let mapping = board.tilt, let a = board.buttons[.tiltA], let b = board.buttons[.tiltB] else {
            throw ConsoleError.unavailable(
                "this board has no tilt sensor ([buttons.tilt_a] and [buttons.tilt_b])")
        }
        guard let states = mapping.states(for: degrees) else {
            throw ConsoleError.usage(
                "tilt \(degrees): use one of \(Set(mapping.rotations).sorted().map(String.init).joined(separator: ", "))"
            )
        }
        for (line, closed) in [(a.line, states.a), (b.line, states.b)] where gpio.logical(line) != closed {
            scheduleChatter(line, ending: closed, bounce: bounce)
        }
    }

    private func scheduleChatter(_ name: String, ending active: Bool, bounce: Int) {
        var t = loop.now
        for index in 0..<(bounce * 2) {
            let level = index % 2 == 0 ? active : !active
            loop.schedule(at: t) { [gpio] in gpio.drive(name, active: level) }
            t = t + .microseconds(400)
        }
        loop.schedule(at: t) { [gpio] in gpio.drive(name, active: active) }
    }

    /// Fires the trigger input `name` (the first when nil) as a PIR sensor would.
    public func fireTrigger(_ name: String?) throws -> Instant {
        guard let trigger = board.triggers.first(where: { name == nil || $0.name == name }) else {
            let names = board.triggers.map(\.name).joined(separator: ", ")
            throw ConsoleError.unavailable(
                board.triggers.isEmpty
                    ? "this board has no trigger input ([triggers.NAME])"
                    : "no trigger '\(name ?? "")': \(names)")
        }
        // A PIR sensor's output stays active about half a second.
        return gpio.press(trigger.line, hold: .milliseconds(500), bounce: 0)
    }

    /// Sets the scene's light level.
    public func setLux(_ lux: Double) { world.setLux(lux) }

    /// Moves the scene (a new subject).
    public func changeScene() { world.changeScene() }

    /// Makes the simulated cameras fail (or work again).
    public func injectFault(_ fault: SimFault) throws {
        switch fault {
        case .cameraTimeout: world.stallCameras(cameraIDs)
        case .cameraDead: world.deadCameras.formUnion(cameraIDs)
        case .cameraAlive: world.deadCameras.removeAll()
        }
    }
}
