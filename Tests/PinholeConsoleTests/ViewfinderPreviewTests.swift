// The live preview: half blocks and shades from synthetic images, aspect ratio, mount
// rotation, and the Viewfinder page drawing frames from the simulated camera.

import PinholeConsole
import PinholeCore
import XCTest

final class ViewfinderPreviewTests: XCTestCase {
    /// A YUV image whose luma is `value(x, y)`.
    private func image(width: Int, height: Int, _ value: (Int, Int) -> UInt8) -> RawImage {
        RawImage.yuv420(width: width, height: height) { plane, w, h, buffer in
            for y in 0..<h {
                for x in 0..<w { buffer[y * w + x] = plane == 0 ? value(x, y) : 128 }
            }
        }
    }

    private func text(_ cells: [[ScreenCell]]) -> [String] { cells.map { String($0.map(\.character)) } }

    func testHalfBlocksShowTopBottomAndBothAndKeepTheAspectRatio() {
        // 32 pixel rows of 15 lines each: stripes 15 lines high alternate within each cell.
        let picture = image(width: 640, height: 480) { x, y in
            if x < 160 { return 0 }  // left quarter black
            if x < 320 { return 255 }  // next quarter white
            if x < 480 { return y % 30 < 15 ? 255 : 0 }  // white over black in every cell
            return y % 30 < 15 ? 0 : 255  // black over white
        }
        let cells = ViewfinderPreview.cells(from: picture, columns: 80, rows: 16)
        XCTAssertEqual(cells.count, 16, "limited by rows")
        XCTAssertEqual(cells.first?.count, 43, "4:3 in cells twice as tall as wide")
        let rows = text(cells)
        XCTAssertTrue(rows.allSatisfy { $0.hasPrefix("          ") }, "black stays blank")
        XCTAssertTrue(rows.allSatisfy { Array($0)[15] == "█" }, "white is a full block")
        XCTAssertTrue(rows.allSatisfy { Array($0)[28] == "▀" }, "white over black: \(rows)")
        XCTAssertTrue(rows.allSatisfy { Array($0)[40] == "▄" }, "black over white: \(rows)")
    }

    func testMidGreyIsDitheredAndASCIIShadesFollowBrightness() {
        let grey = ViewfinderPreview.cells(
            from: image(width: 64, height: 48) { _, _ in 128 }, columns: 16, rows: 6)
        let characters = text(grey).joined()
        XCTAssertTrue(characters.contains("▀") || characters.contains("▄"), characters)
        XCTAssertFalse(characters.allSatisfy { $0 == "█" } || characters.allSatisfy { $0 == " " })
        let ramp = ViewfinderPreview.cells(
            from: image(width: 100, height: 10) { x, _ in UInt8(x * 255 / 99) },
            columns: 10, rows: 1, unicode: false)
        XCTAssertEqual(text(ramp), [" .:-=+*#%@"])
    }

    func testMountRotationTurnsThePictureUpright() {
        // Bright on the sensor's top edge; a camera mounted 90° clockwise shows it on the right.
        let picture = image(width: 40, height: 40) { _, y in y < 20 ? 255 : 0 }
        let upright = text(ViewfinderPreview.cells(from: picture, columns: 20, rows: 10))
        XCTAssertEqual(upright.first, String(repeating: "█", count: 20))
        XCTAssertEqual(upright.last, String(repeating: " ", count: 20))
        let rotated = text(ViewfinderPreview.cells(from: picture, columns: 20, rows: 10, rotation: 90))
        XCTAssertTrue(
            rotated.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 10)) },
            rotated.joined(separator: "\n"))
        XCTAssertTrue(
            rotated.allSatisfy { $0.hasSuffix(String(repeating: "█", count: 10)) },
            rotated.joined(separator: "\n"))
    }

    func testViewfinderPageShowsFramesAtAFewPerSecondAndStopsWhenLeft() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.type("3")
        XCTAssertTrue(harness.terminal.line(0).contains("Main menu > Viewfinder"), harness.terminal.line(0))
        harness.wait(.seconds(1))
        let picture = (3..<19).map { harness.terminal.line($0) }.joined()
        XCTAssertTrue(picture.contains("█") || picture.contains("▀"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(20).hasPrefix(" 1  Shutter"), harness.terminal.line(20))
        harness.type("\u{1B}")
        XCTAssertTrue(harness.terminal.line(0).hasPrefix(" Pinhole  Main menu "), harness.terminal.line(0))
        let timers = harness.loop.pendingTimerCount
        harness.wait(.seconds(2))
        XCTAssertEqual(harness.loop.pendingTimerCount, timers, "no preview timer keeps running")
        XCTAssertFalse(harness.terminal.text.contains("█"))
    }
}
