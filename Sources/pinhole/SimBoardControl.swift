// The simulated board's scripting hooks, over the simulated GPIO chip and world.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import PinholeSim

/// Implements `sim …` console commands for the simulated board.
final class SimBoardControl: SimulationControl {
    let gpio: SimulatedGPIO
    let world: SimWorld
    let board: BoardProfile
    let loop: EventLoop

    init(gpio: SimulatedGPIO, world: SimWorld, board: BoardProfile, loop: EventLoop) {
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

    func press(_ button: ButtonFunction, hold: Duration, bounce: Int) throws -> Instant {
        gpio.press(try line(button), hold: hold, bounce: bounce)
    }

    func hold(_ button: ButtonFunction, bounce: Int) throws {
        let name = try line(button)
        scheduleChatter(name, ending: true, bounce: bounce)
    }

    func release(_ button: ButtonFunction, bounce: Int) throws {
        let name = try line(button)
        scheduleChatter(name, ending: false, bounce: bounce)
    }

    func tilt(degrees: Int, bounce: Int) throws {
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

    func setLux(_ lux: Double) { world.setLux(lux) }

    func changeScene() { world.changeScene() }

    func injectFault(_ fault: SimFault) throws {
        switch fault {
        case .cameraTimeout: world.stallCameras(cameraIDs)
        case .cameraDead: world.deadCameras.formUnion(cameraIDs)
        case .cameraAlive: world.deadCameras.removeAll()
        }
    }
}
