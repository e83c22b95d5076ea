// Photo lists and details name the camera as a person would ("back (imx477)"), not by its
// libcamera id.

import XCTest

@testable import PinholeConsole

final class CameraDisplayNameTests: XCTestCase {
    private let imx477 = "/base/soc/i2c0mux/i2c@1/imx477@1a"

    func testAKnownCameraIsItsPositionAndModelAndAnUnknownOneItsModel() {
        let cameras = [
            MenuSnapshot.Camera(
                id: imx477, model: "imx477", position: "back", current: true, torch: true, focus: "fixed")
        ]
        XCTAssertEqual(CameraDisplayName.of(id: imx477, model: "imx477", among: cameras), "back (imx477)")
        XCTAssertEqual(
            CameraDisplayName.of(id: "/base/soc/i2c0mux/i2c@0/ov5647@36", model: nil, among: cameras),
            "ov5647")
        XCTAssertEqual(CameraDisplayName.of(id: "usb-cam", model: "C920", among: cameras), "C920")
        XCTAssertEqual(CameraDisplayName.of(id: nil, model: nil, among: cameras), "")
    }

    func testPhotoListAndPhotoPageShowTheDisplayName() throws {
        let id = imx477
        let row =
            #"{"id":"p1","created":"2026-11-21T08:00:00.000+00:00","camera":"\#(id)","width":4056,"height":3040,"favorite":false,"edited":false}"#
        let detail =
            #"{"id":"p1","file":"/lib/p1.jpg","created":"2026-11-21T08:00:00.000+00:00","added":"2026-11-21T08:00:01.000+00:00","camera":"\#(id)","make":"Pinhole","model":"imx477","width":4056,"height":3040,"orientation":1,"favorite":false,"edited":false,"editRevision":0,"fileSize":3500000}"#
        let harness = try ConsoleHarness(
            quietFocus: true,
            library: { words in
                switch words.first {
                case "albums":
                    return
                        #"{"albums":[],"folders":[],"smart":[{"id":"smart:all","title":"All Photos","count":1}]}"#
                case "smart", "list": return "[\(row)]"
                case "show": return detail
                default: throw ConsoleError.usage("unexpected \(words)")
                }
            })
        harness.type("4")  // Library
        harness.type("\r")  // All photos
        let list = harness.terminal.text
        XCTAssertTrue(list.contains("4056x3040 back (imx477)"), list)
        XCTAssertFalse(list.contains("i2c0mux"), list)
        harness.type("\r")  // the photo
        let page = harness.terminal.text
        let cameraRow = (0..<24).map { harness.terminal.line($0) }.first { $0.contains("Camera ") }
        XCTAssertEqual(
            cameraRow?.split(separator: " ", omittingEmptySubsequences: true),
            ["Camera", "back", "(imx477)"], page)
        XCTAssertTrue(page.contains(id), "the raw id stays available on its own row: \(page)")
    }
}
