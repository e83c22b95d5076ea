// What the console may ask of a simulated board (scripted presses, scene changes, faults).

import PinholeAppliance
import PinholeBoard
import PinholeCore

/// Scripting hooks offered by the simulated board; absent on real hardware.
public protocol SimulationControl: AnyObject {
    /// Presses a button with `bounce` chatter transitions on press and release and a hold of
    /// `hold`; returns when the line is stable after the release.
    func press(_ button: ButtonFunction, hold: Duration, bounce: Int) throws -> Instant
    /// Holds a button down until `release` (with `bounce` chatter).
    func hold(_ button: ButtonFunction, bounce: Int) throws
    /// Releases a held button.
    func release(_ button: ButtonFunction, bounce: Int) throws
    /// Turns the camera body to `degrees` (0, 90, 180, 270 clockwise) by setting the tilt
    /// switches, with `bounce` chatter transitions on each switch that changes.
    func tilt(degrees: Int, bounce: Int) throws
    /// Sets the scene's light level.
    func setLux(_ lux: Double)
    /// Changes the scene (a new subject).
    func changeScene()
    /// Fires the trigger input `name` (the board's first when nil): the line goes to its firing
    /// level for a moment; returns when it has settled again.
    func fireTrigger(_ name: String?) throws -> Instant
    /// Injects a fault.
    func injectFault(_ fault: SimFault) throws
}
