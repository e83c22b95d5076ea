// The appliance's log (swift-log): lines with levels to standard error (the journal under
// systemd), or into the console's log while the console's menu owns the terminal.

import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where log lines go. Standard error by default; while a console menu is drawn on the same
/// terminal, lines go to `console` instead (its Logs page and status line), so that no log line
/// is written on top of the screen.
final class LogRouter: Sendable {
    private struct State {
        var console: (@Sendable (Logger.Level, String) -> Void)?
    }

    private let state = Mutex(State())
    private let stderr: LineWriter
    private let journalPriorities: Bool
    /// The lowest level written.
    let level: Logger.Level

    /// Routes to `stderr`; `level` and the journal's priority prefixes come from the
    /// environment (`PINHOLE_LOG_LEVEL`; `JOURNAL_STREAM` naming standard error).
    init(stderr: LineWriter = .standardError, environment: [String: String] = LogRouter.processEnvironment())
    {
        self.stderr = stderr
        self.level = environment["PINHOLE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        self.journalPriorities = Self.isJournal(stderr.fd, stream: environment["JOURNAL_STREAM"])
    }

    /// Sends lines to `console` (nil: back to standard error).
    func divert(to console: (@Sendable (Logger.Level, String) -> Void)?) {
        state.withLock { $0.console = console }
    }

    /// A logger writing through this router.
    func logger(label: String = "pinhole") -> Logger {
        var logger = Logger(label: label) { _ in ApplianceLogHandler(router: self) }
        logger.logLevel = level
        return logger
    }

    /// One line at `level`.
    func deliver(_ level: Logger.Level, _ text: String) {
        if let console = state.withLock({ $0.console }) {
            console(level, Self.consoleText(level, text))
            return
        }
        let prefix = journalPriorities ? "<\(Self.syslogPriority(level))>" : ""
        stderr.write(prefix + "pinhole: " + Self.consoleText(level, text))
    }

    /// The text of a line: the message, with the level in front from warnings up.
    static func consoleText(_ level: Logger.Level, _ text: String) -> String {
        switch level {
        case .trace, .debug, .info, .notice: return text
        case .warning: return "warning: " + text
        case .error: return "error: " + text
        case .critical: return "critical: " + text
        }
    }

    /// The syslog priority journald reads from a `<N>` prefix (sd-daemon(3)).
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// Whether `fd` is the stream systemd connected to the journal (`JOURNAL_STREAM` is
    /// "DEVICE:INODE" of it).
    static func isJournal(_ fd: Int32, stream: String?) -> Bool {
        guard let stream else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
            return false
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// This process's environment.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}

/// The swift-log handler of the appliance: formats the message and hands it to a `LogRouter`.
struct ApplianceLogHandler: LogHandler {
    let router: LogRouter
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var text = event.message.description
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }
        if !fields.isEmpty {
            text +=
                " " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        router.deliver(event.level, text)
    }
}
