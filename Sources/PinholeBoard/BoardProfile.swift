// A board profile: which GPIO line does what, which cameras are fitted, where the console is.

import PinholeCore
import SystemPackage

/// The functions a button can have.
public enum ButtonFunction: String, Sendable, CaseIterable, Codable {
    /// Full press of the shutter (captures).
    case shutter
    /// First stage of a two-stage shutter (focus and lock exposure).
    case halfPress = "half_press"
    /// Cycles through the cameras.
    case `switch`
    /// Toggles the torch.
    case torch
    /// First tilt switch of the optional tilt sensor.
    case tiltA = "tilt_a"
    /// Second tilt switch of the optional tilt sensor.
    case tiltB = "tilt_b"
    /// Starts a clip, or stops the one under way (`record start` / `record stop`).
    case record
    /// The photo/video mode switch (a latching switch): closed is video mode, where the shutter
    /// starts and stops recording instead of taking photos; open is photo mode.
    case mode
}

/// The functions an output line can have.
public enum OutputFunction: String, Sendable, CaseIterable, Codable {
    /// Ready / busy / low-storage patterns.
    case status
    /// Flashes when a photo is taken.
    case capture
    /// Error codes.
    case error
    /// The torch LED (steady light; also fired as a flash by cameras that use it so).
    case torch
    /// A separate flash output (pulsed at capture).
    case flash
    /// Optional buzzer.
    case buzzer
}

/// A button wired to a GPIO line.
public struct ButtonWiring: Sendable, Hashable {
    /// Line name.
    public var line: String
    /// Pressed reads low.
    public var activeLow: Bool
    /// Bias.
    public var bias: LineBias
    /// Debounce period (software, always; also asked of the kernel when `kernelDebounce`).
    public var debounce: Duration
    /// Whether the kernel is asked to debounce too. The kernel's debounced edge carries the
    /// time its debounce completed, not the first contact, so lines whose timestamps matter
    /// (the shutter, for zero shutter lag) default to software debounce only.
    public var kernelDebounce: Bool
    /// Time until a press becomes a hold.
    public var holdTime: Duration
    /// Interval of repeats while held (nil: none). On the shutter this is the burst rate.
    public var repeatInterval: Duration?

    /// Creates a wiring.
    public init(
        line: String, activeLow: Bool = true, bias: LineBias = .pullUp,
        debounce: Duration = .milliseconds(10),
        kernelDebounce: Bool = true, holdTime: Duration = .milliseconds(800),
        repeatInterval: Duration? = .milliseconds(250)
    ) {
        self.line = line
        self.activeLow = activeLow
        self.bias = bias
        self.debounce = debounce
        self.kernelDebounce = kernelDebounce
        self.holdTime = holdTime
        self.repeatInterval = repeatInterval
    }

    /// The request for this wiring: the kernel debounces only when `kernelDebounce`.
    public var inputConfig: InputLineConfig {
        InputLineConfig(
            name: line, activeLow: activeLow, bias: bias, debounce: kernelDebounce ? debounce : .zero)
    }
}

/// An output wired to a GPIO line.
public struct OutputWiring: Sendable, Hashable {
    /// Line name.
    public var line: String
    /// On drives the line low.
    public var activeLow: Bool

    /// Creates a wiring.
    public init(line: String, activeLow: Bool = false) {
        self.line = line
        self.activeLow = activeLow
    }
}

/// A camera fitted to the board.
public struct CameraFitting: Sendable, Hashable {
    /// Substring of the camera's id or model that identifies it.
    public var match: String
    /// Where it faces, if the camera does not say.
    public var position: CameraPosition?
    /// Whether the torch LED lights this camera's scene.
    public var torch: Bool
    /// Clockwise mount rotation in degrees (0, 90, 180, 270).
    public var mountRotation: Int
    /// Lens focal length in millimetres (for EXIF).
    public var focalLength: Double?
    /// Lens f-number (for EXIF).
    public var fNumber: Double?
    /// Lens model (for EXIF).
    public var lensModel: String?

    /// Creates a fitting.
    public init(
        match: String, position: CameraPosition? = nil, torch: Bool = false, mountRotation: Int = 0,
        focalLength: Double? = nil, fNumber: Double? = nil, lensModel: String? = nil
    ) {
        self.match = match
        self.position = position
        self.torch = torch
        self.mountRotation = mountRotation
        self.focalLength = focalLength
        self.fNumber = fNumber
        self.lensModel = lensModel
    }

    /// Whether this fitting describes `camera`.
    public func matches(_ camera: CameraInfo) -> Bool {
        camera.id.contains(match) || camera.model.contains(match)
    }
}

/// Everything Pinhole needs to know about a board.
public struct BoardProfile: Sendable, Hashable {
    /// Short name (directory name under board/).
    public var name: String
    /// Human-readable description.
    public var description: String
    /// Prefix of /proc/device-tree/model that identifies the board for `--board auto`.
    public var model: String?
    /// Maker written to EXIF Make.
    public var make: String
    /// Buttons by function.
    public var buttons: [ButtonFunction: ButtonWiring]
    /// Outputs by function.
    public var outputs: [OutputFunction: OutputWiring]
    /// Cameras fitted.
    public var cameras: [CameraFitting]
    /// Console device (nil: stdio).
    public var consoleDevice: FilePath?
    /// Console baud rate.
    public var consoleBaud: Int
    /// Label of the GPIO chip carrying the lines ("pinctrl-rp1"), when the board has one.
    public var gpioChip: String?
    /// Chords (buttons held together).
    public var chords: [Chord]
    /// The tilt sensor's mapping, when the board has tilt switches.
    public var tilt: TiltMapping?
    /// Trigger inputs (PIR sensors, contacts, intervalometers), by name.
    public var triggers: [TriggerWiring] = []

    /// Creates a profile.
    public init(
        name: String, description: String, model: String? = nil, make: String = "Raspberry Pi",
        buttons: [ButtonFunction: ButtonWiring], outputs: [OutputFunction: OutputWiring],
        cameras: [CameraFitting], consoleDevice: FilePath? = nil, consoleBaud: Int = 115_200,
        gpioChip: String? = nil, chords: [Chord] = [], tilt: TiltMapping? = nil,
        triggers: [TriggerWiring] = []
    ) {
        self.name = name
        self.description = description
        self.model = model
        self.make = make
        self.buttons = buttons
        self.outputs = outputs
        self.cameras = cameras
        self.consoleDevice = consoleDevice
        self.consoleBaud = consoleBaud
        self.gpioChip = gpioChip
        self.chords = chords
        self.tilt = tilt
        self.triggers = triggers
    }

    /// The fitting that describes `camera`, if any.
    public func fitting(for camera: CameraInfo) -> CameraFitting? {
        cameras.first { $0.matches(camera) }
    }

    /// Every line name the profile uses.
    public var lineNames: [String] {
        buttons.values.map(\.line) + outputs.values.map(\.line) + triggers.map(\.line)
    }
}
