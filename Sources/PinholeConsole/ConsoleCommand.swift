// The console's commands as values: what a line, a menu item or a prompt's answer asks for.

import PinholeAppliance
import PinholeImaging

/// One console command, parsed once at the edge (a line-mode line, a menu item, a menu
/// prompt's answer) and carried as a value from there on. Text exists only at the wire:
/// `CommandCatalog` parses words into these and renders help and usage errors; the
/// line-mode console runs them and formats the answer.
///
/// To add a command: add a case here, a `CommandDefinition` for its verb in
/// `CommandCatalog.definitions` (usage, summary, an example that parses, the parser), and
/// its case in `LineModeConsole.run(_:json:reply:)`. Help, `help --json`, usage errors and
/// the menu all follow from that.
public enum ConsoleCommand: Hashable, Sendable {
    /// `help`: every command.
    case help
    /// `quit`: leave the console.
    case quit
    /// `capture`, `capture --timer S`, `capture --burst N`.
    case capture(CaptureRequest)
    /// `camera list`.
    case cameraList
    /// `camera switch`.
    case cameraSwitch
    /// `camera select ID`.
    case cameraSelect(String)
    /// `torch on|off`.
    case torch(Bool)
    /// `lens DIOPTRES`.
    case lens(Double)
    /// `af mode MODE` (also `af MODE`).
    case afMode(AutofocusMode)
    /// `af point X Y`.
    case afPoint(x: Double, y: Double)
    /// `af trigger`.
    case afTrigger
    /// `af range RANGE`.
    case afRange(AutofocusRange)
    /// `af speed SPEED`.
    case afSpeed(AutofocusSpeed)
    /// `metering MODE`.
    case metering(MeteringMode)
    /// `awb MODE`.
    case whiteBalance(WhiteBalanceMode)
    /// `album current NAME|off`.
    case albumCurrent(String?)
    /// `ae lock|unlock`.
    case aeLock(Bool)
    /// `ae point X Y`.
    case aePoint(x: Double, y: Double)
    /// `ae point off`.
    case aePointOff
    /// `zoom F`.
    case zoom(Double)
    /// `camera size WxH`.
    case cameraSize(width: Int, height: Int)
    /// `awb lock|unlock`.
    case awbLock(Bool)
    /// `flash MODE`.
    case flash(FlashMode)
    /// `exposure auto`.
    case exposureAuto
    /// `exposure manual TIME_US GAIN`.
    case exposureManual(timeUs: Int, gain: Double)
    /// `ev STOPS`.
    case ev(Double)
    /// `status`.
    case status
    /// `library WORDS…`: the library command language, as words (never re-split).
    case library([String])
    /// `sim …`: the simulated board.
    case sim(SimCommand)
    /// `gpio status`.
    case gpioStatus
    /// `led test NAME`.
    case ledTest(OutputFunction)
    /// `log`.
    case log
    /// `shutdown [--poweroff]`.
    case shutdown(powerOff: Bool)
    /// `menu`.
    case menu
    /// `settings`.
    case settings
    /// `set KEY VALUE`.
    case set(key: String, value: String)
    /// `pin set NEW_PIN`.
    case pinSet(String)
    /// `pin clear`.
    case pinClear
    /// `unlock PIN`.
    case unlock(String)
    /// `lock`.
    case lock
    /// Start a timelapse.
    case timelapseStart(TimelapsePlan)
    /// Stop the running timelapse.
    case timelapseStop
    /// The timelapse's progress.
    case timelapseStatus

    /// Whether the command needs the PIN (when one is set).
    public var needsPIN: Bool {
        switch self {
        case .library, .settings, .set, .pinSet, .pinClear: return true
        default: return false
        }
    }

    /// Whether the command carries a secret that must not be shown or logged.
    public var isSecret: Bool {
        switch self {
        case .unlock, .pinSet: return true
        default: return false
        }
    }
}

/// What `capture` takes.
public enum CaptureRequest: Hashable, Sendable {
    /// One photo now.
    case now
    /// One photo after a self-timer of this many seconds (1-60).
    case timer(seconds: Int)
    /// This many photos in a row (2-20).
    case burst(count: Int)
}

/// The simulated board's commands.
public enum SimCommand: Hashable, Sendable {
    /// Press and release a button.
    case press(ButtonFunction, holdMs: Int, bounce: Int)
    /// Hold a button down.
    case hold(ButtonFunction, bounce: Int)
    /// Let a held button go.
    case release(ButtonFunction, bounce: Int)
    /// Turn the body (tilt switches).
    case tilt(degrees: Int, bounce: Int)
    /// Set the scene's light level.
    case sceneLux(Double)
    /// A new subject.
    case sceneChange
    /// Inject a fault.
    case fault(SimFault)
    /// Let time pass.
    case wait(ms: Int)
    /// Fire a trigger input (the first one when no name is given).
    case trigger(String?)
}

/// Faults the simulated board can inject.
public enum SimFault: String, Hashable, Sendable, CaseIterable {
    /// The camera stops sending frames (the watchdog restarts it).
    case cameraTimeout = "camera-timeout"
    /// The cameras fail to start until `camera-alive`.
    case cameraDead = "camera-dead"
    /// The cameras start again.
    case cameraAlive = "camera-alive"
}

/// A command with the answer format asked for (`--json`).
public struct ConsoleInvocation: Hashable, Sendable {
    /// The command.
    public var command: ConsoleCommand
    /// Whether the answer is one line of JSON.
    public var json: Bool

    /// Creates an invocation.
    public init(_ command: ConsoleCommand, json: Bool = false) {
        self.command = command
        self.json = json
    }
}
