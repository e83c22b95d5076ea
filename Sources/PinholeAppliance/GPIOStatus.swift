// A snapshot of every GPIO input and output with its current state, as `gpio status --json` reports it.

/// The GPIO side of the appliance.
public struct GPIOStatus: Codable, Sendable, Hashable {
    /// One input line.
    public struct Input: Codable, Sendable, Hashable {
        /// Button function ("shutter", "tilt_a" …).
        public var function: String
        /// Line name.
        public var line: String
        /// Pressed reads low.
        public var activeLow: Bool
        /// Bias.
        public var bias: String
        /// Software debounce, milliseconds.
        public var debounceMs: Int
        /// Debounce asked of the kernel, milliseconds (0: none).
        public var kernelDebounceMs: Int
        /// The line's logical level read now (true = active); nil when it cannot be read.
        public var active: Bool?
        /// The debounced state.
        public var pressed: Bool
    }

    /// One output line.
    public struct Output: Codable, Sendable, Hashable {
        /// Output function ("status", "torch" …).
        public var function: String
        /// Line name.
        public var line: String
        /// On drives the line low.
        public var activeLow: Bool
        /// Whether the output is on now.
        public var on: Bool
        /// What it shows: "off", "on" or a pattern's name ("busy", "error-2" …).
        public var showing: String
    }

    /// A chord.
    public struct ChordState: Codable, Sendable, Hashable {
        /// What it does.
        public var action: String
        /// Its buttons.
        public var buttons: [String]
        /// Hold time, milliseconds.
        public var holdMs: Int
        /// Whether it powers the system off.
        public var powerOff: Bool
    }

    /// The shutter's state.
    public struct Shutter: Codable, Sendable, Hashable {
        /// Half-press stage down.
        public var halfPressed: Bool
        /// Full-press stage down.
        public var fullPressed: Bool
        /// Focus and exposure locked.
        public var locked: Bool
        /// Shots in the burst under way (0: none).
        public var burstShots: Int
        /// Burst shots taken since start.
        public var burstShotsTaken: Int
        /// Frames skipped in bursts because encoding and storing lagged behind.
        public var burstSkipped: Int
    }

    /// The tilt sensor's state.
    public struct Tilt: Codable, Sendable, Hashable {
        /// Switch A closed.
        public var a: Bool
        /// Switch B closed.
        public var b: Bool
        /// Body rotation, degrees clockwise.
        public var rotation: Int
    }

    /// Board name.
    public var board: String
    /// GPIO chip label, when the profile names one.
    public var chip: String?
    /// Inputs, by function name.
    public var inputs: [Input]
    /// Outputs, by function name.
    public var outputs: [Output]
    /// Chords.
    public var chords: [ChordState]
    /// The shutter.
    public var shutter: Shutter
    /// The tilt sensor (nil: none fitted).
    public var tilt: Tilt?
    /// The EXIF orientation a photo taken now would carry (1, 3, 6, 8).
    public var orientation: Int
}
