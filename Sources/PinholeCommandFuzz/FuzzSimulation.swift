// The simulated board's `sim` hooks for the command fuzzer.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import PinholeSim

/// The simulated board's `sim` hooks for the fuzzer: buttons, tilt, trigger, scene, faults.
final class FuzzSimulation: SimulationControl {
    let gpio: SimulatedGPIO
    let world: SimWorld
    let board: BoardProfile
    let loop: EventLoop

    init(gpio: SimulatedGPIO, world: SimWorld, board: BoardProfile, loop: EventLoop) {
        self.gpio = gpio
        self.world = world
        self.board = board
        self.loop = loop
    }

    private func line(_ button: ButtonFunction) throws -> String {
        guard let wiring = board.buttons[button] else {
            throw ConsoleError.unavailable("no \(button.rawValue)")
        }
        return wiring.line
    }

    func press(_ button: ButtonFunction, hold: Duration, bounce: Int) throws -> Instant {
        gpio.press(try line(button), hold: hold, bounce: min(bounce, 50))
    }

    func hold(_ button: ButtonFunction, bounce: Int) throws { gpio.drive(try line(button), active: true) }

    func release(_ button: ButtonFunction, bounce: Int) throws { gpio.drive(try line(button), active: false) }

    func tilt(degrees: Int, bounce: Int) throws {
        guard let mapping = board.tilt, let a = board.buttons[.tiltA], let b = board.buttons[.tiltB],
            let states = mapping.states(for: degrees)
        else { throw ConsoleError.usage("tilt \(degrees): use 0, 90, 180 or 270") }
        gpio.drive(a.line, active: states.a)
        gpio.drive(b.line, active: states.b)
    }

    func fireTrigger(_ name: String?) throws -> Instant {
        guard let trigger = board.triggers.first(where: { name == nil || $0.name == name }) else {
            throw ConsoleError.unavailable("no trigger '\(name ?? "")'")
        }
        return gpio.press(trigger.line, hold: .milliseconds(500), bounce: 0)
    }

    func setLux(_ lux: Double) { world.setLux(lux) }

    func changeScene() { world.changeScene() }

    func injectFault(_ fault: SimFault) throws {
        let ids = [SimCameraSpec.back, .front].map(\.id)
        switch fault {
        case .cameraTimeout: world.stallCameras(ids)
        case .cameraDead: world.deadCameras.formUnion(ids)
        case .cameraAlive: world.deadCameras.removeAll()
        }
    }
}
