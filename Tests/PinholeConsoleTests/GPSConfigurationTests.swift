// The [gps] table of the configuration file: gpsd's address, set_clock, and errors with file:line.

import PinholeConfiguration
import XCTest

final class GPSConfigurationTests: XCTestCase {
    func testGPSConfiguration() throws {
        let parsed = try Configuration.parse(
            "[gps]\ngpsd = \"127.0.0.1:2948\"\nset_clock = true\n", file: "p.toml")
        XCTAssertEqual(parsed.gps.host, "127.0.0.1")
        XCTAssertEqual(parsed.gps.port, 2948)
        XCTAssertTrue(parsed.gps.setClock)
        XCTAssertNil(try Configuration.parse("", file: "p.toml").gps.host, "off by default")
        XCTAssertEqual(try Configuration.parse("[gps]\ngpsd = \"[::1]\"\n", file: "p.toml").gps.host, "::1")
        for (text, reason) in [
            ("[gps]\ngpsd = \"localhost:99999\"\n", "p.toml:2: [gps] gpsd is 'localhost:99999'"),
            ("[gps]\ngpsd = \"\"\n", "p.toml:2: [gps] gpsd is ''"),
            ("[gps]\nset_clock = \"yes\"\n", "p.toml:2"), ("[gps]\nspeed = 3\n", "p.toml:2"),
        ] {
            XCTAssertThrowsError(try Configuration.parse(text, file: "p.toml"), text) { error in
                XCTAssertTrue("\(error)".hasPrefix(reason), "\(text): \(error)")
            }
        }
    }
}
