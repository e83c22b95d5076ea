// Opening GPIO character devices with libgpiod v2 and finding lines on them by name.

import CGpiod
import PinholeCore
import PinholeSystem

#if canImport(Glibc)
    import Glibc
#endif

/// An open GPIO chip (`gpiod_chip`), closed when the value goes away.
final class GPIOChip {
    /// The character device, e.g. /dev/gpiochip0.
    let path: String
    let handle: OpaquePointer

    /// Opens `path` (`gpiod_chip_open`).
    init(path: String) throws {
        guard let handle = gpiod_chip_open(path) else {
            throw GPIOError.system(operation: "open \(path)", line: "", errno: currentErrno)
        }
        self.path = path
        self.handle = handle
    }

    deinit { gpiod_chip_close(handle) }

    /// The chip's label, e.g. "pinctrl-bcm2711" (`gpiod_chip_info_get_label`).
    var label: String {
        guard let info = gpiod_chip_get_info(handle) else { return path }
        defer { gpiod_chip_info_free(info) }
        return gpiod_chip_info_get_label(info).map { String(cString: $0) } ?? path
    }

    /// The offset of the line called `name`, or nil (`gpiod_chip_get_line_offset_from_name`).
    func offset(of name: String) -> UInt32? {
        let offset = gpiod_chip_get_line_offset_from_name(handle, name)
        return offset >= 0 ? UInt32(offset) : nil
    }

    /// Who holds the line at `offset`, if anyone (`gpiod_line_info_get_consumer`).
    func consumer(at offset: UInt32) -> String? {
        guard let info = gpiod_chip_get_line_info(handle, offset) else { return nil }
        defer { gpiod_line_info_free(info) }
        guard gpiod_line_info_is_used(info) else { return nil }
        return gpiod_line_info_get_consumer(info).map { String(cString: $0) }
    }

    /// Every GPIO character device under `directory`, in chip-number order
    /// (`gpiod_is_gpiochip_device` filters out anything else named gpiochip*).
    static func devicePaths(in directory: String = "/dev") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [(number: Int, path: String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name.hasPrefix("gpiochip") else { continue }
            let path = "\(directory)/\(name)"
            guard gpiod_is_gpiochip_device(path) else { continue }
            found.append((Int(name.dropFirst("gpiochip".count)) ?? Int.max, path))
        }
        return found.sorted { ($0.number, $0.path) < ($1.number, $1.path) }.map(\.path)
    }
}

/// Where a named line lives.
struct GPIOLineLocation {
    /// The chip that carries the line.
    let chip: GPIOChip
    /// The line's offset on that chip.
    let offset: UInt32
}

extension GPIOChip {
    /// Finds the line called `name` on the first chip (in chip-number order) that has it.
    /// Lines are always found by name: chip and line numbers differ between boards. A chip
    /// that cannot be opened is skipped; if the line is on no other chip, that failure is
    /// what is reported (the line may well be on the chip that could not be opened).
    static func locate(_ name: String, in paths: [String]) throws -> GPIOLineLocation {
        var searched: [String] = []
        var openFailure: GPIOError?
        for path in paths {
            let chip: GPIOChip
            do {
                chip = try GPIOChip(path: path)
            } catch GPIOError.system(let operation, _, let code) {
                openFailure = openFailure ?? .system(operation: operation, line: name, errno: code)
                continue
            }
            searched.append("\(path) (\(chip.label))")
            if let offset = chip.offset(of: name) {
                return GPIOLineLocation(chip: chip, offset: offset)
            }
        }
        if let openFailure { throw openFailure }
        throw GPIOError.lineNotFound(name, searched: searched)
    }
}
