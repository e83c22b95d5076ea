// Trigger inputs on the simulated board: debounce, hold-off, shots per trigger, standby wake, profile errors.

import Foundation
import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeField
import PinholeSim
import XCTest

final class TriggerTests: XCTestCase {
    private func rig() throws -> (ApplianceRig, () -> [CaptureResult]) {
        let rig = try ApplianceRig(specs: [ApplianceRig.smallBack.startingAfter(.milliseconds(180))])
        try rig.appliance.engine.focus.setLens(0.5)
        var saved: [CaptureResult] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { saved.append(capture) } }
        return (rig, { saved })
    }

    private var pirLine: String { "GPIO21" }

    func testATriggerTakesItsShotsTheFirstAtTheEdge() throws {
        let (rig, saved) = try rig()
        let edge = rig.loop.now
        rig.gpio.drive(pirLine, active: true)
        rig.loop.advance(by: .milliseconds(600))
        rig.gpio.drive(pirLine, active: false)
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(saved().count, 2, "shots = 2 on the simulated board")
        XCTAssertEqual(saved()[0].pressedAt, edge)
        XCTAssertEqual(saved()[1].pressedAt, edge + .milliseconds(500))
        XCTAssertTrue(saved()[0].frame.wasExposing(at: edge) || saved()[0].frame.sensorTimestamp >= edge)
        XCTAssertEqual(rig.appliance.triggers?.fired["pir"], 1)
    }

    /// The appliance owns its trigger controller, which reaches it only weakly: a started
    /// appliance that fired a trigger is freed with its last owner, without a shutdown.
    func testTheApplianceAndItsTriggersAreReleasedTogether() throws {
        weak var appliance: Appliance?
        weak var triggers: TriggerController?
        do {
            let (rig, saved) = try rig()
            rig.gpio.drive(pirLine, active: true)
            rig.loop.advance(by: .milliseconds(600))
            XCTAssertEqual(saved().count, 2)
            appliance = rig.appliance
            triggers = rig.appliance.triggers
            XCTAssertNotNil(triggers)
        }
        XCTAssertNil(appliance, "the appliance outlived its last owner: a reference cycle keeps it")
        XCTAssertNil(triggers)
    }

    func testAGlitchShorterThanTheDebounceIsIgnored() throws {
        let (rig, saved) = try rig()
        rig.gpio.drive(pirLine, active: true)
        rig.loop.advance(by: .milliseconds(5))
        rig.gpio.drive(pirLine, active: false)
        rig.loop.advance(by: .seconds(2))
        XCTAssertEqual(saved().count, 0)
        XCTAssertNil(rig.appliance.triggers?.fired["pir"])
    }

    func testNoRetriggerWithinTheHoldOff() throws {
        let (rig, saved) = try rig()
        for _ in 0..<3 {  // three triggers 3 s apart: only the first counts (hold-off 10 s)
            rig.gpio.drive(pirLine, active: true)
            rig.loop.advance(by: .milliseconds(600))
            rig.gpio.drive(pirLine, active: false)
            rig.loop.advance(by: .milliseconds(2400))
        }
        XCTAssertEqual(saved().count, 2)
        XCTAssertEqual(rig.appliance.triggers?.suppressed["pir"], 2)
        rig.loop.advance(by: .seconds(5))
        rig.gpio.drive(pirLine, active: true)
        rig.loop.advance(by: .milliseconds(600))
        rig.gpio.drive(pirLine, active: false)
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(saved().count, 4, "after the hold-off it fires again")
    }

    func testStatusCountsFiringsShotsAndIgnoredEdgesPerTrigger() throws {
        let (rig, saved) = try rig()
        let never = try XCTUnwrap(rig.appliance.status().triggers?.first)
        XCTAssertEqual(never.name, "pir")
        XCTAssertEqual(never.line, pirLine)
        XCTAssertEqual(
            [never.fired, never.shots, never.ignoredHoldOff, never.ignoredDebounce], [0, 0, 0, 0])
        XCTAssertNil(never.lastFired)
        rig.gpio.drive(pirLine, active: true)  // a glitch shorter than the debounce
        rig.loop.advance(by: .milliseconds(5))
        rig.gpio.drive(pirLine, active: false)
        rig.loop.advance(by: .seconds(1))
        let firedAt = rig.loop.wallNow
        for _ in 0..<2 {  // one trigger, then one inside its hold-off
            rig.gpio.drive(pirLine, active: true)
            rig.loop.advance(by: .milliseconds(600))
            rig.gpio.drive(pirLine, active: false)
            rig.loop.advance(by: .milliseconds(2400))
        }
        XCTAssertEqual(saved().count, 2)
        let status = rig.appliance.status()
        let pir = try XCTUnwrap(status.triggers?.first)
        XCTAssertEqual(pir.fired, 1)
        XCTAssertEqual(pir.shots, 2)
        XCTAssertEqual(pir.ignoredHoldOff, 1)
        XCTAssertEqual(pir.ignoredDebounce, 1)
        XCTAssertEqual(pir.lastFired, firedAt.iso8601)
        XCTAssertTrue(
            status.fieldSummary.contains(
                "trigger pir (\(pirLine)): fired 1, 2 shots, ignored 1 in hold-off, 1 in debounce, last \(firedAt.iso8601)"
            ), status.fieldSummary)
        let json = String(decoding: try JSONEncoder().encode(status), as: UTF8.self)
        XCTAssertTrue(json.contains("\"ignoredHoldOff\":1"), json)
    }

    func testATriggerWakesTheCameraFromStandby() throws {
        let (rig, saved) = try rig()
        rig.appliance.standby.after = .seconds(30)
        rig.loop.advance(by: .seconds(31))
        XCTAssertTrue(rig.appliance.engine.isInStandby)
        rig.gpio.drive(pirLine, active: true)
        rig.loop.advance(by: .milliseconds(600))
        rig.gpio.drive(pirLine, active: false)
        rig.loop.advance(by: .seconds(1))
        XCTAssertFalse(rig.appliance.engine.isInStandby)
        XCTAssertEqual(saved().first?.selection, .afterWake)
        XCTAssertNotNil(saved().first?.wakeCost)
        XCTAssertEqual(rig.appliance.standby.lastWakeReason, "trigger pir")
    }

    func testTriggerProfilesAreValidatedWithFileAndLine() throws {
        let base = "[board]\nname = \"t\"\n"
        let cases: [(String, Int, String)] = [
            ("[triggers.pir]\nedge = \"rising\"\n", 3, "missing 'line'"),
            ("[triggers.pir]\nline = \"GPIO21\"\nedge = \"up\"\n", 5, "edge 'up'"),
            ("[triggers.pir]\nline = \"21\"\n", 4, "is a number"),
            ("[triggers.pir]\nline = \"GPIO21\"\nshots = 0\n", 5, "outside 1…20"),
            ("[triggers.pir]\nline = \"GPIO21\"\nholdoff_s = -1\n", 5, "outside"),
            ("[triggers.pir]\nline = \"GPIO21\"\ncolour = 1\n", 5, "colour"),
            ("[buttons.shutter]\nline = \"GPIO21\"\n[triggers.pir]\nline = \"GPIO21\"\n", 0, "already used"),
            ("[triggers]\npir = 3\n", 4, "must be a table"),
        ]
        for (text, line, reason) in cases {
            XCTAssertThrowsError(try BoardProfile.parse(base + text, file: "b.toml", name: "t"), text) {
                error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("b.toml:"), message)
                if line > 0 { XCTAssertTrue(message.hasPrefix("b.toml:\(line):"), message) }
                XCTAssertTrue(message.contains(reason), message)
            }
        }
        let good = try BoardProfile.parse(
            base + "[triggers.door]\nline = \"GPIO20\"\nedge = \"falling\"\nalbum = \"Door\"\nshots = 3\n",
            file: "b.toml", name: "t")
        XCTAssertEqual(good.triggers.first?.bias, .pullUp, "a falling contact defaults to a pull-up")
        XCTAssertEqual(good.triggers.first?.album, "Door")
        XCTAssertTrue(good.lineNames.contains("GPIO20"))
    }
}
