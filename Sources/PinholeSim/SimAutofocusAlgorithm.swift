// The simulated camera's own AF algorithm (like an IPA with phase-detect AF).

import PinholeCore

/// A phase-detect-like AF: it measures the distance of the object under the AF window's
/// centre directly, then drives the lens there. Speaks libcamera's AF controls:
/// AfMode (0 manual, 1 auto, 2 continuous), AfTrigger (0 start, 1 cancel), AfRange
/// (0 normal, 1 macro, 2 full), AfSpeed (0 normal, 1 fast), AfWindows; reports AfState
/// (0 idle, 1 scanning, 2 focused, 3 failed).
struct SimAutofocusAlgorithm {
    var mode = 0
    var range = 0
    var speed = 0
    var window = NormalizedRect(x: 0.4, y: 0.4, width: 0.2, height: 0.2)
    private(set) var state = 0
    private var target: Double?
    private var reachable = true
    private var measuringFrames = 0

    /// Lens positions each range allows, in dioptres.
    var limits: ClosedRange<Double> {
        switch range {
        case 1: return 2...15
        case 2: return 0...15
        default: return 0...6
        }
    }

    /// AfTrigger start: begin a scan (auto mode only).
    mutating func trigger() {
        guard mode == 1 else { return }
        state = 1
        target = nil
        measuringFrames = speed == 1 ? 1 : 3
    }

    /// AfTrigger cancel: stop scanning where the lens is.
    mutating func cancel() {
        target = nil
        state = 0
    }

    /// AfMode changed.
    mutating func setMode(_ newMode: Int) {
        mode = newMode
        target = nil
        state = newMode == 2 ? 1 : 0
        measuringFrames = 2
    }

    /// Called at the start of every frame; returns the lens target, if AF wants to move it.
    mutating func frame(scene: SimScene, lensPosition: Double) -> Double? {
        switch mode {
        case 1 where state == 1, 2:
            if measuringFrames > 0 {
                measuringFrames -= 1
                return nil
            }
            let centre = (window.x + window.width / 2, window.y + window.height / 2)
            let wanted = 1 / scene.object(at: centre.0, centre.1).distance
            let clamped = min(limits.upperBound, max(limits.lowerBound, wanted))
            if target == nil || (mode == 2 && abs(clamped - (target ?? 0)) > 0.05) {
                target = clamped
                reachable = clamped == wanted
                state = 1
            }
            if let target, abs(lensPosition - target) < 0.001 {
                state = reachable ? 2 : 3
            }
            return target
        default:
            return nil
        }
    }
}
