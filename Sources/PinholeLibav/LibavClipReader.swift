// Reading a movie file back through libavformat and libavcodec: what it holds, and its poster frame.

import PinholeCore
import VideoShimInterface
import SystemPackage

/// What a movie file holds, as libavformat demuxes it.
public struct ProbedClip: Sendable, Hashable {
    /// Frame size.
    public var size: PixelSize
    /// Frames per second (0 when the file does not say).
    public var frameRate: Double
    /// Frames in the file.
    public var frameCount: Int
    /// Frames × frame period in microseconds (the timestamps' span when the rate is unknown).
    public var durationMicroseconds: Int64
    /// Clockwise rotation a player applies (the display matrix), in degrees.
    public var rotationDegrees: Int
    /// The codec's short name (`h264`).
    public var codec: String
    /// The movie's `creation_time`, microseconds since 1970; nil when it has none.
    public var creationMicroseconds: Int64?
    /// The camera's make (`com.apple.quicktime.make`, or `make`).
    public var make: String? = nil
    /// The camera's model (`com.apple.quicktime.model`, or `model`).
    public var model: String? = nil
    /// The place as ISO 6709 (`+48.8577+002.2950+035.000/`), nil when the movie has none.
    public var location: String? = nil
    /// Pinhole's clock-trust marker (`org.pinhole.clock-trust`).
    public var clockTrust: String? = nil

    /// Latitude, longitude and altitude (when given) of `location`; nil when it does not read
    /// as ISO 6709 degrees (two or three signed numbers, then an optional `/`).
    public var coordinates: (latitude: Double, longitude: Double, altitude: Double?)? {
        guard let location else { return nil }
        var numbers: [Double] = []
        var current = ""
        for character in location.prefix(while: { $0 != "/" }) {
            if character == "+" || character == "-", !current.isEmpty {
                guard let number = Double(current) else { return nil }
                numbers.append(number)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty {
            guard let number = Double(current) else { return nil }
            numbers.append(number)
        }
        guard (2...3).contains(numbers.count), abs(numbers[0]) <= 90, abs(numbers[1]) <= 180,
            numbers.allSatisfy(\.isFinite)
        else { return nil }
        return (numbers[0], numbers[1], numbers.count == 3 ? numbers[2] : nil)
    }
}

/// Reads movie files: `probe` demuxes every packet, `frame` decodes one frame (the poster).
public enum LibavClipReader {
    /// Demuxes `path` (ph_clip_probe: avformat_open_input, av_read_frame over every packet).
    /// - Throws: `VideoError.writer` naming why the file is not a readable movie.
    public static func probe(_ path: FilePath) throws(VideoError) -> ProbedClip {
        let api = try LibavShim.shared().api
        var info = ph_clip_info()
        var error = [CChar](repeating: 0, count: 256)
        guard api.clip_probe!(path.string, &info, &error, error.count) == 0 else {
            throw .writer(LibavClipEncoder.text(error))
        }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        func tag<T>(_ field: T) -> String? {
            let value = text(field)
            return value.isEmpty ? nil : value
        }
        let codec = text(info.codec)
        var probed = ProbedClip(
            size: PixelSize(width: Int(info.width), height: Int(info.height)),
            frameRate: info.fps_den > 0 ? Double(info.fps_num) / Double(info.fps_den) : 0,
            frameCount: Int(info.frame_count), durationMicroseconds: info.duration_us,
            rotationDegrees: Int(info.rotation_degrees.rounded()) % 360, codec: codec,
            creationMicroseconds: info.creation_us > 0 ? info.creation_us : nil)
        probed.make = tag(info.make)
        probed.model = tag(info.model)
        probed.location = tag(info.location)
        probed.clockTrust = tag(info.clock_trust)
        return probed
    }

    /// The first frame at least `microseconds` after the clip's start (the last one when the
    /// clip is shorter), decoded to planar YUV 4:2:0 (ph_clip_decode_frame: avcodec_send_packet,
    /// avcodec_receive_frame until that frame). `expected` sizes the buffer; a frame of another
    /// size is decoded again into one that fits.
    public static func frame(of path: FilePath, expected: PixelSize, at microseconds: Int64)
        throws(VideoError)
        -> RawImage
    {
        let api = try LibavShim.shared().api
        var size = expected
        var width: Int32 = 0
        var height: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        var buffer: [UInt8] = []
        var decoded = false
        for _ in 0..<2 where !decoded {
            guard size.width > 0, size.height > 0, size.width <= 8192, size.height <= 8192 else {
                throw .badFrame("a movie frame of \(size.width)x\(size.height) is out of range")
            }
            let chroma = ((size.width + 1) / 2) * ((size.height + 1) / 2)
            buffer = [UInt8](repeating: 0, count: size.width * size.height + 2 * chroma)
            let result = buffer.withUnsafeMutableBufferPointer { bytes in
                api.clip_decode_frame!(
                    path.string, max(0, microseconds), bytes.baseAddress, bytes.count, &width, &height,
                    &error,
                    error.count)
            }
            decoded = result == 0
            guard decoded || result == -2 else { throw .badFrame(LibavClipEncoder.text(error)) }
            size = PixelSize(width: Int(width), height: Int(height))
        }
        guard decoded else { throw .badFrame("the frame's size changed while decoding") }
        let w = Int(width)
        let h = Int(height)
        let luma = w * h
        let half = ((w + 1) / 2) * ((h + 1) / 2)
        return RawImage.yuv420(width: w, height: h) { plane, _, _, out in
            let start = plane == 0 ? 0 : luma + (plane - 1) * half
            let count = plane == 0 ? luma : half
            out.replaceSubrange(0..<count, with: buffer[start..<start + count])
        }
    }
}
