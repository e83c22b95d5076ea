// The commands' menu entries: each page shows its items in the order (and so under the numbers) people learned.

import XCTest

@testable import PinholeConsole

final class MenuEntryTests: XCTestCase {
    func testPagesListTheCommandsItemsInTheirLearnedOrder() {
        let menu = ConsoleMenu()
        XCTAssertEqual(
            menu.items(for: .camera).map(\.label),
            [
                "Switch camera", "Select camera", "AF mode", "AF point", "Lens position", "Exposure",
                "EV compensation", "Metering", "White balance", "Flash", "AE point", "Zoom", "Still size",
                "Torch",
            ])
        XCTAssertEqual(
            menu.items(for: .capture).map(\.label),
            [
                "Shutter", "Self-timer", "Burst", "Timelapse", "Stop timelapse", "Record", "Stop recording",
                "Mode",
            ])
        XCTAssertEqual(
            menu.items(for: .system).filter { $0.action != nil }.map(\.label),
            ["Board and GPIO diagnostics", "Logs", "Check the library", "Safe shutdown", "Power off"])
        XCTAssertEqual(menu.items(for: .viewfinder).map(\.label), ["Shutter"])
    }

    func testEachPositionOnAPageBelongsToOneEntry() {
        for (page, entries) in CommandCatalog.menuEntries {
            let positions = entries.map(\.position)
            XCTAssertEqual(Set(positions).count, positions.count, "two entries share a position on \(page)")
        }
    }

    func testLockUnlockLineModeAndQuitComeFromTheirCommandsWhenTheyApply() {
        var menu = ConsoleMenu()
        let before = menu.items(for: .main).map(\.label)
        XCTAssertFalse(
            before.contains("Lock") || before.contains("Unlock") || before.contains("Quit"), "\(before)")
        menu.snapshot.access = AccessSummary(pinConfigured: true, unlocked: false, lockedOutSeconds: 0)
        menu.snapshot.canQuit = true
        menu.snapshot.canSwitchToLineMode = true
        XCTAssertEqual(Array(menu.items(for: .main).map(\.label).suffix(3)), ["Unlock", "Line mode", "Quit"])
        menu.snapshot.access.unlocked = true
        XCTAssertEqual(Array(menu.items(for: .main).map(\.label).suffix(3)), ["Lock", "Line mode", "Quit"])
    }
}
