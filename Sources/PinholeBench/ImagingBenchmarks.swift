// Imaging benchmarks: 12 MP encode against single-core libjpeg-turbo, thumbnails, EXIF write and read.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PinholeCore
import PinholeImaging

/// Measures the imaging pipeline on a synthetic 12.3 MP (4056×3040) frame. Every figure is
/// the median of several runs on a monotonic clock, and encode figures are reported as a
/// ratio to plain libjpeg-turbo encoding the same planes on one core, measured in this run.
enum ImagingBenchmarks {
    static let width = 4056, height = 3040, quality = 93

    static func run() {
        do {
            try runThrowing()
        } catch {
            print("imaging: benchmark failed: \(error)")
        }
    }

    private static func runThrowing() throws {
        let frame = syntheticFrame()
        let nv12 = nv12(from: frame)
        let cores = SystemInfo.onlineCPUs
        if let warning = loadWarning(cores: cores) { print(warning) }
        var metadata = PhotoMetadata(pixelWidth: width, pixelHeight: height, orientation: .right)
        metadata.make = "Raspberry Pi"
        metadata.model = "Camera Module 3"
        metadata.captureTime = WallTime(
            secondsSince1970: 1_795_252_888, nanoseconds: 120_000_000, utcOffsetSeconds: 3600)
        metadata.exposureTime = 1.0 / 120
        metadata.iso = 200
        metadata.fNumber = 1.8
        metadata.focalLength = 4.74
        metadata.gps = GPSFix(latitude: 51.5, longitude: -0.12, altitude: 30)

        var photo: [UInt8] = []
        // The encoders run interleaved with the reference, so a busy machine slows both alike.
        let encoders: [() throws -> Void] = [
            { _ = try ReferenceEncoder.encodeYUV420(frame, quality: quality) },
            { _ = try JPEGEncoder(quality: quality, threads: 1).encode(frame) },
            { _ = try JPEGEncoder(quality: quality, threads: cores).encode(frame) },
            { _ = try JPEGEncoder(quality: quality, threads: cores).encode(nv12) },
            {
                photo = try PhotoEncoder(quality: quality, threads: cores).encode(
                    image: frame, metadata: metadata)
            },
        ]
        let times = try interleavedMedians(runs: 10, encoders)
        let reference = times[0]
        let refText = "libjpeg-turbo single-core \(ms(reference))"
        report("imaging.encode12mp.reference", reference, "(tjCompressFromYUVPlanes, one call, one core)")
        report("imaging.encode12mp.single", times[1], "(\(ratio(times[1], reference)) \(refText))")
        report(
            "imaging.encode12mp.parallel", times[2],
            "(\(ratio(times[2], reference)) \(refText); \(cores) cores)")
        report("imaging.encode12mp.nv12.parallel", times[3], "(\(ratio(times[3], reference)) \(refText))")
        report(
            "imaging.photo12mp.total", times[4],
            "(\(ratio(times[4], reference)) \(refText); JPEG + EXIF + thumbnail, \(photo.count / 1024) KB)")

        let exifThumb = try median(runs: 15) { _ = try PhotoEncoder.exifThumbnail(of: frame) }
        report(
            "imaging.thumbnail.exif160", exifThumb,
            "(\(ratio(exifThumb, reference)) \(refText); from camera planes)")
        let thumb320 = try median(runs: 9) {
            _ = try Thumbnailer.render(
                jpeg: photo, size: PixelSize(width: 320, height: 240), mode: .aspectFill, orientation: .right)
        }
        let decodeFull = try median(runs: 5) { _ = try JPEGDecoder.decode(photo) }
        report("imaging.decode12mp.full", decodeFull, "(\(ratio(decodeFull, reference)) \(refText))")
        report(
            "imaging.thumbnail.320x240", thumb320,
            "(\(ratio(thumb320, decodeFull)) full 12 MP decode; 1/8-scale decode)")
        againstPillow(photo)
        let thumb160 = try median(runs: 15) {
            _ = try Thumbnailer.render(
                jpeg: photo, size: PixelSize(width: 160, height: 120), mode: .aspectFit, orientation: .up)
        }
        report(
            "imaging.thumbnail.160x120", thumb160,
            "(\(ratio(thumb160, decodeFull)) full 12 MP decode; embedded EXIF thumbnail)")

        let thumbnail = try PhotoEncoder.exifThumbnail(of: frame)
        let jpeg = try JPEGEncoder(quality: quality, threads: cores).encode(frame)
        let exifWrite = try median(runs: 31) {
            _ = try ExifWriter.embed(metadata, thumbnail: thumbnail, into: jpeg)
        }
        report(
            "imaging.exif.write", exifWrite,
            "(\(ratio(exifWrite, reference)) \(refText); embed into a 12 MP JPEG)")
        let exifRead = try median(runs: 31) { _ = try ExifReader.read(jpeg: photo) }
        report("imaging.exif.read", exifRead, "(\(ratio(exifRead, reference)) \(refText))")
    }

    /// A 320×240 thumbnail (fit, upright, pixels: what Pillow's `thumbnail()` does) of the
    /// 12 MP photo against Pillow(-SIMD)'s draft-mode `thumbnail()` of the same file. Three
    /// alternating rounds of each; the best median of each counts, so a burst of other work
    /// on the machine does not decide the ratio.
    static func againstPillow(_ photo: [UInt8]) {
        var ours = Double.infinity
        var pillow: PillowReference.Figure?
        do {
            for _ in 0..<3 {
                let reference = try PillowReference.measure(jpeg: photo, width: 320, height: 240, runs: 15)
                if reference.seconds < pillow?.seconds ?? .infinity { pillow = reference }
                ours = min(
                    ours,
                    try median(runs: 15) {
                        _ = try Thumbnailer.renderPixels(
                            jpeg: photo, size: PixelSize(width: 320, height: 240), mode: .aspectFit,
                            orientation: .up)
                    })
            }
        } catch {
            print("imaging.thumbnail.320x240.fit      no reference: \(error)")
            return
        }
        guard let pillow else { return }
        report(
            "imaging.thumbnail.320x240.fit", ours,
            "(\(ratio(ours, pillow.seconds)) \(pillow.library) draft-mode thumbnail() \(ms(pillow.seconds)), "
                + "same file, same run)")
    }

    /// A 4:2:0 frame with gradients, edges and fine texture, so the JPEG has a realistic size.
    static func syntheticFrame() -> RawImage {
        var seed: UInt32 = 12_345
        return RawImage.yuv420(width: width, height: height) { plane, w, h, buffer in
            buffer.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    for x in 0..<w {
                        seed = seed &* 1_664_525 &+ 1_013_904_223
                        let noise = Int(seed >> 28) - 8
                        let value: Int
                        if plane == 0 {
                            let stripes = ((x / 37 + y / 53) % 2) * 40
                            value = 40 + (x * 120) / w + (y * 40) / h + stripes + noise
                        } else {
                            value = (plane == 1 ? 100 + (x * 60) / w : 150 - (y * 50) / h) + noise / 4
                        }
                        out[y * w + x] = UInt8(clamping: value)
                    }
                }
            }
        }
    }

    static func nv12(from frame: RawImage) -> RawImage {
        let cw = frame.width / 2, ch = frame.height / 2
        var uv = [UInt8](repeating: 0, count: cw * 2 * ch)
        for i in 0..<(cw * ch) {
            uv[2 * i] = frame.planes[1].bytes[i]
            uv[2 * i + 1] = frame.planes[2].bytes[i]
        }
        return RawImage(
            format: .nv12, width: frame.width, height: frame.height,
            planes: [frame.planes[0], ImagePlane(bytes: uv, stride: cw * 2)])
    }

    /// Median seconds of each body over `runs` rounds; every round runs each body once
    /// (starting with a different one each round), after one warm-up round.
    static func interleavedMedians(runs: Int, _ bodies: [() throws -> Void]) throws -> [Double] {
        for body in bodies { try body() }
        var times = Array(repeating: [Double](), count: bodies.count)
        for round in 0..<runs {
            // Rotate the order each round so no body always runs first (cold caches, freed pages).
            for step in 0..<bodies.count {
                let index = (round + step) % bodies.count
                let start = monotonicSeconds()
                try bodies[index]()
                times[index].append(monotonicSeconds() - start)
            }
        }
        return times.map { $0.sorted()[runs / 2] }
    }

    /// A warning when other work competes for the CPUs (1-minute load average above the core count).
    static func loadWarning(cores: Int) -> String? {
        guard let file = fopen("/proc/loadavg", "r") else { return nil }
        defer { fclose(file) }
        var load = 0.0
        guard fscanf_double(file, &load), load > Double(cores) else { return nil }
        return
            "imaging: load average \(load) on \(cores) cores: other work competes, parallel ratios are pessimistic"
    }

    /// Reads one floating-point number from `file`.
    private static func fscanf_double(_ file: UnsafeMutablePointer<FILE>, _ value: inout Double) -> Bool {
        var buffer = [CChar](repeating: 0, count: 32)
        guard fgets(&buffer, 32, file) != nil else { return false }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let first = text.split(separator: " ").first, let parsed = Double(first) else { return false }
        value = parsed
        return true
    }

    /// Median seconds of `runs` calls of `body`, after one warm-up call.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = monotonicSeconds()
            try body()
            times.append(monotonicSeconds() - start)
        }
        return times.sorted()[runs / 2]
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func ms(_ seconds: Double) -> String {
        let value = seconds * 1000
        if value < 1 { return "\(Int((value * 1000).rounded())) µs" }
        return "\(Double(Int((value * 10).rounded())) / 10) ms"
    }

    static func ratio(_ value: Double, _ reference: Double) -> String {
        let r = value / reference
        if r < 0.1 { return "\(Double(Int((r * 10_000).rounded())) / 10_000)x" }
        return "\(Double(Int((r * 100).rounded())) / 100)x"
    }

    static func report(_ name: String, _ seconds: Double, _ note: String) {
        let padded = name + String(repeating: " ", count: max(1, 34 - name.count))
        print("\(padded)\(ms(seconds))  \(note)")
    }
}
