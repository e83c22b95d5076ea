// An optional tilt sensor made of two GPIO tilt switches: which way up the camera is held.

import PinholeCore
import PinholeImaging

/// Which clockwise rotation of the camera body each state of the two tilt switches means.
public struct TiltMapping: Sendable, Hashable {
    /// Rotation in degrees (0, 90, 180, 270) for A open/B open, A closed/B open,
    /// A open/B closed, A closed/B closed.
    public var rotations: [Int]

    /// Creates a mapping; `rotations` is indexed by `a + 2 * b` (closed = 1).
    public init(rotations: [Int] = [0, 90, 270, 180]) {
        self.rotations = rotations
    }

    /// The mapping of a four-way tilt sensor whose outputs step through a Gray code as the
    /// body turns clockwise: 00 → 10 → 11 → 01.
    public static let grayCode = TiltMapping()

    /// The rotation for the switches' states.
    public func rotation(a: Bool, b: Bool) -> Int {
        rotations[(a ? 1 : 0) + (b ? 2 : 0)]
    }

    /// The switch states that give `degrees`, if any.
    public func states(for degrees: Int) -> (a: Bool, b: Bool)? {
        guard let index = rotations.firstIndex(of: ((degrees % 360) + 360) % 360) else { return nil }
        return (index & 1 != 0, index & 2 != 0)
    }
}

/// The state of the two tilt switches (after debouncing) and the body rotation they give.
public struct TiltSensor: Sendable, Hashable {
    /// The mapping from switch states to rotation.
    public var mapping: TiltMapping
    /// Whether switch A is closed.
    public private(set) var a = false
    /// Whether switch B is closed.
    public private(set) var b = false

    /// Creates a sensor with both switches open.
    public init(mapping: TiltMapping = .grayCode) {
        self.mapping = mapping
    }

    /// Records a switch's state.
    public mutating func set(_ function: ButtonFunction, closed: Bool) {
        switch function {
        case .tiltA: a = closed
        case .tiltB: b = closed
        default: break
        }
    }

    /// Clockwise rotation of the camera body in degrees.
    public var rotation: Int { mapping.rotation(a: a, b: b) }

    /// The EXIF orientation for a camera mounted at `mountRotation` in a body turned by
    /// `rotation`: both turn the sensor clockwise relative to the scene, so they add.
    public func orientation(mountRotation: Int) -> Orientation {
        Orientation(mountRotation: mountRotation + rotation)
    }
}
