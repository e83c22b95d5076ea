// The menu model on its own: keys in, effects and screens out, no terminal involved.

import PinholeConsole
import XCTest

final class ConsoleMenuTests: XCTestCase {
    private func keys(_ menu: inout ConsoleMenu, _ keys: TerminalKey...) -> [MenuEffect] {
        keys.flatMap { menu.handle(.key($0)) }
    }

    func testDigitsAndEnterOpenPagesAndRunCommands() {
        var menu = ConsoleMenu()
        XCTAssertEqual(keys(&menu, .character("1")), [])
        XCTAssertEqual(menu.page, .capture)
        XCTAssertEqual(keys(&menu, .enter), [.run("capture")], "Enter on the first item: the shutter")
        XCTAssertEqual(menu.waiting, ["capture"])
        XCTAssertEqual(menu.handle(.answer(command: "capture", text: "ok saved abc /x.jpg")), [])
        XCTAssertEqual(menu.message, "ok saved abc /x.jpg")
        XCTAssertEqual(menu.waiting, [])
        XCTAssertEqual(keys(&menu, .escape), [])
        XCTAssertEqual(menu.page, .main)
        XCTAssertEqual(keys(&menu, .escape), [.bell], "nothing above the main menu")
    }

    func testPromptBuildsTheCommandFromTheAnswerAndCancelRunsNothing() {
        var menu = ConsoleMenu()
        _ = keys(&menu, .character("1"), .character("3"))
        XCTAssertEqual(menu.prompt?.label, "Burst: how many photos (2-20)")
        XCTAssertEqual(keys(&menu, .backspace, .character("5"), .enter), [.run("capture --burst 5")])
        _ = keys(&menu, .character("2"))
        XCTAssertNotNil(menu.prompt)
        XCTAssertEqual(keys(&menu, .interrupt), [])
        XCTAssertNil(menu.prompt)
        XCTAssertEqual(menu.message, "cancelled")
    }

    func testErrorsAreMarkedAndShownOnTheMessageLine() {
        var menu = ConsoleMenu()
        _ = keys(&menu, .character("2"), .end, .enter)  // Camera > Torch
        XCTAssertEqual(menu.waiting, ["torch on"])
        _ = menu.handle(.answer(command: "torch on", text: "error 70: camera imx219 has no torch"))
        XCTAssertTrue(menu.messageIsError)
        XCTAssertEqual(menu.screen().line(22), "error 70: camera imx219 has no torch")
    }

    private func type(_ menu: inout ConsoleMenu, _ text: String) -> [MenuEffect] {
        text.flatMap { menu.handle(.key($0 == "\r" ? .enter : .character($0))) }
    }

    func testShutdownAndPowerOffNeedTheirWordTyped() {
        var menu = ConsoleMenu()
        _ = keys(&menu, .character("5"))  // System
        XCTAssertEqual(menu.page, .system)
        XCTAssertEqual(keys(&menu, .end, .up, .enter), [])
        XCTAssertEqual(menu.pendingConfirmation, "Shut Pinhole down now?")
        XCTAssertEqual(menu.screen().line(22), "Shut Pinhole down now? (Esc cancels)")
        XCTAssertEqual(menu.screen().line(23), "Type shutdown to confirm:")
        // One key is not enough: `y` and Enter cancel.
        XCTAssertEqual(type(&menu, "y\r"), [])
        XCTAssertNil(menu.pendingConfirmation)
        XCTAssertTrue(menu.message.hasPrefix("cancelled: nothing was done"), menu.message)
        // A wrong word cancels too; Esc cancels.
        XCTAssertEqual(keys(&menu, .enter) + type(&menu, "shut\r"), [])
        XCTAssertEqual(keys(&menu, .enter, .escape), [])
        XCTAssertNil(menu.pendingConfirmation)
        XCTAssertEqual(keys(&menu, .enter) + type(&menu, "Shutdown\r"), [.run("shutdown")])
        XCTAssertEqual(keys(&menu, .down, .enter) + type(&menu, "shutdown\r"), [])
        XCTAssertEqual(keys(&menu, .enter) + type(&menu, "poweroff\r"), [.run("shutdown --poweroff")])
    }

    func testScreenIs80By24WithTitleStatusItemsAndHelp() {
        let menu = ConsoleMenu()
        let screen = menu.screen()
        XCTAssertEqual(screen.width, 80)
        XCTAssertEqual(screen.height, 24)
        XCTAssertTrue(screen.line(0).hasPrefix(" Pinhole  Main menu"), screen.line(0))
        XCTAssertEqual(screen.line(1), "status: waiting for the appliance…")
        XCTAssertTrue(screen.line(3).hasPrefix(" 1  Capture"), screen.line(3))
        XCTAssertTrue(screen[3, 0].style.reverse, "the first item is selected")
        XCTAssertFalse(screen[4, 0].style.reverse)
        XCTAssertTrue(screen.line(23).hasPrefix("Up/Down move"))
        for row in 0..<24 { XCTAssertLessThanOrEqual(screen.line(row).count, 80) }
    }

    func testOnlyASCIIDigitsChooseItems() {
        var menu = ConsoleMenu()
        XCTAssertEqual(keys(&menu, .character("٣"), .character("³"), .character("８")), [.bell, .bell, .bell])
        XCTAssertEqual(menu.page, .main)
    }

    func testSelectionSkipsInformationRowsAndWrapsNowhere() {
        var menu = ConsoleMenu()
        _ = keys(&menu, .character("5"))  // System: four information rows first
        XCTAssertEqual(menu.selection, 4)
        _ = keys(&menu, .up, .up)
        XCTAssertEqual(menu.selection, 4)
        _ = keys(&menu, .down, .down, .down, .down, .down)
        XCTAssertEqual(menu.selection, 8)
    }
}
