// Looking a GPIO line up by name without requesting it: its chip and who holds it (for `pinhole doctor`).

import CGpiod
import PinholeCore
import SystemPackage

/// Where a named line is and who holds it.
public struct GPIOLineInfo: Sendable, Equatable {
    /// The chip's device, e.g. /dev/gpiochip0.
    public var chipPath: FilePath
    /// The chip's label, e.g. pinctrl-rp1.
    public var chipLabel: String
    /// The consumer holding the line, or nil when it is free.
    public var consumer: String?
    /// Whether the line is requested (a consumer may be unnamed).
    public var used: Bool

    /// Finds the line called `name` on the chips under `directory` (libgpiod line info);
    /// throws `GPIOError.lineNotFound` or the chip's open failure.
    public static func find(_ name: String, in directory: FilePath = "/dev") throws -> GPIOLineInfo {
        let location = try GPIOChip.locate(name, in: GPIOChip.devicePaths(in: directory.string))
        let consumer = location.chip.consumer(at: location.offset)
        var used = consumer != nil
        if !used, let info = gpiod_chip_get_line_info(location.chip.handle, location.offset) {
            used = gpiod_line_info_is_used(info)
            gpiod_line_info_free(info)
        }
        return GPIOLineInfo(
            chipPath: FilePath(location.chip.path), chipLabel: location.chip.label, consumer: consumer,
            used: used)
    }
}
