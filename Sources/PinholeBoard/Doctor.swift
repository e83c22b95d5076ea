// `pinhole doctor`: checks a board against its profile, each item OK or a problem with its remedy.

import PinholeCore
import SystemPackage

/// One item of the doctor's report.
public struct DoctorItem: Sendable, Equatable {
    /// What was checked, e.g. "camera".
    public var name: String
    /// Whether it is in order.
    public var ok: Bool
    /// What was found.
    public var detail: String
    /// What to do about a problem.
    public var remedy: String?

    /// Creates an item.
    public init(name: String, ok: Bool, detail: String, remedy: String? = nil) {
        self.name = name
        self.ok = ok
        self.detail = detail
        self.remedy = remedy
    }

    /// The report's lines: `ok NAME: detail`, or `problem NAME: detail` and `  fix: remedy`.
    public var lines: [String] {
        if ok { return ["ok \(name): \(detail)"] }
        return ["problem \(name): \(detail)"] + (remedy.map { ["  fix: \($0)"] } ?? [])
    }
}

/// Checks a board against its profile through a `DoctorProbe`.
public struct Doctor {
    /// The profile checked.
    public var board: BoardProfile
    /// The service user (`pinhole`).
    public var user: String
    /// The photo library directory the service uses.
    public var libraryPath: FilePath
    /// The console device (the configuration's, else the profile's), or nil for none.
    public var consoleDevice: FilePath?
    /// gpsd's address when the configuration asks for GPS; nil leaves the item out.
    public var gpsd: (host: String, port: Int)?
    /// Free space below which the library is reported as a problem.
    public var minimumFreeBytes: UInt64 = 100 * 1024 * 1024

    /// Creates a doctor for `board`.
    public init(
        board: BoardProfile, user: String = "pinhole", libraryPath: FilePath, consoleDevice: FilePath?,
        gpsd: (host: String, port: Int)? = nil
    ) {
        self.board = board
        self.user = user
        self.libraryPath = libraryPath
        self.consoleDevice = consoleDevice
        self.gpsd = gpsd
    }

    /// Every item, in a fixed order.
    public func examine(_ probe: any DoctorProbe) -> [DoctorItem] {
        var items = [camera(probe), lines(probe), overlay(probe)]
        if let uart = uart(probe) { items.append(uart) }
        items += [serviceUser(probe), devices(probe), library(probe), clock(probe)]
        if let gps = gps(probe) { items.append(gps) }
        return items
    }

    func camera(_ probe: any DoctorProbe) -> DoctorItem {
        let found: [CameraInfo]
        do { found = try probe.cameras() } catch {
            return DoctorItem(
                name: "camera", ok: false, detail: "libcamera failed: \(error)",
                remedy:
                    "check that libcamera is installed (cam -l lists cameras) and the user may open /dev/media*"
            )
        }
        guard !found.isEmpty else {
            return DoctorItem(
                name: "camera", ok: false, detail: "libcamera finds no camera",
                remedy:
                    "check the ribbon cable and its orientation, camera_auto_detect=1 (or the sensor's dtoverlay)"
                    + " in /boot/firmware/config.txt, then reboot; `cam -l` must list the camera")
        }
        let names = found.map { "\($0.model) (\($0.id))" }.joined(separator: ", ")
        if board.cameras.isEmpty {
            return DoctorItem(name: "camera", ok: true, detail: "libcamera finds \(names)")
        }
        let matched = found.filter { camera in board.cameras.contains { $0.matches(camera) } }
        guard !matched.isEmpty else {
            let expected = board.cameras.map { "\"\($0.match)\"" }.joined(separator: " or ")
            return DoctorItem(
                name: "camera", ok: false,
                detail: "libcamera finds \(names), but board \(board.name) expects \(expected)",
                remedy:
                    "fit the camera the profile names, or add a [[cameras]] entry matching it to the profile")
        }
        return DoctorItem(
            name: "camera", ok: true,
            detail: "libcamera finds \(names); \(matched.count) matching board \(board.name)")
    }

    func lines(_ probe: any DoctorProbe) -> DoctorItem {
        var free: [String] = []
        var ours: [String] = []
        var problems: [String] = []
        var absent: [String] = []
        var searchedChips: [String] = []
        var busy = false
        for name in Self.naturalOrder(board.lineNames) {
            switch probe.line(named: name) {
            case .free: free.append(name)
            case .used(_, let consumer) where consumer == "pinhole": ours.append(name)
            case .used(let chip, let consumer):
                problems.append("\(name) on \(chip) is in use by '\(consumer)'")
                busy = true
            case .missing(let searched):
                absent.append(name)
                searchedChips = searched
            case .inaccessible(let reason):
                problems.append("\(name): \(reason)")
            }
        }
        if !absent.isEmpty {
            problems.insert(
                "\(absent.joined(separator: ", ")) \(absent.count == 1 ? "is" : "are") on no chip"
                    + (searchedChips.isEmpty
                        ? " (no GPIO chip present)" : " (searched \(searchedChips.joined(separator: ", ")))"),
                at: 0)
        }
        var missing = !absent.isEmpty
        let chip = board.lineNames.first.flatMap { probe.chipLabel(carrying: $0) }
        if let expected = board.gpioChip, let chip, chip != expected {
            problems.append("the lines are on chip '\(chip)', the profile expects '\(expected)'")
            missing = true
        }
        if problems.isEmpty {
            let held = ours.isEmpty ? "" : " (\(ours.count) held by pinhole, which is running)"
            return DoctorItem(
                name: "gpio lines", ok: true,
                detail: "all \(board.lineNames.count) lines of board \(board.name) exist and are free\(held)")
        }
        var remedies: [String] = []
        if missing {
            remedies.append(
                "use the profile for this board (--board, or [board] name in /etc/pinhole/pinhole.toml);"
                    + " `gpioinfo` lists the lines by name")
        }
        if busy {
            remedies.append(
                "stop the program holding the line (`gpioinfo` names it) or free it in config.txt")
        }
        if remedies.isEmpty { remedies.append("run as root or as a user in the GPIO chip's group") }
        return DoctorItem(
            name: "gpio lines", ok: false, detail: problems.joined(separator: "; "),
            remedy: remedies.joined(separator: "; "))
    }

    /// The overlays a Raspberry Pi profile needs (its GPIO controller is a `pinctrl-*` chip).
    var overlays: [(file: String, node: String)] {
        guard let chip = board.gpioChip, chip.hasPrefix("pinctrl-") else { return [] }
        let suffix = chip == "pinctrl-rp1" ? "-pi5" : ""
        var needed = [("pinhole-buttons\(suffix)", "pinhole_buttons")]
        if board.consoleDevice != nil { needed.append(("pinhole-uart\(suffix)", "pinhole_uart0_pins")) }
        return needed.map { (file: $0.0, node: $0.1) }
    }

    func overlay(_ probe: any DoctorProbe) -> DoctorItem {
        let needed = overlays
        guard !needed.isEmpty else {
            return DoctorItem(
                name: "overlay", ok: true,
                detail:
                    "board \(board.name) needs no device-tree overlay (its GPIO chip is not a Raspberry Pi's)"
            )
        }
        let names = needed.map(\.file)
        guard probe.hasDeviceTree() else {
            return DoctorItem(
                name: "overlay", ok: false,
                detail:
                    "this machine has no device tree, so \(names.joined(separator: ", ")) cannot be applied",
                remedy:
                    "run on the \(board.description) the profile describes, or pick this machine's profile")
        }
        let absent = needed.filter { !probe.deviceTreeHasNode(named: $0.node) }.map(\.file)
        guard absent.isEmpty else {
            let lines = absent.map { "dtoverlay=\($0)" }.joined(separator: " and ")
            return DoctorItem(
                name: "overlay", ok: false, detail: "not applied: \(absent.joined(separator: ", "))",
                remedy:
                    "sudo cp /usr/share/pinhole/overlays/*.dtbo /boot/firmware/overlays/, add \(lines)"
                    + " to /boot/firmware/config.txt, then reboot")
        }
        return DoctorItem(name: "overlay", ok: true, detail: "applied: \(names.joined(separator: ", "))")
    }

    func uart(_ probe: any DoctorProbe) -> DoctorItem? {
        guard let path = consoleDevice else { return nil }
        guard probe.device(at: path) != nil else {
            return DoctorItem(
                name: "uart", ok: false, detail: "\(path) does not exist",
                remedy: overlays.isEmpty
                    ? "set [console] device in /etc/pinhole/pinhole.toml to the serial port"
                    : "apply the UART overlay (see overlay) and enable_uart=1, then reboot")
        }
        let name = path.lastComponent?.string ?? ""
        let holders = probe.processesHolding(path)
        let gettys = holders.filter { $0.contains("getty") }
        if !gettys.isEmpty || probe.kernelConsole(on: [name, "serial0", "ttyAMA0"].filter { !$0.isEmpty }) {
            let who =
                gettys.isEmpty
                ? "the kernel console (console= in /proc/cmdline)" : gettys.joined(separator: ", ")
            return DoctorItem(
                name: "uart", ok: false, detail: "\(path) is held by \(who)",
                remedy:
                    "sudo systemctl disable --now serial-getty@\(name).service and remove console=serial0,115200"
                    + " from /boot/firmware/cmdline.txt (raspi-config: no login shell over serial), then reboot"
            )
        }
        let others = holders.filter { !$0.hasPrefix("pinhole ") }
        if !others.isEmpty {
            return DoctorItem(
                name: "uart", ok: false, detail: "\(path) is open in \(others.joined(separator: ", "))",
                remedy: "stop that program: the console needs the port to itself")
        }
        return DoctorItem(name: "uart", ok: true, detail: "\(path) exists and no getty holds it")
    }

    /// The groups the service needs: gpio, video and dialout (as in the unit's SupplementaryGroups).
    public static let serviceGroups = ["gpio", "video", "dialout"]

    func serviceUser(_ probe: any DoctorProbe) -> DoctorItem {
        guard let groups = probe.groups(ofUser: user) else {
            return DoctorItem(
                name: "service user", ok: false, detail: "there is no user '\(user)'",
                remedy:
                    "install the pinhole package (its postinst creates the user), or: sudo adduser --system"
                    + " --group \(user) && for g in gpio video dialout; do sudo adduser \(user) $g; done")
        }
        let lacking = Self.serviceGroups.filter { !groups.contains($0) }
        guard lacking.isEmpty else {
            return DoctorItem(
                name: "service user", ok: false,
                detail:
                    "'\(user)' is not in group\(lacking.count > 1 ? "s" : "") \(lacking.joined(separator: ", "))",
                remedy: lacking.map { "sudo adduser \(user) \($0)" }.joined(separator: "; ")
                    + " (groupadd --system gpio first where there is no gpio group)")
        }
        return DoctorItem(
            name: "service user", ok: true,
            detail: "'\(user)' is in groups \(groups.sorted().joined(separator: " "))")
    }

    func devices(_ probe: any DoctorProbe) -> DoctorItem {
        var nodes = probe.cameraAndGPIODevices()
        if let consoleDevice, let console = probe.device(at: consoleDevice) { nodes.append(console) }
        guard !nodes.isEmpty else {
            return DoctorItem(
                name: "device access", ok: false,
                detail: "no /dev/gpiochip*, /dev/media* or /dev/video* nodes",
                remedy: "load the board's GPIO and camera drivers (see gpio lines and camera)")
        }
        let groups = Set(probe.groups(ofUser: user) ?? [])
        let denied = nodes.filter { !$0.groupReadWrite || !groups.contains($0.group) }
        guard denied.isEmpty else {
            return DoctorItem(
                name: "device access", ok: false,
                detail: "'\(user)' cannot use "
                    + denied.map {
                        "\($0.path) (group \($0.group)\($0.groupReadWrite ? "" : ", no group rw"))"
                    }
                    .joined(separator: ", "),
                remedy:
                    "the udev rules (/lib/udev/rules.d/99-pinhole.rules) give these to gpio, video and dialout:"
                    + " sudo udevadm trigger, or reboot; and put '\(user)' in those groups")
        }
        return DoctorItem(
            name: "device access", ok: true,
            detail:
                "'\(user)' may use \(nodes.count) device nodes (\(Set(nodes.map(\.group)).sorted().joined(separator: ", ")))"
        )
    }

    func library(_ probe: any DoctorProbe) -> DoctorItem {
        let state = probe.directory(libraryPath, user: user)
        let free = Self.describe(bytes: state.freeBytes)
        guard state.writable else {
            return DoctorItem(
                name: "library", ok: false,
                detail: "'\(user)' cannot write \(state.checkedPath)"
                    + (state.exists ? "" : " (to create \(libraryPath))"),
                remedy: "sudo install -d -o \(user) -g \(user) -m 0750 \(libraryPath)")
        }
        guard state.freeBytes >= minimumFreeBytes else {
            return DoctorItem(
                name: "library", ok: false, detail: "\(state.checkedPath) is writable but only \(free) free",
                remedy: "free space on that file system or set [library] path to a larger one")
        }
        return DoctorItem(
            name: "library", ok: true,
            detail: "\(libraryPath) \(state.exists ? "is" : "can be created,") writable, \(free) free")
    }

    func clock(_ probe: any DoctorProbe) -> DoctorItem {
        switch probe.clockSynchronized() {
        case true?:
            return DoctorItem(name: "clock", ok: true, detail: "synchronized (the kernel reports TIME_OK)")
        case false?:
            return DoctorItem(
                name: "clock", ok: false,
                detail: "not synchronized: photos will carry a date the board guessed (a Pi has no RTC)",
                remedy:
                    "enable time synchronization (sudo systemctl enable --now systemd-timesyncd) with a network,"
                    + " or a GPS through gpsd, or fit an RTC")
        case nil:
            return DoctorItem(
                name: "clock", ok: false, detail: "the kernel's synchronization state cannot be read",
                remedy: "check `timedatectl`")
        }
    }

    func gps(_ probe: any DoctorProbe) -> DoctorItem? {
        guard let gpsd else { return nil }
        do {
            let release = try probe.gpsdVersion(host: gpsd.host, port: gpsd.port)
            return DoctorItem(
                name: "gpsd", ok: true, detail: "gpsd \(release) answers on \(gpsd.host):\(gpsd.port)")
        } catch {
            return DoctorItem(
                name: "gpsd", ok: false, detail: "no gpsd on \(gpsd.host):\(gpsd.port): \(error)",
                remedy: "sudo apt install gpsd and point it at the receiver (DEVICES in /etc/default/gpsd)")
        }
    }

    /// Names in header order: GPIO5 before GPIO17.
    static func naturalOrder(_ names: [String]) -> [String] {
        names.sorted { a, b in
            let key = { (name: String) in (name.filter { !$0.isNumber }, Int(name.filter(\.isNumber)) ?? 0) }
            return key(a) < key(b)
        }
    }

    static func describe(bytes: UInt64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var index = 0
        while value >= 1024 && index < units.count - 1 {
            value /= 1024
            index += 1
        }
        if index == 0 { return "\(bytes) bytes" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[index])"
    }
}
