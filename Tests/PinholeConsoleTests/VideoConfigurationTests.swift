// The [video] table of the configuration file: defaults, every key, and errors with file:line.

import PinholeConfiguration
import PinholeCore
import XCTest

final class VideoConfigurationTests: XCTestCase {
    func testDefaultsAreFullHDAtThirtyFramesMediumQuality() throws {
        let video = try Configuration.parse("", file: "p.toml").video
        XCTAssertEqual(video.size, PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(video.fps, 30)
        XCTAssertEqual(video.effectiveBitRate, 6_000_000)
        XCTAssertEqual(video.keyframeInterval, 30)
        XCTAssertEqual(video.encoder, .auto)
        XCTAssertEqual(video.preRollSeconds, 0)
    }

    func testEveryKeyIsRead() throws {
        let video = try Configuration.parse(
            """
            [video]
            size = "1280x720"
            fps = 25
            quality = "high"
            max_duration_s = 120
            keyframe_s = 2
            encoder = "libx264"
            pre_roll_s = 3
            """, file: "p.toml"
        ).video
        XCTAssertEqual(video.size, PixelSize(width: 1280, height: 720))
        XCTAssertEqual(video.fps, 25)
        XCTAssertEqual(video.quality, .high)
        XCTAssertEqual(video.maxDurationSeconds, 120)
        XCTAssertEqual(video.keyframeInterval, 50)
        XCTAssertEqual(video.encoder, .libx264)
        XCTAssertEqual(video.preRollSeconds, 3)
        XCTAssertEqual(
            try Configuration.parse("[video]\nbitrate = 2000000\n", file: "p.toml").video.effectiveBitRate,
            2_000_000)
    }

    func testBadValuesNameTheFileLineAndChoices() {
        for (text, reason) in [
            ("[video]\nsize = \"big\"\n", "p.toml:2: [video] size is 'big': give WIDTHxHEIGHT"),
            ("[video]\nsize = \"1921x1080\"\n", "p.toml:2: [video] video size 1921x1080 is not usable"),
            ("[video]\nfps = 0\n", "p.toml:2"),
            ("[video]\nquality = \"best\"\n", "p.toml:2: [video] quality is 'best': use low, medium or high"),
            ("[video]\nbitrate = 90000000\n", "p.toml:2"),
            ("[video]\nmax_duration_s = 0\n", "p.toml:2"),
            ("[video]\nmax_duration_s = nan\n", "p.toml:2"),
            ("[video]\npre_roll_s = 1e9\n", "p.toml:2"),
            (
                "[video]\nencoder = \"nvenc\"\n",
                "p.toml:2: [video] encoder is 'nvenc': use auto, v4l2m2m or libx264"
            ),
            ("[video]\naudio = true\n", "p.toml:2"),
        ] {
            XCTAssertThrowsError(try Configuration.parse(text, file: "p.toml"), text) { error in
                XCTAssertTrue("\(error)".hasPrefix(reason), "\(text): \(error)")
            }
        }
    }

    /// Issue 21's bad values in `[video]`, each with the whole message: the file, the line, the
    /// key and what to give.
    func testEachBadVideoValueNamesTheFileLineKeyAndWhatToGive() {
        for (text, reason) in [
            (
                "[video]\nsize = \"0x0\"\n",
                "p.toml:2: [video] video size 0x0 is not usable: width and height must be even, at least 16 and at most 8192"
            ),
            (
                "[video]\nsize = \"9000x9000\"\n",
                "p.toml:2: [video] video size 9000x9000 is not usable: width and height must be even, at least 16 and at most 8192"
            ),
            ("[video]\nfps = 0\n", "p.toml:2: 'fps' is 0, outside 1…120"),
            ("[video]\nfps = 1000\n", "p.toml:2: 'fps' is 1000, outside 1…120"),
            ("[video]\nfps = nan\n", "p.toml:2: 'fps' must be an integer, not a number"),
            ("[video]\nbitrate = 90000000\n", "p.toml:2: 'bitrate' is 90000000, outside 100000…20000000"),
            ("[video]\nbitrate = 10\n", "p.toml:2: 'bitrate' is 10, outside 100000…20000000"),
            ("[video]\nbitrate = -1\n", "p.toml:2: 'bitrate' is -1, outside 100000…20000000"),
            ("[video]\nquality = 5\n", "p.toml:2: 'quality' must be a string, not an integer"),
            ("[video]\nencoder = \"\"\n", "p.toml:2: [video] encoder is '': use auto, v4l2m2m or libx264"),
            ("[video]\nmax_duration_s = 0\n", "p.toml:2: 'max_duration_s' is 0.0, outside 1.0…86400.0"),
            ("[video]\nmax_duration_s = nan\n", "p.toml:2: 'max_duration_s' is nan, outside 1.0…86400.0"),
            (
                "[video]\nmax_duration_s = 1e300\n",
                "p.toml:2: 'max_duration_s' is 1e+300, outside 1.0…86400.0"
            ),
            ("[video]\nkeyframe_s = 0\n", "p.toml:2: 'keyframe_s' is 0.0, outside 0.1…10.0"),
            ("[video]\nkeyframe_s = inf\n", "p.toml:2: 'keyframe_s' is inf, outside 0.1…10.0"),
            ("[video]\npre_roll_s = 1e9\n", "p.toml:2: 'pre_roll_s' is 1000000000.0, outside 0.0…30.0"),
            ("[video]\npre_roll_s = -1\n", "p.toml:2: 'pre_roll_s' is -1.0, outside 0.0…30.0"),
            ("[video]\npre_roll_s = nan\n", "p.toml:2: 'pre_roll_s' is nan, outside 0.0…30.0"),
        ] {
            XCTAssertThrowsError(try Configuration.parse(text, file: "p.toml"), text) { error in
                XCTAssertEqual("\(error)", reason, text)
            }
        }
    }
}
