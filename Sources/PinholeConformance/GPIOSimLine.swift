// Drives and reads gpio-sim lines through sysfs, for the conformance check in the VM.

import PinholeCore
import PinholeLinux

#if canImport(Glibc)
    import Glibc
#endif

/// One line of a gpio-sim chip, reached through
/// `/sys/bus/gpio/devices/gpiochipN/sim_gpioOFFSET/{pull,value}`.
struct GPIOSimLine {
    let name: String
    let directory: String

    /// Finds the gpio-sim attributes of the line called `name`.
    init(name: String, gpio: LinuxGPIO) throws {
        let location = try gpio.location(of: name)
        let chipName = location.chip.split(separator: "/").last.map(String.init) ?? ""
        let directory = "/sys/bus/gpio/devices/\(chipName)/sim_gpio\(location.offset)"
        guard access(directory + "/pull", W_OK) == 0 else {
            throw GPIOError.system(
                operation: "find gpio-sim's \(directory)/pull (is this chip a gpio-sim?)",
                line: name, errno: errno)
        }
        self.name = name
        self.directory = directory
    }

    /// Sets the simulated external level: high (pull-up) or low (pull-down).
    func drive(high: Bool) throws {
        try write(high ? "pull-up" : "pull-down", to: directory + "/pull")
    }

    /// The physical level a consumer drives (for outputs) or the line has.
    func level() throws -> Bool {
        let fd = open(directory + "/value", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw GPIOError.system(operation: "open \(directory)/value", line: name, errno: errno)
        }
        defer { close(fd) }
        var byte: UInt8 = 0
        guard Glibc.read(fd, &byte, 1) == 1 else {
            throw GPIOError.system(operation: "read \(directory)/value", line: name, errno: errno)
        }
        return byte == UInt8(ascii: "1")
    }

    private func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw GPIOError.system(operation: "open \(path)", line: name, errno: errno) }
        defer { close(fd) }
        let written = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        guard written == text.utf8.count else {
            throw GPIOError.system(operation: "write \(path)", line: name, errno: errno)
        }
    }
}
