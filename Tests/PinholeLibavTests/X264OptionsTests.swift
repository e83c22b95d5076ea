// The options libx264 runs with, read back from the stream: the settings the shim passes are the ones chosen (docs/BENCHMARKS.md).

import Foundation
import PinholeCore
import PinholeLibav
import XCTest

final class X264OptionsTests: XCTestCase {
    let settings = ClipEncoderSettings(
        size: PixelSize(width: 160, height: 96), fps: 30, bitRate: 300_000, keyframeInterval: 30,
        encoder: .libx264)

    /// libx264 writes its options into the first keyframe (the `x264 - core … options: …` user
    /// data SEI): `name=value` pairs as libx264 itself applied them.
    func reportedOptions() throws -> [String: String] {
        let encoder = try LibavVideoBackend().makeEncoder(settings)
        let packets = try encoder.encode(
            ClipTools.frame(settings.size, index: 0), presentationMicroseconds: 0, forceKeyframe: true)
        let bytes = packets.flatMap(\.bytes)
        let marker = Array("x264 - core".utf8)
        let start = try XCTUnwrap(
            (0...(bytes.count - marker.count)).first {
                bytes[$0..<($0 + marker.count)].elementsEqual(marker)
            },
            "no x264 user data in the first keyframe")
        let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        let options = try XCTUnwrap(text.range(of: "options: "), text)
        var pairs: [String: String] = [:]
        for word in text[options.upperBound...].split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { pairs[String(parts[0])] = String(parts[1]) }
        }
        return pairs
    }

    /// Raspberry Pi's camera app's software path (rpicam-apps): full-pel motion search only (no
    /// half-pel planes for the reference frames), diamond search over ±16, no chroma motion
    /// search, no weighted prediction, no mixed references; and Pinhole's own: a keyframe
    /// exactly every keyframe interval, no lookahead, no B-frames, slice threads.
    func testLibx264RunsWithThePiSoftwareSettings() throws {
        let options = try reportedOptions()
        let expected = [
            "subme": "0", "me": "dia", "me_range": "16", "chroma_me": "0", "weightp": "0", "mixed_ref": "0",
            "scenecut": "0", "bframes": "0", "keyint": "30", "ref": "1", "mbtree": "0",
        ]
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(options[name], value, "libx264's \(name) in \(options)")
        }
    }

    func testTheBenchReferenceGetsTheShimsOwnOptions() {
        // The bench hands ffmpeg `-x264-params` with this string: it must carry the choices above.
        let parameters = Set(LibavVideoBackend.x264Parameters.split(separator: ":").map(String.init))
        XCTAssertTrue(
            parameters.isSuperset(of: ["scenecut=0", "subme=0", "chroma-me=0", "me=dia", "weightp=0"]),
            LibavVideoBackend.x264Parameters)
    }
}
