// `status` says when the appliance started and how long it has run (a restart after a power cut shows).

import PinholeAppliance
import PinholeCore
import XCTest

final class UptimeStatusTests: XCTestCase {
    func testStatusCarriesTheStartAndTheUptime() throws {
        let rig = try ApplianceRig(specs: [ApplianceRig.smallBack])
        let started = rig.loop.wallNow
        rig.loop.advance(by: .seconds(2 * 86_400 + 3 * 3600 + 59))
        let status = rig.appliance.status()
        XCTAssertEqual(status.startedAt, started.iso8601)
        XCTAssertEqual(status.uptimeSeconds, 2 * 86_400 + 3 * 3600 + 59)
        XCTAssertTrue(status.fieldSummary.contains("up 2 d 3 h"), status.fieldSummary)
    }

    func testUptimeIsWrittenInItsLargestUnits() {
        XCTAssertEqual(ApplianceStatus.uptime(0), "0 s")
        XCTAssertEqual(ApplianceStatus.uptime(59), "59 s")
        XCTAssertEqual(ApplianceStatus.uptime(60), "1 min")
        XCTAssertEqual(ApplianceStatus.uptime(3 * 3600 + 7 * 60 + 5), "3 h 7 min")
        XCTAssertEqual(ApplianceStatus.uptime(31 * 86_400 + 4 * 3600 + 59 * 60), "31 d 4 h")
    }
}
