// Drives and reads gpio-sim lines through sysfs, for the conformance check in the VM.

import PinholeCore
import PinholeLinux
import SystemPackage

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
        self.name = name
        self.directory = directory
        do {
            try FileDescriptor.open(FilePath(directory + "/pull"), .writeOnly, options: .closeOnExec).close()
        } catch {
            throw GPIOError.system(
                operation: "find gpio-sim's \(directory)/pull (is this chip a gpio-sim?)",
                line: name, errno: error as? Errno ?? .ioError)
        }
    }

    /// Sets the simulated external level: high (pull-up) or low (pull-down).
    func drive(high: Bool) throws {
        let path = directory + "/pull"
        try system("write \(path)") {
            let file = try FileDescriptor.open(FilePath(path), .writeOnly, options: .closeOnExec)
            _ = try file.closeAfter { try file.writeAll(Array((high ? "pull-up" : "pull-down").utf8)) }
        }
    }

    /// The physical level a consumer drives (for outputs) or the line has.
    func level() throws -> Bool {
        let path = directory + "/value"
        return try system("read \(path)") {
            let file = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
            var byte: UInt8 = 0
            let count = try file.closeAfter {
                try withUnsafeMutableBytes(of: &byte) { try file.read(into: $0) }
            }
            guard count == 1 else { throw Errno.ioError }
            return byte == UInt8(ascii: "1")
        }
    }

    /// Runs `body`, reporting a failure as a `GPIOError` naming `operation` and this line.
    private func system<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            throw GPIOError.system(operation: operation, line: name, errno: error as? Errno ?? .ioError)
        }
    }
}
