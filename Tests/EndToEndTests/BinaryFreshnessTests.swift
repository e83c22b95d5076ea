// The `pinhole` these tests run is built from the sources as they are: never a stale binary.

import Foundation
import XCTest

final class BinaryFreshnessTests: XCTestCase {
    /// Source folders that `pinhole` is not built from (other executables and their modules).
    private static let notInPinhole: Set<String> = [
        "PinholeBench", "PinholeCommandFuzz", "PinholeConformance", "pinhole-conformance",
        "pinhole-fuzz-commands",
    ]

    /// EndToEndTests depends on the `pinhole` target (Package.swift), so building the tests
    /// builds it: no source it is built from may be newer than the binary.
    func testTheBinaryIsNoOlderThanAnySourceItIsBuiltFrom() throws {
        let binary = try PinholeProcess.binary()
        let built = try XCTUnwrap(
            try binary.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate)
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var checked = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: sources.path)
        where !Self.notInPinhole.contains(folder) {
            let enumerator = FileManager.default.enumerator(
                at: sources.appendingPathComponent(folder),
                includingPropertiesForKeys: [.contentModificationDateKey])
            while let file = enumerator?.nextObject() as? URL {
                guard ["swift", "c", "cpp", "h"].contains(file.pathExtension) else { continue }
                let modified = try XCTUnwrap(
                    try file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate)
                XCTAssertLessThanOrEqual(
                    modified, built,
                    "\(file.path) is newer than \(binary.path): the tests would run a stale binary")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100, "the sources were found")
    }
}
