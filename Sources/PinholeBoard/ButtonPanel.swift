// The board's buttons as requested lines: one input line and its interpreter per button function.

import PinholeCore

/// The buttons of a board profile, requested from a GPIO backend. Each line's edges go to its
/// own `ButtonInterpreter` (debounce, hold, repeat on the loop's clock); what they report goes
/// to the owner's handler. The appliance owns one; nothing else holds the lines.
package final class ButtonPanel {
    private var lines: [ButtonFunction: any InputLine] = [:]
    private var interpreters: [ButtonFunction: ButtonInterpreter] = [:]

    /// An empty panel (no line requested yet).
    package init() {}

    /// Requests every button of `buttons` (in name order) and returns the functions whose
    /// line is already active: such a button is seeded as held, not reported as a press (a
    /// tilt switch already closed is a state). Lines requested before a failure stay held
    /// until `release()`.
    package func request(
        _ buttons: [ButtonFunction: ButtonWiring], gpio: any GPIOBackend, loop: EventLoop,
        events: @escaping (ButtonFunction, ButtonEvent) -> Void
    ) throws -> [ButtonFunction] {
        var active: [ButtonFunction] = []
        for (function, wiring) in buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let interpreter = ButtonInterpreter(
                loop: loop, debounce: wiring.debounce, holdTime: wiring.holdTime,
                repeatInterval: wiring.repeatInterval
            ) { event in events(function, event) }
            let line = try gpio.requestInput(wiring.inputConfig) { edge in interpreter.edge(edge) }
            interpreter.readLevel = { [weak line] in try? line?.read() }
            lines[function] = line
            interpreters[function] = interpreter
            if (try? line.read()) == true {
                interpreter.seed(pressed: true)
                active.append(function)
            }
        }
        return active
    }

    /// Stops every interpreter and releases every line. Safe to call twice.
    package func release() {
        for interpreter in interpreters.values { interpreter.reset() }
        for line in lines.values { line.release() }
        lines.removeAll()
        interpreters.removeAll()
    }

    /// Whether any button is still settling (a bounce under way).
    package var isSettling: Bool { interpreters.values.contains { $0.isSettling } }

    /// Whether the button is held down (debounced).
    package func isPressed(_ function: ButtonFunction) -> Bool { interpreters[function]?.isPressed ?? false }

    /// The line's raw level (true: active), nil when it is not requested or cannot be read.
    package func level(_ function: ButtonFunction) -> Bool? { lines[function].flatMap { try? $0.read() } }
}
