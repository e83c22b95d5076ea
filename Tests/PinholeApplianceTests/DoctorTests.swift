// `pinhole doctor` on an injected board: a healthy Pi 5 is all OK; each fault names its remedy.

import PinholeAppliance
import PinholeBoard
import PinholeCore
import XCTest
import SystemPackage

/// A Pi 5 as the doctor sees it, healthy until a test breaks something.
final class FakeDoctorProbe: DoctorProbe {
    var found: [CameraInfo] = [
        FakeDoctorProbe.camera(model: "imx708_wide", id: "/base/axi/pcie@120000/rp1/i2c@88000/imx708@1a")
    ]
    var cameraError: CameraError?
    var lines: [String: DoctorLineState] = [:]
    var label = "pinctrl-rp1"
    var deviceTree = true
    var nodes: Set<String> = ["pinhole_buttons", "pinhole_uart0_pins"]
    var devices: [String: DoctorDevice] = [
        "/dev/ttyAMA0": DoctorDevice(path: "/dev/ttyAMA0", group: "dialout", groupReadWrite: true)
    ]
    var gpioAndCameraNodes = [
        DoctorDevice(path: "/dev/gpiochip0", group: "gpio", groupReadWrite: true),
        DoctorDevice(path: "/dev/media0", group: "video", groupReadWrite: true),
    ]
    var holders: [String: [String]] = [:]
    var consoleOnKernelCommandLine = false
    var users: [String: [String]] = ["pinhole": ["pinhole", "gpio", "video", "dialout"]]
    var library = DoctorDirectory(
        checkedPath: "/var/lib/pinhole/library", exists: true, writable: true, freeBytes: 20 << 30)
    var synchronized: Bool? = true
    var gpsdRelease: String?

    static func camera(model: String, id: String) -> CameraInfo {
        CameraInfo(
            id: id, model: model, position: .back, pixelArraySize: PixelSize(width: 4608, height: 2592),
            stillSizes: [], viewfinderSizes: [], stillFormats: [], controls: [:])
    }

    func cameras() throws -> [CameraInfo] {
        if let cameraError { throw cameraError }
        return found
    }
    func line(named name: String) -> DoctorLineState {
        lines[name] ?? .free(chip: "/dev/gpiochip0 (\(label))")
    }
    func chipLabel(carrying name: String) -> String? { label }
    func hasDeviceTree() -> Bool { deviceTree }
    func deviceTreeHasNode(named name: String) -> Bool { nodes.contains(name) }
    func device(at path: FilePath) -> DoctorDevice? { devices[path.string] }
    func cameraAndGPIODevices() -> [DoctorDevice] { gpioAndCameraNodes }
    func processesHolding(_ path: FilePath) -> [String] { holders[path.string] ?? [] }
    func kernelConsole(on deviceNames: [String]) -> Bool { consoleOnKernelCommandLine }
    func groups(ofUser user: String) -> [String]? { users[user] }
    func directory(_ path: FilePath, user: String) -> DoctorDirectory { library }
    func clockSynchronized() -> Bool? { synchronized }
    struct NoGPSD: Error {}
    func gpsdVersion(host: String, port: Int) throws -> String {
        guard let gpsdRelease else { throw NoGPSD() }
        return gpsdRelease
    }
}

final class DoctorTests: XCTestCase {
    private func pi5() throws -> BoardProfile {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try BoardCatalog().load(
            file: FilePath(root.appendingPathComponent("board/pi5/board.toml").path))
    }

    private func doctor(gpsd: (host: String, port: Int)? = nil) throws -> Doctor {
        let board = try pi5()
        return Doctor(
            board: board, libraryPath: "/var/lib/pinhole/library",
            consoleDevice: board.consoleDevice,
            gpsd: gpsd)
    }

    private func item(_ name: String, _ probe: FakeDoctorProbe) throws -> DoctorItem {
        try XCTUnwrap(try doctor().examine(probe).first { $0.name == name }, "no item \(name)")
    }

    func testAHealthyPi5IsAllOK() throws {
        let items = try doctor().examine(FakeDoctorProbe())
        XCTAssertEqual(
            items.map(\.name),
            ["camera", "gpio lines", "overlay", "uart", "service user", "device access", "library", "clock"])
        for item in items { XCTAssertTrue(item.ok, item.lines.joined(separator: "\n")) }
        XCTAssertEqual(
            items[0].lines,
            [
                "ok camera: libcamera finds imx708_wide (/base/axi/pcie@120000/rp1/i2c@88000/imx708@1a); 1 matching board pi5"
            ])
        XCTAssertEqual(items[6].detail, "/var/lib/pinhole/library is writable, 20.0 GB free")
    }

    func testNoCameraOrTheWrongOneIsAProblemWithARemedy() throws {
        let probe = FakeDoctorProbe()
        probe.found = []
        var camera = try item("camera", probe)
        XCTAssertFalse(camera.ok)
        XCTAssertEqual(camera.detail, "libcamera finds no camera")
        XCTAssertTrue(camera.remedy?.contains("cam -l") ?? false)
        probe.found = [FakeDoctorProbe.camera(model: "ov5647", id: "/base/ov5647@36")]
        camera = try item("camera", probe)
        XCTAssertFalse(camera.ok)
        XCTAssertTrue(camera.detail.contains("expects \"imx708\" or \"imx477\""), camera.detail)
        probe.cameraError = .noCamera(detail: "no media device")
        XCTAssertFalse(try item("camera", probe).ok)
    }

    func testMissingBusyAndForeignChipLinesAreNamed() throws {
        let probe = FakeDoctorProbe()
        probe.lines["GPIO17"] = .missing(searched: [])
        probe.lines["GPIO24"] = .used(chip: "/dev/gpiochip0 (pinctrl-rp1)", consumer: "gpio-keys")
        var lines = try item("gpio lines", probe)
        XCTAssertFalse(lines.ok)
        XCTAssertTrue(lines.detail.hasPrefix("GPIO17 is on no chip (no GPIO chip present); "), lines.detail)
        XCTAssertTrue(
            lines.detail.contains("GPIO24 on /dev/gpiochip0 (pinctrl-rp1) is in use by 'gpio-keys'"))
        XCTAssertTrue(lines.remedy?.contains("gpioinfo") ?? false)
        probe.lines = ["GPIO24": .used(chip: "/dev/gpiochip0 (pinctrl-rp1)", consumer: "pinhole")]
        lines = try item("gpio lines", probe)
        XCTAssertTrue(lines.ok, lines.detail)
        XCTAssertTrue(lines.detail.contains("1 held by pinhole"))
        probe.label = "pinctrl-bcm2711"
        lines = try item("gpio lines", probe)
        XCTAssertFalse(lines.ok)
        XCTAssertTrue(lines.detail.contains("on chip 'pinctrl-bcm2711', the profile expects 'pinctrl-rp1'"))
    }

    func testOverlayNotAppliedOrNoDeviceTree() throws {
        let probe = FakeDoctorProbe()
        probe.nodes = ["pinhole_uart0_pins"]
        var overlay = try item("overlay", probe)
        XCTAssertEqual(overlay.detail, "not applied: pinhole-buttons-pi5")
        XCTAssertTrue(overlay.remedy?.contains("dtoverlay=pinhole-buttons-pi5") ?? false)
        probe.deviceTree = false
        overlay = try item("overlay", probe)
        XCTAssertFalse(overlay.ok)
        XCTAssertTrue(overlay.detail.contains("no device tree"))
    }

    func testTheUARTMustExistAndNoGettyMayHoldIt() throws {
        let probe = FakeDoctorProbe()
        probe.holders["/dev/ttyAMA0"] = ["agetty (pid 612)"]
        var uart = try item("uart", probe)
        XCTAssertFalse(uart.ok)
        XCTAssertEqual(uart.detail, "/dev/ttyAMA0 is held by agetty (pid 612)")
        XCTAssertTrue(uart.remedy?.contains("serial-getty@ttyAMA0") ?? false)
        probe.holders = [:]
        probe.consoleOnKernelCommandLine = true
        XCTAssertFalse(try item("uart", probe).ok)
        probe.consoleOnKernelCommandLine = false
        probe.holders["/dev/ttyAMA0"] = ["pinhole (pid 700)"]
        XCTAssertTrue(try item("uart", probe).ok)
        probe.devices = [:]
        uart = try item("uart", probe)
        XCTAssertEqual(uart.detail, "/dev/ttyAMA0 does not exist")
    }

    func testUserGroupsDeviceAccessLibraryAndClock() throws {
        let probe = FakeDoctorProbe()
        probe.users["pinhole"] = ["pinhole", "video"]
        let user = try item("service user", probe)
        XCTAssertEqual(user.detail, "'pinhole' is not in groups gpio, dialout")
        XCTAssertEqual(
            user.remedy?.hasPrefix("sudo adduser pinhole gpio; sudo adduser pinhole dialout"), true)
        let access = try item("device access", probe)
        XCTAssertFalse(access.ok)
        XCTAssertTrue(access.detail.contains("/dev/gpiochip0 (group gpio)"), access.detail)
        probe.users = [:]
        XCTAssertEqual(try item("service user", probe).detail, "there is no user 'pinhole'")

        probe.library = DoctorDirectory(
            checkedPath: "/var/lib", exists: false, writable: false, freeBytes: 1 << 30)
        let library = try item("library", probe)
        XCTAssertEqual(library.detail, "'pinhole' cannot write /var/lib (to create /var/lib/pinhole/library)")
        probe.library = DoctorDirectory(
            checkedPath: "/var/lib/pinhole/library", exists: true, writable: true, freeBytes: 5 << 20)
        XCTAssertEqual(
            try item("library", probe).detail, "/var/lib/pinhole/library is writable but only 5.0 MB free")

        probe.synchronized = false
        XCTAssertTrue(try item("clock", probe).remedy?.contains("systemd-timesyncd") ?? false)
        probe.synchronized = nil
        XCTAssertFalse(try item("clock", probe).ok)
    }

    func testGPSDIsCheckedOnlyWhenConfigured() throws {
        let probe = FakeDoctorProbe()
        XCTAssertNil(try doctor().examine(probe).first { $0.name == "gpsd" })
        var gps = try XCTUnwrap(
            try doctor(gpsd: ("localhost", 2947)).examine(probe).first { $0.name == "gpsd" })
        XCTAssertFalse(gps.ok)
        probe.gpsdRelease = "3.22"
        gps = try XCTUnwrap(try doctor(gpsd: ("localhost", 2947)).examine(probe).first { $0.name == "gpsd" })
        XCTAssertEqual(gps.lines, ["ok gpsd: gpsd 3.22 answers on localhost:2947"])
    }
}
