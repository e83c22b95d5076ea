// GPIO lines as the behaviour sees them: protocols and values, no backend.

import SystemPackage

/// Bias applied to an input line.
public enum LineBias: String, Sendable, Codable, CaseIterable {
    /// Internal pull-up (the usual choice for a button to ground).
    case pullUp = "pull-up"
    /// Internal pull-down.
    case pullDown = "pull-down"
    /// No bias: an external resistor is fitted.
    case disabled
}

/// How an input line is requested.
public struct InputLineConfig: Sendable, Hashable {
    /// The line's name (as in the device tree / gpio-line-names), never its number.
    public var name: String
    /// True when the line reads low while the button is pressed.
    public var activeLow: Bool
    /// Bias.
    public var bias: LineBias
    /// Debounce period asked of the kernel (zero for none).
    public var debounce: Duration

    /// Creates an input configuration.
    public init(name: String, activeLow: Bool = true, bias: LineBias = .pullUp, debounce: Duration = .zero) {
        self.name = name
        self.activeLow = activeLow
        self.bias = bias
        self.debounce = debounce
    }
}

/// One edge on an input line, in logical terms (active = pressed).
public struct LineEdge: Sendable, Hashable {
    /// The line's name.
    public var line: String
    /// True when the line became active (pressed), false when it became inactive.
    public var active: Bool
    /// When the edge happened, on the loop's monotonic timeline (the kernel's timestamp).
    public var timestamp: Instant
    /// The kernel's (or simulator's) per-line sequence number.
    public var sequence: UInt64

    /// Creates an edge.
    public init(line: String, active: Bool, timestamp: Instant, sequence: UInt64) {
        self.line = line
        self.active = active
        self.timestamp = timestamp
        self.sequence = sequence
    }
}

/// A requested input line. Released when `release()` is called or the owner goes away.
public protocol InputLine: AnyObject {
    /// The line's name.
    var name: String { get }
    /// Reads the logical value now (true = active).
    func read() throws -> Bool
    /// Gives the line back.
    func release()
}

/// A requested output line.
public protocol OutputLine: AnyObject {
    /// The line's name.
    var name: String { get }
    /// The last logical value written (true = on).
    var value: Bool { get }
    /// Drives the line (true = on).
    func set(_ on: Bool) throws
    /// Turns the line off and gives it back.
    func release()
}

/// A source of GPIO lines: libgpiod on hardware, a simulator elsewhere.
///
/// Edge callbacks are delivered on the event loop.
public protocol GPIOBackend: AnyObject {
    /// Requests an input line with edge detection on both edges.
    func requestInput(_ config: InputLineConfig, onEdge: @escaping (LineEdge) -> Void) throws -> any InputLine
    /// Requests an output line, initially off.
    func requestOutput(name: String, activeLow: Bool) throws -> any OutputLine
}

/// Errors from GPIO backends, each saying what to do.
public enum GPIOError: Error, CustomStringConvertible, Equatable {
    /// No chip carries a line with this name.
    case lineNotFound(String, searched: [String])
    /// The named chip is not present.
    case chipNotFound(String)
    /// Another process (or this one) holds the line.
    case lineBusy(String, consumer: String?)
    /// The kernel refused an operation.
    case system(operation: String, line: String, errno: Errno)

    /// A readable form, for messages and logs.
    public var description: String {
        switch self {
        case .lineNotFound(let name, let chips):
            let where_ =
                chips.isEmpty ? "no GPIO chip is present" : "searched \(chips.joined(separator: ", "))"
            return "GPIO line '\(name)' not found (\(where_)): check the line names in the board profile"
                + " and that the device-tree overlay is applied"
        case .chipNotFound(let label):
            return "GPIO chip '\(label)' not found: check the board profile and the kernel driver"
        case .lineBusy(let name, let consumer):
            let by = consumer.map { " by '\($0)'" } ?? ""
            return "GPIO line '\(name)' is already in use\(by): stop the other program or free the line"
        case .system(let operation, let line, let errno):
            return "GPIO \(operation) on line '\(line)' failed (\(errno), errno \(errno.rawValue))"
        }
    }
}
