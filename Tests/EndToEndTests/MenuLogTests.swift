// End to end: while the menu owns the terminal, log lines go to its Logs page, not over the screen.

import Foundation
import XCTest

final class MenuLogTests: XCTestCase {
    func testLogLinesStayOffTheMenuScreenAndAppearOnTheLogsPage() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let binary = try PinholeProcess.binary()
        // Standard error is the same terminal as the menu, as with `make run`.
        let pane = try TmuxPane("\(binary.path) run --board sim --library \(library.path)")
        defer { pane.close() }
        try pane.waitFor("Main menu")
        try pane.send("1")  // Capture
        try pane.waitFor("Shutter")
        try pane.send("1")  // Shutter
        try pane.waitFor("ok saved ")
        XCTAssertFalse(
            pane.screen.contains("pinhole: "), "a log line was drawn over the menu:\n\(pane.screen)")
        try pane.send("Escape")
        try pane.waitFor("Main menu")
        try pane.send("5")  // System
        try pane.waitFor("Logs")
        try pane.send("2")  // Logs
        try pane.waitFor(", pressed ")  // "saved ID (SELECTION, pressed …, saved N ms later)": the log line
        XCTAssertFalse(pane.screen.contains("pinhole: "), pane.screen)
    }
}
