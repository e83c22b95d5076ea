// Pinhole's own contrast-detection AF scan, for lenses whose camera has no AF algorithm.

/// One contrast-detection scan as a state machine: it says where to put the lens next, is
/// told the sharpness measured there, and finally says where focus is.
///
/// A coarse sweep from far to near (stopping once sharpness has clearly fallen past a
/// peak), then a fine sweep around the best coarse position, then a parabola through the
/// best fine sample and its neighbours. A sweep whose sharpness hardly varies finds nothing.
public struct ContrastAutofocus: Sendable {
    /// What to do next.
    public enum Step: Sendable, Equatable {
        /// Move the lens here and measure sharpness.
        case measure(at: Double)
        /// The scan is over: put the lens at `position`; `found` is false when no peak was seen.
        case finished(position: Double, found: Bool)
    }

    private enum Phase { case coarse, fine, done }

    /// Lens positions searched, in dioptres.
    public let range: ClosedRange<Double>
    /// Distance between coarse positions, in dioptres.
    public let coarseStep: Double
    /// Smallest ratio of best to worst coarse sharpness that counts as a peak.
    public var minimumContrastRatio = 1.25
    private var phase = Phase.coarse
    private var planned: [Double] = []
    private var coarse: [(position: Double, sharpness: Double)] = []
    private var fine: [(position: Double, sharpness: Double)] = []

    /// Creates a scan over `range` with the step `speed` asks for.
    public init(range: ClosedRange<Double>, speed: AutofocusSpeed) {
        self.range = range
        coarseStep = speed == .fast ? 1.0 : 0.5
    }

    /// Starts the scan: the first position to measure.
    public mutating func start() -> Step {
        phase = .coarse
        coarse = []
        fine = []
        planned = stride(from: range.lowerBound, through: range.upperBound + 1e-9, by: coarseStep).map { $0 }
        if planned.last.map({ range.upperBound - $0 > 1e-6 }) ?? true { planned.append(range.upperBound) }
        return .measure(at: planned.removeFirst())
    }

    /// Records the sharpness measured at `position` and says what to do next.
    public mutating func record(sharpness: Double, at position: Double) -> Step {
        switch phase {
        case .coarse:
            coarse.append((position, sharpness))
            let best = coarse.max { $0.sharpness < $1.sharpness }!
            let pastPeak = coarse.count >= 3 && sharpness < 0.6 * best.sharpness && best.position < position
            if planned.isEmpty || pastPeak { return beginFine() }
            return .measure(at: planned.removeFirst())
        case .fine:
            fine.append((position, sharpness))
            if planned.isEmpty { return finish() }
            return .measure(at: planned.removeFirst())
        case .done:
            return finish()
        }
    }

    private mutating func beginFine() -> Step {
        let best = coarse.max { $0.sharpness < $1.sharpness }!
        let worst = coarse.min { $0.sharpness < $1.sharpness }!
        guard best.sharpness >= worst.sharpness * minimumContrastRatio, best.sharpness > 0 else {
            phase = .done
            return .finished(position: best.position, found: false)
        }
        phase = .fine
        fine = [best]
        let step = coarseStep / 4
        planned = (-3...3).map { best.position + Double($0) * step }
            .filter { $0 >= range.lowerBound - 1e-9 && $0 <= range.upperBound + 1e-9 }
            .filter { abs($0 - best.position) > 1e-9 }
        if planned.isEmpty { return finish() }
        return .measure(at: planned.removeFirst())
    }

    private mutating func finish() -> Step {
        phase = .done
        let samples = fine.sorted { $0.position < $1.position }
        guard let bestIndex = samples.indices.max(by: { samples[$0].sharpness < samples[$1].sharpness })
        else {
            return .finished(position: range.lowerBound, found: false)
        }
        var position = samples[bestIndex].position
        if bestIndex > 0, bestIndex < samples.count - 1 {
            let left = samples[bestIndex - 1]
            let centre = samples[bestIndex]
            let right = samples[bestIndex + 1]
            let h = (right.position - left.position) / 2
            let curvature = left.sharpness - 2 * centre.sharpness + right.sharpness
            if curvature < 0 {
                let offset = 0.5 * (left.sharpness - right.sharpness) / curvature * h
                position += max(-h, min(h, offset))
            }
        }
        return .finished(position: min(range.upperBound, max(range.lowerBound, position)), found: true)
    }
}
