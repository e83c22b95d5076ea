// libx264's settings decided with data: Pinhole's earlier options against the Raspberry Pi camera app's, by CPU, memory and quality at one bit rate.

import Foundation
import PinholeCore
import PinholeLibav

/// `ffmpeg -c:v libx264` on the bench's raw frames with two sets of libx264 options at the same
/// bit rate: CPU a frame and peak memory (each child's own rusage), and SSIM/PSNR of the decoded
/// clip against the raw frames (ffmpeg's ssim and psnr filters), on the simulated scene as
/// rendered (a still scene with fresh sensor noise each frame) and panned (sub-pixel motion).
enum X264SettingsComparison {
    /// One set of options after `-preset superfast -tune zerolatency`.
    struct Variant {
        var name: String
        var parameters: String
    }

    /// What Pinhole gave libx264 until 2026-11-27.
    static let before = Variant(name: "before", parameters: "scenecut=0")
    /// Raspberry Pi's rpicam-apps on its software path (libav_encoder: me_subpel_quality 0,
    /// me_range 16, me_cmp 1 = no chroma ME, motion-est dia, weightp none, mixed_ref 0,
    /// sc_threshold 0, rc-lookahead 0 with preset superfast), as libx264 options.
    static let raspberryPi = Variant(
        name: "Pi", parameters: "scenecut=0:subme=0:chroma-me=0:me=dia:merange=16:weightp=0:mixed-refs=0")

    /// The ffmpeg arguments that encode `raw` (`loops` times over) with `variant` into `out`;
    /// the encode-cost reference uses the same with the shim's own options.
    static func encodeArguments(
        raw: URL, loops: Int, out: URL, _ settings: ClipEncoderSettings, parameters: String
    ) -> [String] {
        [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
            "-s", "\(settings.size.width)x\(settings.size.height)", "-r", "\(settings.fps)",
            "-stream_loop", "\(loops - 1)", "-i", raw.path, "-c:v", "libx264", "-preset", "superfast",
            "-tune", "zerolatency", "-x264-params", parameters, "-g", "\(settings.keyframeInterval)", "-bf",
            "0",
            "-b:v", "\(settings.bitRate)", "-movflags", "frag_keyframe+empty_moov+default_base_moof",
            "-f", "mp4", out.path,
        ]
    }

    /// One variant on one clip.
    struct Figures {
        var cpuPerFrame: Double
        var peakKB: Int
        var bytes: Int
        var ssim: Double
        var psnr: Double
    }

    /// Prints the comparison; `raw` holds `frames` frames, encoded `loops` times over.
    static func run(raw: URL, frames: Int, loops: Int, directory: URL, _ settings: ClipEncoderSettings) {
        let size = "\(settings.size.width)x\(settings.size.height)"
        let input = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", size, "-r", "\(settings.fps)"]
        // ffmpeg reading the same frames to nothing: its own peak, without an encoder.
        guard
            let decodeOnly = MeasuredChild.run(
                "/usr/bin/ffmpeg",
                ["-nostdin", "-hide_banner", "-y"] + input + ["-stream_loop", "\(loops - 1)", "-i", raw.path]
                    + ["-f", "null", "-"], section: "video.x264")
        else { return }
        // The same frames panned: upscaled 2x, a window moving 3 px right and 1 px down a frame
        // there, scaled back (1.67 and 0.56 px a frame: sub-pixel motion).
        let pan = directory.appendingPathComponent("pan.yuv")
        guard
            MeasuredChild.run(
                "/usr/bin/ffmpeg",
                ["-nostdin", "-hide_banner", "-y"] + input + ["-stream_loop", "\(loops - 1)", "-i", raw.path]
                    + [
                        "-vf",
                        "scale=3840:2160,crop=3456:1944:n*3:n,scale=\(settings.size.width):\(settings.size.height)",
                        "-f", "rawvideo", "-pix_fmt", "yuv420p", pan.path,
                    ], section: "video.x264") != nil
        else { return }
        let count = frames * loops
        var still: [Figures] = []
        var panned: [Figures] = []
        for variant in [before, raspberryPi] {
            guard
                let a = measure(
                    variant, raw: raw, loops: loops, count: count, directory: directory, settings),
                let b = measure(variant, raw: pan, loops: 1, count: count, directory: directory, settings)
            else { return }
            still.append(a)
            panned.append(b)
        }
        let inUse =
            LibavVideoBackend.x264Parameters == raspberryPi.parameters
            ? "the Pi's" : LibavVideoBackend.x264Parameters == before.parameters ? "before" : "neither"
        print(
            "video.x264.settings     superfast zerolatency, 6 Mbit/s, with -x264-params before \"\(before.parameters)\""
                + " against the Pi's (rpicam-apps) \"\(raspberryPi.parameters)\"; the shim uses \(inUse):"
                + " \"\(LibavVideoBackend.x264Parameters)\"; \(BenchLoad.text())")
        let (old, pi) = (still[0], still[1])
        print(
            String(
                format:
                    "video.x264.cpu          ffmpeg CPU a frame, still scene: before %.2f ms, Pi %.2f ms = %.3fx;"
                    + " panned: before %.2f ms, Pi %.2f ms = %.3fx", old.cpuPerFrame * 1000,
                pi.cpuPerFrame * 1000,
                pi.cpuPerFrame / old.cpuPerFrame, panned[0].cpuPerFrame * 1000, panned[1].cpuPerFrame * 1000,
                panned[1].cpuPerFrame / panned[0].cpuPerFrame))
        let mb = { (kB: Int) in String(format: "%.1f MB", Double(kB) / 1024) }
        print(
            "video.x264.memory       ffmpeg's peak less its own reading the frames to null (\(mb(decodeOnly.peakKB))):"
                + " before \(mb(old.peakKB - decodeOnly.peakKB)), Pi \(mb(pi.peakKB - decodeOnly.peakKB))"
                + " (\(mb(old.peakKB - pi.peakKB)) less; peaks \(mb(old.peakKB)) and \(mb(pi.peakKB)))")
        for (label, pair) in [("still ", still), ("panned", panned)] {
            print(
                String(
                    format:
                        "video.x264.quality      %@: SSIM before %.5f (%.2f dB), Pi %.5f (%.2f dB); PSNR before"
                        + " %.2f dB, Pi %.2f dB (%+.2f dB); size before %.2f MB, Pi %.2f MB", label,
                    pair[0].ssim,
                    decibels(pair[0].ssim), pair[1].ssim, decibels(pair[1].ssim), pair[0].psnr, pair[1].psnr,
                    pair[1].psnr - pair[0].psnr, Double(pair[0].bytes) / 1_048_576,
                    Double(pair[1].bytes) / 1_048_576))
        }
    }

    /// SSIM as decibels, as ffmpeg prints it: −10 log10(1 − SSIM).
    static func decibels(_ ssim: Double) -> Double { -10 * log10(max(1e-12, 1 - ssim)) }

    private static func measure(
        _ variant: Variant, raw: URL, loops: Int, count: Int, directory: URL, _ settings: ClipEncoderSettings
    ) -> Figures? {
        let out = directory.appendingPathComponent("\(variant.name)-\(raw.lastPathComponent).mp4")
        guard
            let encode = MeasuredChild.run(
                "/usr/bin/ffmpeg",
                encodeArguments(raw: raw, loops: loops, out: out, settings, parameters: variant.parameters),
                section: "video.x264")
        else { return nil }
        let size = "\(settings.size.width)x\(settings.size.height)"
        guard
            let compare = MeasuredChild.run(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-hide_banner", "-i", out.path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s",
                    size,
                    "-r", "\(settings.fps)", "-stream_loop", "\(loops - 1)", "-i", raw.path, "-lavfi",
                    "[1:v]split[r1][r2];[0:v][r1]ssim[m];[m][r2]psnr", "-f", "null", "-",
                ], section: "video.x264"),
            let ssim = number(after: "All:", in: compare.errorText),
            let psnr = number(after: "average:", in: compare.errorText)
        else {
            print("video.x264  failed: no SSIM/PSNR for \(variant.name) on \(raw.lastPathComponent)")
            return nil
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: out.path))?[.size] as? Int ?? 0
        try? FileManager.default.removeItem(at: out)
        return Figures(
            cpuPerFrame: encode.cpu / Double(count), peakKB: encode.peakKB, bytes: bytes, ssim: ssim,
            psnr: psnr)
    }

    /// The number after the last `key` in ffmpeg's log (its summary lines come last).
    static func number(after key: String, in text: String) -> Double? {
        guard let range = text.range(of: key, options: .backwards) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" }
        return Double(digits)
    }
}
