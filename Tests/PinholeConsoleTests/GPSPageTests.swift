// The GPS page of the menu: fix, satellites, DOP, position, gpsd state and why there is no fix.

import Foundation
import PinholeAppliance
import PinholeConsole
import XCTest

final class GPSPageTests: XCTestCase {
    /// A status as `status --json` gives it, with `gps` fields merged in.
    private func status(_ gps: String) throws -> ApplianceStatus {
        let json = """
            {"board":"sim","cameras":1,"torch":false,"flash":"off","afMode":"auto","afState":"idle",
             "busy":false,"frames":10,"problems":[],"clock":"synchronized (kernel)",
             "startedAt":"2026-11-01T08:00:00.000+01:00","uptimeSeconds":90000\(gps)}
            """
        return try JSONDecoder().decode(ApplianceStatus.self, from: Data(json.utf8))
    }

    private func page(_ status: ApplianceStatus) -> (ConsoleMenu, [MenuItem]) {
        var menu = ConsoleMenu()
        var snapshot = MenuSnapshot()
        snapshot.status = status
        _ = menu.handle(.snapshot(snapshot))
        _ = menu.handle(.key(.character("6")))
        return (menu, menu.items(for: .gps))
    }

    private func value(_ items: [MenuItem], _ label: String) -> String? {
        items.first { $0.label == label }?.value
    }

    func testTheMainMenuOpensItAndAFixIsShownInFull() throws {
        let fix = """
            ,"gps":"3D fix 46.5201,6.6334, 9 satellites","gpsd":"127.0.0.1:2947","gpsState":"fix","gpsSatellites":9,
            "gpsFix":{"latitude":46.5201,"longitude":-6.6334,"altitude":495.25,"mode":3,"satellites":9,"dop":1.43,
            "time":"2026-11-23T10:00:00.000+00:00","speed":2.54,"track":271.2}
            """
        let (menu, items) = page(try status(fix))
        XCTAssertEqual(menu.page, .gps)
        XCTAssertTrue(menu.screen().line(0).contains("Main menu > GPS and clock"), menu.screen().line(0))
        XCTAssertEqual(value(items, "gpsd"), "127.0.0.1:2947: fix")
        XCTAssertEqual(value(items, "Fix"), "3D fix 46.5201,6.6334, 9 satellites")
        XCTAssertEqual(value(items, "Position"), "46.5201° N 6.6334° W")
        XCTAssertEqual(value(items, "Altitude"), "495.3 m")
        XCTAssertEqual(value(items, "Mode"), "3D")
        XCTAssertEqual(value(items, "Satellites used"), "9")
        XCTAssertEqual(value(items, "DOP"), "1.4")
        XCTAssertEqual(value(items, "GPS time"), "2026-11-23T10:00:00.000+00:00")
        XCTAssertEqual(value(items, "Speed"), "2.5 m/s, course 271°")
        XCTAssertEqual(value(items, "Clock"), "synchronized (kernel)")
        let near = try XCTUnwrap(items.first { $0.label == "Photos taken near here" })
        XCTAssertEqual(
            near.action, .run(LibraryWordsCommand(["list", "--near", "46.5201,-6.6334", "--within", "1"])))
        XCTAssertTrue(near.needsPIN)
        XCTAssertTrue(menu.screen().text.contains("Satellites used"), menu.screen().text)
    }

    func testWithoutAFixThePageSaysWhyAndThatPhotosHaveNoLocation() throws {
        let lost = """
            ,"gps":"no fix: gpsd at 127.0.0.1:2947 refused the connection; retrying in 4 s",
            "gpsd":"127.0.0.1:2947","gpsState":"disconnected"
            """
        let (_, items) = page(try status(lost))
        XCTAssertEqual(value(items, "gpsd"), "127.0.0.1:2947: disconnected")
        XCTAssertEqual(
            value(items, "Fix"), "no fix: gpsd at 127.0.0.1:2947 refused the connection; retrying in 4 s")
        XCTAssertEqual(value(items, "Satellites used"), "-")
        XCTAssertEqual(value(items, "Photos now"), "taken without location")
        XCTAssertNil(items.first { $0.label == "Position" })
        XCTAssertNil(items.first { $0.label == "Photos taken near here" })
        XCTAssertEqual(
            items.compactMap(\.action),
            [
                .run(LibraryWordsCommand(["count", "--with-location"])),
                .run(LibraryWordsCommand(["count", "--without-location"])),
            ])
    }

    func testWithGPSOffThePageSaysHowToTurnItOn() throws {
        let (_, items) = page(try status(""))
        XCTAssertEqual(value(items, "GPS"), "off")
        XCTAssertTrue(items.contains { $0.label.contains("[gps] gpsd = ") })
        XCTAssertEqual(value(items, "Clock"), "synchronized (kernel)")
        XCTAssertEqual(value(items, "Running since"), "2026-11-01T08:00:00.000+01:00 (1 d 1 h)")
        XCTAssertTrue(items.allSatisfy { $0.action == nil })
    }
}
