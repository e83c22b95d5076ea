// `status` says when the appliance started and how long it has run (a restart after a power cut shows).

import PinholeAppliance
import PinholeCore
import XCTest

final class UptimeStatusTests: XCTestCase {
    func testStatusCarriesTheStartAndTheUptime() throws {
        let rig = try ApplianceRig(start: false, specs: [ApplianceRig.smallBack])
        XCTAssertNil(rig.appliance.status().startedAt, "not started yet")
        let started = rig.loop.wallNow
        try rig.appliance.start()
        rig.appliance.standby.after = .seconds(1)  // no frames to simulate while time passes
        rig.loop.advance(by: .seconds(61))
        let status = rig.appliance.status()
        XCTAssertEqual(status.startedAt, started.iso8601)
        XCTAssertEqual(status.uptimeSeconds, 61)
        XCTAssertTrue(status.fieldSummary.contains("up 1 min"), status.fieldSummary)
    }

    func testUptimeIsWrittenInItsLargestUnits() {
        XCTAssertEqual(ApplianceStatus.uptime(0), "0 s")
        XCTAssertEqual(ApplianceStatus.uptime(59), "59 s")
        XCTAssertEqual(ApplianceStatus.uptime(60), "1 min")
        XCTAssertEqual(ApplianceStatus.uptime(3 * 3600 + 7 * 60 + 5), "3 h 7 min")
        XCTAssertEqual(ApplianceStatus.uptime(31 * 86_400 + 4 * 3600 + 59 * 60), "31 d 4 h")
    }
}
