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

    /// Opens `device` raw at `baud`, 8 data bits, no parity, 1 stop bit, no flow control.
    public init(device: String, baud: Int = 115_200) throws {
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw SerialPortError(device: device, operation: "open", code: errno) }
        var settings = termios()
        if isatty(fd) == 1 {
            guard tcgetattr(fd, &settings) == 0 else {
                let code = errno
                close(fd)
                throw SerialPortError(device: device, operation: "tcgetattr", code: code)
            }
            cfmakeraw(&settings)
            settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
            settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
            settings.c_iflag |= tcflag_t(IGNBRK)  // breaks and framing errors must not wedge the console
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
        }
        self.device = device
        self.fd = fd
    }

    deinit { close(fd) }

    private static func speed(_ baud: Int) -> speed_t {
        switch baud {
        case 9600: return speed_t(B9600)
        case 19_200: return speed_t(B19200)
        case 38_400: return speed_t(B38400)
        case 57_600: return speed_t(B57600)
        case 230_400: return speed_t(B230400)
        case 460_800: return speed_t(B460800)
        case 921_600: return speed_t(B921600)
        default: return speed_t(B115200)
        }
    }
}
