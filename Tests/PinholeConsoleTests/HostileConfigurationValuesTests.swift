// Every key of pinhole.toml's tables given hostile values (NaN, infinities, huge, empty, wrong types): an error naming file and line, or settings that work.

import PinholeConfiguration
import PinholeCore
import XCTest

final class HostileConfigurationValuesTests: XCTestCase {
    /// Every key the configuration reader takes, by table.
    static let keys: [String: [String]] = [
        "board": ["name"],
        "library": ["path", "when_full", "low_storage_mb"],
        "camera": ["standby_after"],
        "video": [
            "size", "fps", "quality", "bitrate", "max_duration_s", "keyframe_s", "pre_roll_s", "encoder",
        ],
        "timelapse": ["every", "count", "from", "to", "album", "lock"],
        "capture": ["quality", "frames_in_flight", "live"],
        "console": [
            "device", "baud", "mode", "colour", "unicode", "pin_hash", "idle_lock", "max_pin_failures",
            "lockout",
            "quiet_s",
        ],
        "gps": ["gpsd", "set_clock"],
        "web": [
            "listen", "open", "certificate", "key", "session_minutes", "live_fps", "live_size",
            "stall_timeout_s",
        ],
    ]

    static let hostile = [
        "nan", "+inf", "-inf", "1e308", "-1e308", "-1", "0", "-0.0", "9223372036854775807",
        "-9223372036854775808", "\"\"", "\"\(String(repeating: "a", count: 5000))\"", "true", "[]", "{}",
        "\"\\u0000\"", "\"\\u001b[2J\"", "\"nan\"", "\"1e999\"", "\"-16x-16\"", "\"1000000000x1000000000\"",
        "\"65536x65536\"", "\"16x16\"", "\"0.0.0.0:99999\"", "\"[::1]:0\"", "\":\"", "\"../../etc/passwd\"",
        "1979-05-27T07:32:00Z",
    ]

    /// A value read is either refused with the file and the key's line, or gives settings
    /// whose derived values (bit rate, encoder settings, keyframe interval) compute without a trap.
    func testEveryKeyTakesEveryHostileValueWithoutATrap() {
        var refused = 0
        var taken = 0
        for (table, keys) in Self.keys.sorted(by: { $0.key < $1.key }) {
            for key in keys {
                for value in Self.hostile {
                    // A timelapse needs its interval: given after the key, which stays on line 2.
                    let rest = table == "timelapse" && key != "every" ? "every = 60\n" : ""
                    let text = "[\(table)]\n\(key) = \(value)\n" + rest
                    do {
                        let configuration = try Configuration.parse(text, file: "p.toml")
                        let video = configuration.video
                        _ = video.effectiveBitRate
                        _ = video.keyframeInterval
                        _ = video.encoderSettings(.libx264, ringSeconds: video.preRollSeconds)
                        taken += 1
                    } catch {
                        XCTAssertTrue(
                            "\(error)".hasPrefix("p.toml:2"), "\(table).\(key) = \(value): \(error)")
                        refused += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(refused, 500)
        XCTAssertGreaterThan(taken, 20)
    }

    /// `[video] size = "1000000000x1000000000"` passed the reader (even, at least 16) and then
    /// trapped `pinhole run` at start: the bit rate multiplied width, height and rate in Int.
    func testAVideoSizeBeyondAnyEncoderIsRefusedWithTheLine() {
        for size in ["1000000000x1000000000", "65536x65536", "16386x16"] {
            XCTAssertThrowsError(try Configuration.parse("[video]\nsize = \"\(size)\"\n", file: "p.toml")) {
                XCTAssertTrue("\($0)".hasPrefix("p.toml:2: [video] video size"), "\($0)")
            }
        }
        var video = VideoSettings()
        video.size = PixelSize(width: 1_000_000_000, height: 1_000_000_000)
        XCTAssertEqual(video.effectiveBitRate, VideoSettings.bitRateRange.upperBound, "clamped, not a trap")
    }

    /// `[timelapse] every = 9223372036854775807` multiplied the seconds by 1000 before checking
    /// them: a trap at start instead of the error naming the line.
    func testAHugeTimelapseIntervalIsRefusedWithTheLine() {
        for every in ["9223372036854775807", "-9223372036854775808", "9300000000000000"] {
            XCTAssertThrowsError(try Configuration.parse("[timelapse]\nevery = \(every)\n", file: "p.toml")) {
                XCTAssertTrue(
                    "\($0)".hasPrefix("p.toml:2: [timelapse] every must be between 1 s and 24 h"), "\($0)")
            }
        }
    }
}
