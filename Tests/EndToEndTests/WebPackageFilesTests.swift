// End to end: the package writes the web gallery's unit drop-in and mDNS file from [web] at
// install (postinst runs `pinhole web files --if-enabled`) and removes them with the package.

import Foundation
import XCTest

final class WebPackageFilesTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What postinst runs, with the files under `directory` instead of /etc.
    private func webFiles(config: URL, in directory: URL, ifEnabled: Bool = true) throws -> ProcessResult {
        try PinholeProcess.run(
            ["web", "files"] + (ifEnabled ? ["--if-enabled"] : []) + [
                "--config", config.path,
                "--drop-in",
                directory.appendingPathComponent("systemd/system/pinhole.service.d/web.conf").path,
                "--avahi", directory.appendingPathComponent("avahi/services/pinhole-web.service").path,
            ])
    }

    func testWithTheGalleryOffTheInstallWritesNothingAndSucceeds() throws {
        let directory = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("pinhole.toml")
        try "[capture]\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try webFiles(config: config, in: directory)
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.lines, ["[web] listen is not set: the gallery is off, nothing written"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["pinhole.toml"])
        let asked = try webFiles(config: config, in: directory, ifEnabled: false)
        XCTAssertNotEqual(asked.status, 0, "asked by hand, an unset listen is an error")
    }

    func testWithTheGalleryOnTheInstallWritesTheDropInAndTheMDNSFileForItsPort() throws {
        let directory = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hash = try PinholeProcess.run(["console", "hash-pin"], input: "2468\n")
        XCTAssertEqual(hash.status, 0, hash.error)
        let config = directory.appendingPathComponent("pinhole.toml")
        try
            "[console]\n\(hash.output.trimmingCharacters(in: .whitespacesAndNewlines))\n\n[web]\nlisten = \"0.0.0.0:8123\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try webFiles(config: config, in: directory)
        XCTAssertEqual(run.status, 0, run.error)
        let dropIn = try String(
            contentsOf: directory.appendingPathComponent("systemd/system/pinhole.service.d/web.conf"),
            encoding: .utf8)
        XCTAssertTrue(dropIn.contains("SocketBindAllow=tcp:8123"), dropIn)
        let avahi = try String(
            contentsOf: directory.appendingPathComponent("avahi/services/pinhole-web.service"),
            encoding: .utf8)
        XCTAssertTrue(avahi.contains("<port>8123</port>"), avahi)
    }

    func testThePackagesScriptsRunItAtInstallAndRemoveItsFilesWithThePackage() throws {
        let postinst = try String(
            contentsOf: root.appendingPathComponent("tools/deb/postinst"), encoding: .utf8)
        XCTAssertTrue(
            postinst.contains("pinhole web files --if-enabled --config /etc/pinhole/pinhole.toml"), postinst)
        let postrm = try String(contentsOf: root.appendingPathComponent("tools/deb/postrm"), encoding: .utf8)
        XCTAssertTrue(
            postrm.contains(
                "rm -f /etc/systemd/system/pinhole.service.d/web.conf /etc/avahi/services/pinhole-web.service"
            ),
            postrm)
        // The defaults of `pinhole web files` are the paths postrm removes.
        let help = try PinholeProcess.run(["web", "files", "--help"])
        XCTAssertTrue(help.output.contains("/etc/systemd/system/pinhole.service.d/web.conf"), help.output)
        XCTAssertTrue(help.output.contains("/etc/avahi/services/pinhole-web.service"), help.output)
        let build = try String(contentsOf: root.appendingPathComponent("tools/deb/build"), encoding: .utf8)
        XCTAssertTrue(build.contains("\"$deb_dir/postinst\" \"$deb_dir/prerm\" \"$deb_dir/postrm\""))
    }
}
