// Photo lists and details name the camera as a person would ("back (imx477)"), not by its
// libcamera id.

import XCTest

@testable import PinholeConsole
import SystemPackage

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
        let harness = try ConsoleHarness(quietFocus: true, reader: OnePhotoLibrary(camera: id))
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

/// A library of one photo taken with `camera`, read through `LibraryReading`.
private struct OnePhotoLibrary: LibraryReading {
    let camera: String

    func albums() throws -> [LibraryAlbumRow] {
        [LibraryAlbumRow(id: "smart:all", title: "All Photos", count: 1)]
    }

    func photos(in source: LibraryAlbumRow, offset: Int, limit: Int) throws -> [LibraryPhotoRow] {
        [
            LibraryPhotoRow(
                id: "p1", created: "2026-11-21T08:00:00.000+00:00", camera: camera, width: 4056, height: 3040,
                favorite: false, edited: false, deleted: nil)
        ]
    }

    func photo(id: String) throws -> LibraryPhotoDetail? {
        var detail = LibraryPhotoDetail(
            id: id, file: FilePath("/lib/\(id).jpg"), created: "2026-11-21T08:00:00.000+00:00",
            added: "2026-11-21T08:00:01.000+00:00", width: 4056, height: 3040, favorite: false, edited: false)
        detail.camera = camera
        detail.make = "Pinhole"
        detail.model = "imx477"
        return detail
    }
}
