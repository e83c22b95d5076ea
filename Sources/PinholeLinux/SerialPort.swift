// A serial device opened raw with termios (115200 8N1 by default).

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore

/// Errors opening or configuring a serial device.
public struct SerialPortError: Error, CustomStringConvertible {
    /// The device.
    public var device: String
    /// What failed.
    public var operation: String
    /// errno.
    public var code: Int32

    /// What failed and why.
    public var description: String {
        let reason = String(cString: strerror(code))
        var advice = ""
        if code == ENOENT { advice = ": check the device name (ls /dev/tty*) and the UART overlay" }
        if code == EACCES { advice = ": add the user to the dialout group" }
        if code == EBUSY { advice = ": another program (a getty?) holds the port" }
        return "serial device \(device): \(operation) failed (\(reason))\(advice)"
    }
}

/// An open serial port in raw mode.
public final class SerialPort: @unchecked Sendable {
    /// The device path.
    public let device: String
    /// The file descriptor (read and write).
    public let fd: Int32
    /// Whether input carries PARMRK marks for framing/parity errors and breaks (a terminal
    /// device; decode with the console's `MarkedInputDecoder`).
    public let marksLineErrors: Bool

    /// Opens `device` raw at `baud`, 8 data bits, no parity, 1 stop bit, no flow control.
    /// The open does not wait for carrier (O_NONBLOCK, cleared once open); a pty slave
    /// (/dev/pts/N) is accepted like a UART. Stale input is discarded.
    public init(device: String, baud: Int = 115_200) throws {
        guard Self.speeds[baud] != nil else {
            throw SerialPortError(device: device, operation: "setting \(baud) baud", code: EINVAL)
        }
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw SerialPortError(device: device, operation: "open", code: errno) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var settings = termios()
        var marks = false
        if isatty(fd) == 1 {
            guard tcgetattr(fd, &settings) == 0 else {
                let code = errno
                close(fd)
                throw SerialPortError(device: device, operation: "tcgetattr", code: code)
            }
            cfmakeraw(&settings)
            settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
            settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
            // Breaks and bytes with framing or parity errors are marked (`\377 \0 X`, a real
            // `\377` doubled) so that the console can tell line noise from data.
            settings.c_iflag &= ~(tcflag_t(IGNBRK) | tcflag_t(BRKINT) | tcflag_t(IGNPAR) | tcflag_t(ISTRIP))
            settings.c_iflag |= tcflag_t(PARMRK) | tcflag_t(INPCK)
            marks = true
            let speed = Self.speed(baud)
            cfsetispeed(&settings, speed)
            cfsetospeed(&settings, speed)
            withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
                let code = errno
                close(fd)
                throw SerialPortError(device: device, operation: "tcsetattr", code: code)
            }
            tcflush(fd, TCIFLUSH)
        }
        self.device = device
        self.fd = fd
        self.marksLineErrors = marks
    }

    deinit { close(fd) }

    /// The speeds termios offers that a console may use.
    static let speeds: [Int: speed_t] = [
        1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
        19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600), 115_200: speed_t(B115200),
        230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600),
    ]

    private static func speed(_ baud: Int) -> speed_t { speeds[baud] ?? speed_t(B115200) }
}

/// A terminal on standard input switched to raw mode for the menu (no echo, no line
/// buffering, Ctrl-C as a key); `restore()` puts the saved settings back.
public final class RawTerminal: @unchecked Sendable {
    private let fd: Int32
    private var saved: termios
    private var restored = false

    /// Switches `fd` to raw input; output keeps its newline translation.
    public init(fd: Int32) throws {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            throw SerialPortError(device: "standard input", operation: "tcgetattr", code: errno)
        }
        self.fd = fd
        saved = settings
        settings.c_lflag &= ~(tcflag_t(ECHO) | tcflag_t(ICANON) | tcflag_t(ISIG) | tcflag_t(IEXTEN))
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(ICRNL) | tcflag_t(INLCR) | tcflag_t(ISTRIP))
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            throw SerialPortError(device: "standard input", operation: "tcsetattr", code: errno)
        }
    }

    /// Puts the terminal back as it was (idempotent).
    public func restore() {
        guard !restored else { return }
        restored = true
        tcsetattr(fd, TCSANOW, &saved)
    }

    deinit { restore() }
}
