// Settings that survive a restart: saved on each change to a real file, restored at the next start.

import Foundation
import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeImaging
import XCTest
import SystemPackage

final class SettingsPersistenceTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "pinhole-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var file: SettingsFile { SettingsFile(path: FilePath(directory + "/camera-settings.toml")) }

    func testEverySettingRoundTripsThroughARestart() throws {
        let first = try CaptureTestRig(settingsFile: file)
        try first.engine.setExposure(.manual(time: .microseconds(4000), gain: 2))
        try first.engine.setEV(-1)
        try first.engine.setMetering(.spot)
        try first.engine.setWhiteBalance(.daylight)
        try first.engine.setFlashMode(.auto)
        try first.engine.focus.setRange(.macro)
        try first.engine.focus.setSpeed(.fast)
        try first.engine.focus.setLens(3)
        first.appliance.shutdown()

        let second = try CaptureTestRig(settingsFile: file)
        XCTAssertEqual(second.engine.exposure.mode, .manual(time: .microseconds(4000), gain: 2))
        XCTAssertEqual(second.engine.exposure.ev, -1)
        XCTAssertEqual(second.engine.exposure.metering, .spot)
        XCTAssertEqual(second.engine.exposure.whiteBalance, .daylight)
        XCTAssertEqual(second.engine.flash.mode, .auto)
        XCTAssertEqual(second.engine.focus.mode, .manual)
        XCTAssertEqual(second.engine.focus.range, .macro)
        XCTAssertEqual(second.engine.focus.speed, .fast)
        second.loop.advance(by: .milliseconds(500))
        let photo = try second.capture()
        XCTAssertEqual(photo.exposureTime, .microseconds(4000), "the camera runs with the restored exposure")
        XCTAssertEqual(try XCTUnwrap(photo.lensPosition), 3, accuracy: 0.02)
        XCTAssertTrue(second.appliance.problems.isEmpty, "\(second.appliance.problems)")
    }

    func testFlashIsKeptPerCamera() throws {
        let rig = try CaptureTestRig(settingsFile: file)
        try rig.engine.setFlashMode(.on)
        try rig.appliance.switchCamera()
        XCTAssertEqual(rig.engine.flash.mode, .off, "the front camera has no flash")
        try rig.appliance.switchCamera()
        XCTAssertEqual(rig.engine.flash.mode, .on, "the back camera's own setting")
    }

    func testAValueTheCameraCannotDoIsReportedAndTheDefaultUsed() throws {
        var saved = SavedSettings()
        saved.exposure.mode = .manual(time: .microseconds(4000), gain: 50)  // the sensor stops at 16
        saved.exposure.ev = 12  // the camera reports -8…8
        var front = SavedSettings.PerCamera()
        front.stillSize = PixelSize(width: 9999, height: 9999)
        saved.cameras[CaptureTestRig.small(.back).id] = front
        try file.save(saved)
        let rig = try CaptureTestRig(settingsFile: file)
        XCTAssertEqual(rig.engine.exposure.mode, .auto)
        XCTAssertEqual(rig.engine.exposure.ev, 0)
        let problems = rig.appliance.problems.joined(separator: "\n")
        XCTAssertTrue(problems.contains("gain 50.0 is beyond imx477: using auto exposure"), problems)
        XCTAssertTrue(problems.contains("EV 12.0"), problems)
        XCTAssertTrue(problems.contains("still size 9999x9999"), problems)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertNoThrow(try rig.capture())
    }

    func testABrokenSettingsFileIsReportedWithItsLineAndTheDefaultsUsed() throws {
        try "[exposure]\nmode = \"manual\"\ngain = \"lots\"\n".write(
            toFile: file.path.string, atomically: true, encoding: .utf8)
        let rig = try CaptureTestRig(settingsFile: file)
        XCTAssertEqual(rig.engine.exposure.mode, .auto)
        let problem = try XCTUnwrap(rig.appliance.problems.first)
        XCTAssertTrue(problem.contains("camera-settings.toml:3: [exposure] gain must be a number"), problem)
    }

    func testTheFileIsReplacedWholeAndReadsBack() throws {
        var settings = SavedSettings()
        settings.album = "Trip \"north\"\n"
        settings.exposure.ev = 0.5
        var camera = SavedSettings.PerCamera()
        camera.stillSize = PixelSize(width: 2028, height: 1520)
        camera.lens = 1.5
        camera.flash = .auto
        settings.cameras["/base/soc/i2c0mux/i2c@1/imx477@1a"] = camera
        try file.save(settings)
        XCTAssertEqual(try file.load(), settings)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory), ["camera-settings.toml"],
            "no temporary file is left beside it")
        XCTAssertNil(try SettingsFile(path: FilePath(directory + "/missing.toml")).load())
        XCTAssertEqual(
            SettingsFile.beside(configuration: "/etc/pinhole/pinhole.toml").path,
            "/etc/pinhole/camera-settings.toml")
    }

    /// Every failed load and save closes what it opened and names the file and the reason.
    func testFailedLoadsAndSavesCloseTheirDescriptorsAndNameTheFile() throws {
        let directory: String = try XCTUnwrap(self.directory)
        let descriptorsBefore = FileSystem.list("/proc/self/fd").count
        func reason(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "no error"
            } catch { return "\(error)" }
        }
        // Opened, then the read fails (a directory).
        XCTAssertEqual(
            reason { _ = try SettingsFile(path: FilePath(directory)).load() },
            "\(directory):0: cannot read: Is a directory")
        // Opened, then refused while reading: too large to be a settings file.
        let huge = directory + "/huge.toml"
        try String(repeating: "# padding\n", count: 120_000).write(
            toFile: huge, atomically: false, encoding: .utf8)
        XCTAssertEqual(
            reason { _ = try SettingsFile(path: FilePath(huge)).load() },
            "\(huge):0: larger than 1 MB: not a settings file")
        // No directory to write in.
        let nowhere = directory + "/missing/camera-settings.toml"
        XCTAssertEqual(
            reason { try SettingsFile(path: FilePath(nowhere)).save(SavedSettings()) },
            "\(nowhere):0: cannot create a file next to it: No such file or directory")
        // Written and flushed, then the rename fails (a non-empty directory has the name).
        let occupied = directory + "/occupied"
        try FileManager.default.createDirectory(
            atPath: occupied + "/inside", withIntermediateDirectories: true)
        XCTAssertTrue(
            reason { try SettingsFile(path: FilePath(occupied)).save(SavedSettings()) }.hasPrefix(
                "\(occupied):0: cannot replace"))
        XCTAssertEqual(
            FileSystem.list("/proc/self/fd").count, descriptorsBefore, "a descriptor was left open")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted(),
            ["huge.toml", "occupied"],
            "the failed write's temporary file is removed")
    }
}
