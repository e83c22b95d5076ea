// Puts every output of a board in its safe state (off) before anything else runs.

import PinholeCore

/// The safe-state rule for outputs: off on exit, on SIGTERM/SIGINT, and — because a crashed
/// process leaves its lines wherever they were — off again at the next start, before any
/// input or camera is touched.
public enum OutputSafety {
    /// Requests every output of `board` and drives it off. Requesting an output already
    /// drives it to its initial (off) value; the explicit write makes the rule independent of
    /// the backend. On failure every line requested so far is released (off) and the error
    /// is thrown.
    public static func requestAllOff(board: BoardProfile, gpio: any GPIOBackend) throws -> [OutputFunction:
        any OutputLine]
    {
        var lines: [OutputFunction: any OutputLine] = [:]
        do {
            for (function, wiring) in board.outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let line = try gpio.requestOutput(name: wiring.line, activeLow: wiring.activeLow)
                lines[function] = line
                try line.set(false)
            }
        } catch {
            for line in lines.values { line.release() }
            throw error
        }
        return lines
    }

    /// Turns every output of `board` off and gives the lines back, for use when Pinhole is
    /// not running (`pinhole board off`, the unit's ExecStopPost after a crash). Lines that
    /// cannot be requested are skipped and reported; the others are still turned off.
    /// Returns the outputs turned off and the failures, each as a sentence.
    public static func turnAllOff(board: BoardProfile, gpio: any GPIOBackend) -> (
        off: [String], failed: [String]
    ) {
        var off: [String] = []
        var failed: [String] = []
        for (function, wiring) in board.outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            do {
                let line = try gpio.requestOutput(name: wiring.line, activeLow: wiring.activeLow)
                defer { line.release() }
                try line.set(false)
                off.append("\(function.rawValue) \(wiring.line)")
            } catch {
                failed.append("\(function.rawValue) \(wiring.line): \(error)")
            }
        }
        return (off, failed)
    }
}
