// H.264 encoding through libavcodec (libx264, or h264_v4l2m2m on a Pi 4), behind ClipEncoder.

import PinholeCore
import VideoShimInterface

/// A libavcodec H.264 encoder for planar YUV 4:2:0 frames.
public final class LibavClipEncoder: ClipEncoder {
    private let api: ph_video_api
    private let handle: OpaquePointer
    private let settings: ClipEncoderSettings
    private var finished = false

    /// Opens `settings.encoder` (ph_encoder_open: avcodec_alloc_context3, avcodec_open2),
    /// loading the video shim and libav on the first call.
    /// - Throws: `VideoError.unavailable` when libav cannot be loaded, `.encoder` when the codec
    ///   is not in this libavcodec or will not open (this confirms the choice made at start).
    public init(_ settings: ClipEncoderSettings) throws(VideoError) {
        let api = try LibavShim.shared().api
        self.api = api
        self.settings = settings
        var error = [CChar](repeating: 0, count: 256)
        let opened: OpaquePointer? = settings.encoder.codecName.withCString { name in
            var config = ph_encoder_config(
                codec_name: name, width: Int32(settings.size.width), height: Int32(settings.size.height),
                fps: Int32(settings.fps), bit_rate: Int64(settings.bitRate),
                gop: Int32(settings.keyframeInterval), threads: 0,
                rate_buffer: Int64(settings.rateBufferBits ?? 0))
            return api.encoder_open!(&config, &error, error.count)
        }
        guard let opened else { throw .encoder(Self.text(error)) }
        handle = opened
    }

    deinit { api.encoder_close!(handle) }

    /// SPS and PPS (ph_encoder_extradata: the codec context's extradata).
    public var codecHeader: [UInt8] {
        var size: Int32 = 0
        guard let bytes = api.encoder_extradata!(handle, &size), size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
    }

    /// Encodes one frame (ph_encoder_send: avcodec_send_frame; then avcodec_receive_packet).
    public func encode(
        _ image: RawImage, presentationMicroseconds: Int64, forceKeyframe: Bool
    ) throws(VideoError) -> [EncodedPacket] {
        guard !finished else { throw .encoder("the encoder was already finished") }
        guard image.format == .yuv420, image.planes.count == 3 else {
            throw .badFrame("\(image.format.rawValue) given, the encoder takes planar YUV 4:2:0")
        }
        guard image.width == settings.size.width, image.height == settings.size.height else {
            throw .badFrame(
                "\(image.width)x\(image.height) given, the encoder was opened for \(settings.size)")
        }
        let chromaRows = (image.height + 1) / 2
        for (index, plane) in image.planes.enumerated() {
            let rows = index == 0 ? image.height : chromaRows
            let width = index == 0 ? image.width : (image.width + 1) / 2
            guard plane.stride >= width, plane.bytes.count >= plane.stride * rows else {
                throw .badFrame("plane \(index) holds \(plane.bytes.count) bytes, fewer than its rows need")
            }
        }
        var error = [CChar](repeating: 0, count: 256)
        let status = image.planes[0].bytes.withUnsafeBufferPointer { y in
            image.planes[1].bytes.withUnsafeBufferPointer { u in
                image.planes[2].bytes.withUnsafeBufferPointer { v in
                    api.encoder_send!(
                        handle, y.baseAddress, Int32(image.planes[0].stride), u.baseAddress,
                        Int32(image.planes[1].stride), v.baseAddress, Int32(image.planes[2].stride),
                        presentationMicroseconds, forceKeyframe ? 1 : 0, &error, error.count)
                }
            }
        }
        guard status >= 0 else { throw .encoder(Self.text(error)) }
        return try drain()
    }

    /// Flushes the encoder (ph_encoder_send with no frame) and returns what was still inside.
    public func finish() throws(VideoError) -> [EncodedPacket] {
        guard !finished else { return [] }
        finished = true
        var error = [CChar](repeating: 0, count: 256)
        guard api.encoder_send!(handle, nil, 0, nil, 0, nil, 0, 0, 0, &error, error.count) >= 0 else {
            throw .encoder(Self.text(error))
        }
        return try drain()
    }

    /// Every packet the encoder has ready (ph_encoder_receive: avcodec_receive_packet).
    private func drain() throws(VideoError) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        var error = [CChar](repeating: 0, count: 256)
        while true {
            var packet = ph_packet()
            let status = api.encoder_receive!(handle, &packet, &error, error.count)
            if status == 0 || status == -1 { return packets }
            guard status == 1 else { throw .encoder(Self.text(error)) }
            let bytes =
                packet.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(packet.size))) } ?? []
            packets.append(
                EncodedPacket(
                    bytes: bytes, presentationMicroseconds: packet.pts_us,
                    decodingMicroseconds: packet.dts_us, isKeyframe: packet.keyframe != 0))
        }
    }

    static func text(_ error: [CChar]) -> String {
        let bytes = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
