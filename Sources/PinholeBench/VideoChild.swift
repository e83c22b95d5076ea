// A simulated-board appliance recording 1080p30 in real time, for the video benchmarks.

import Foundation

/// `pinhole run --board sim --clock real` with `[video] 1920x1080, 30 fps, pre_roll_s = P`,
/// answering line-mode commands; `record` runs one clip to its saved event.
struct VideoChild {
    let appliance: ApplianceChild
    let config: URL

    /// One recorded clip: its saved event, `record status --json` a second after it started
    /// (numbers only), and the load average then.
    struct Clip {
        var event: String
        var status: [String: Double]
        var load: String
    }

    /// `live`: `[capture] live = true` (every still a Live Photo: the encoder always runs).
    init?(_ binary: URL, preRoll: Double, live: Bool = false) {
        config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-video-bench-\(getpid())-\(Int(preRoll * 10))\(live ? "-live" : "").toml")
        let text =
            "[video]\nsize = \"1920x1080\"\nfps = 30\nkeyframe_s = 1\npre_roll_s = \(preRoll)\n"
            + (live ? "[capture]\nlive = true\n" : "")
        guard (try? text.write(to: config, atomically: true, encoding: .utf8)) != nil else {
            print("video.record  failed: cannot write \(config.path)")
            return nil
        }
        guard
            let appliance = ApplianceChild(
                binary: binary, clock: "real", arguments: ["--config", config.path])
        else { return nil }
        self.appliance = appliance
    }

    /// Sends `command` (a `record start …`), reads `record status --json` one second after the
    /// clip's file opened, and waits for the saved event; nil (and the failure printed under
    /// `section`) when the clip was not saved.
    func record(_ command: String, section: String) -> Clip? {
        var answer = appliance.ask(command)
        // An event written before the answer (the mode switch's, after `sim hold mode`) is not it.
        while answer.hasPrefix("event ") { answer = appliance.readLine() }
        guard answer.hasPrefix("ok recording") else {
            print("\(section)  failed: \(command) answered \(answer)")
            return nil
        }
        var lines: [String] = []
        while !lines.contains(where: { $0.contains("recording started") || $0.contains("recording failed") })
        {
            let line = appliance.readLine()
            if line.isEmpty { break }
            lines.append(line)
        }
        Thread.sleep(forTimeInterval: 1)
        let load = BenchLoad.text()
        appliance.input.fileHandleForWriting.write(Data("record status --json\n".utf8))
        var status: [String: Double] = [:]
        var saved = ""
        while saved.isEmpty {
            let line = appliance.readLine()
            if line.isEmpty { break }
            if line.hasPrefix("{"), status.isEmpty,
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            {
                status = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
            }
            if line.contains("recording saved") || line.contains("recording failed") { saved = line }
        }
        guard saved.contains("recording saved") else {
            print("\(section)  failed: \(saved.isEmpty ? "no saved event" : saved)")
            return nil
        }
        return Clip(event: saved, status: status, load: load)
    }

    /// Percent of one core the appliance spends over `seconds` of doing nothing asked.
    func idleCPU(seconds: Double) -> Double {
        let pid = appliance.pid
        let (cpu0, wall0) = (RecordingBenchmark.processCPU(pid), VideoBenchmarks.monotonicSeconds())
        Thread.sleep(forTimeInterval: seconds)
        let cpu = RecordingBenchmark.processCPU(pid) - cpu0
        return cpu / (VideoBenchmarks.monotonicSeconds() - wall0) * 100
    }

    /// The absolute path of the file a saved event names.
    func file(of event: String) -> String {
        let words = event.split(separator: " ")
        let path = words.count > 4 ? String(words[4]) : ""
        return path.hasPrefix("/") ? path : appliance.library.appendingPathComponent(path).path
    }

    /// Quits the appliance and removes its library and configuration.
    func stop() {
        appliance.stop()
        try? FileManager.default.removeItem(at: config)
    }
}
