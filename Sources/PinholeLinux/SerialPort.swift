// A serial device opened raw with termios (115200 8N1 by default).

import PinholeCore
import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Errors opening or configuring a serial device.
public struct SerialPortError: Error, CustomStringConvertible {
    /// The device.
    public var device: FilePath
    /// What failed.
    public var operation: String
    /// Why.
    public var errno: Errno

    /// What failed and why.
    public var description: String {
        var advice = ""
        if errno == .noSuchFileOrDirectory {
            advice = ": check the device name (ls /dev/tty*) and the UART overlay"
        }
        if errno == .permissionDenied { advice = ": add the user to the dialout group" }
        if errno == .resourceBusy { advice = ": another program (a getty?) holds the port" }
        return "serial device \(device): \(operation) failed (\(errno))\(advice)"
    }
}

/// An open serial port in raw mode; its descriptor is closed when the port goes away.
public final class SerialPort: @unchecked Sendable {
    /// The device path.
    public let device: FilePath
    /// The descriptor (read and write), owned by the port.
    public let descriptor: FileDescriptor
    /// Whether input carries PARMRK marks for framing/parity errors and breaks (a terminal
    /// device; decode with the console's `MarkedInputDecoder`).
    public let marksLineErrors: Bool

    /// The descriptor's number, for code that reads and writes it directly.
    public var fd: Int32 { descriptor.rawValue }

    /// Opens `device` raw at `baud`, 8 data bits, no parity, 1 stop bit, no flow control.
    /// The open does not wait for carrier (O_NONBLOCK, cleared once open); a pty slave
    /// (/dev/pts/N) is accepted like a UART. Stale input is discarded.
    public init(device: FilePath, baud: Int = 115_200) throws {
        guard let speed = Self.speeds[baud] else {
            throw SerialPortError(device: device, operation: "setting \(baud) baud", errno: .invalidArgument)
        }
        let descriptor: FileDescriptor
        do {
            // O_NOCTTY: a terminal opened here never becomes the process's controlling one.
            descriptor = try FileDescriptor.open(
                device, .readWrite,
                options: [.init(rawValue: O_NOCTTY), .closeOnExec, .nonBlocking])
        } catch {
            throw SerialPortError(device: device, operation: "open", errno: error as? Errno ?? .ioError)
        }
        do {
            marksLineErrors = try Self.configure(descriptor, device: device.string, speed: speed)
        } catch {
            try? descriptor.close()  // never retried: the descriptor is gone either way
            throw error
        }
        self.device = device
        self.descriptor = descriptor
    }

    deinit { try? descriptor.close() }

    /// Clears O_NONBLOCK and, on a terminal, sets raw 8N1 at `speed` with line errors
    /// marked; returns whether they are marked.
    private static func configure(_ descriptor: FileDescriptor, device: String, speed: speed_t) throws -> Bool
    {
        let fd = descriptor.rawValue
        func call(_ operation: String, _ body: () -> Int32) throws -> Int32 {
            do { return try retryingInterrupts(body) } catch {
                throw SerialPortError(device: FilePath(device), operation: operation, errno: error)
            }
        }
        let flags = try call("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        _ = try call("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        guard isatty(fd) == 1 else { return false }
        var settings = termios()
        _ = try call("tcgetattr") { tcgetattr(fd, &settings) }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
        // Breaks and bytes with framing or parity errors are marked (`\377 \0 X`, a real
        // `\377` doubled) so that the console can tell line noise from data.
        settings.c_iflag &= ~(tcflag_t(IGNBRK) | tcflag_t(BRKINT) | tcflag_t(IGNPAR) | tcflag_t(ISTRIP))
        settings.c_iflag |= tcflag_t(PARMRK) | tcflag_t(INPCK)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = try call("tcsetattr") { tcsetattr(fd, TCSANOW, &settings) }
        _ = try? retryingInterrupts { tcflush(fd, TCIFLUSH) }  // stale input: best effort
        return true
    }

    /// The speeds termios offers that a console may use.
    static let speeds: [Int: speed_t] = [
        1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
        19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600), 115_200: speed_t(B115200),
        230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600),
    ]
}

/// A terminal on standard input switched to raw mode for the menu (no echo, no line
/// buffering, Ctrl-C as a key); `restore()` puts the saved settings back.
public final class RawTerminal: @unchecked Sendable {
    private let descriptor: FileDescriptor
    private var saved: termios
    private var restored = false

    /// Switches `fd` (not owned: never closed here) to raw input; output keeps its newline
    /// translation.
    public init(fd: Int32) throws {
        var settings = termios()
        do {
            try retryingInterrupts { tcgetattr(fd, &settings) }
        } catch {
            throw SerialPortError(device: "standard input", operation: "tcgetattr", errno: error)
        }
        self.descriptor = FileDescriptor(rawValue: fd)
        saved = settings
        settings.c_lflag &= ~(tcflag_t(ECHO) | tcflag_t(ICANON) | tcflag_t(ISIG) | tcflag_t(IEXTEN))
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(ICRNL) | tcflag_t(INLCR) | tcflag_t(ISTRIP))
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        do {
            try retryingInterrupts { tcsetattr(fd, TCSANOW, &settings) }
        } catch {
            throw SerialPortError(device: "standard input", operation: "tcsetattr", errno: error)
        }
    }

    /// Puts the terminal back as it was (idempotent; a terminal already gone is left alone).
    public func restore() {
        guard !restored else { return }
        restored = true
        _ = try? retryingInterrupts { tcsetattr(descriptor.rawValue, TCSANOW, &saved) }
    }

    deinit { restore() }
}
