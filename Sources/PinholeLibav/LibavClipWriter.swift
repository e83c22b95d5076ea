// A fragmented MP4 written by libavformat's mov muxer into a ClipSink, durable at each fragment.

import PinholeCore
import VideoShimInterface

/// Writes H.264 packets into a fragmented MP4 (a fragment per keyframe) with the clip's metadata.
public final class LibavClipWriter: ClipWriter {
    /// The sink and the first failure it reported (libavformat only sees "I/O error").
    final class Output {
        let sink: any ClipSink
        var failure: VideoError?
        init(sink: any ClipSink) { self.sink = sink }
    }

    private let api: ph_video_api
    private var handle: OpaquePointer?
    private let output: Output
    private var packetsWritten = 0

    /// Writes the header (ph_writer_open: avformat_alloc_output_context2 "mp4", a custom
    /// AVIOContext, the display matrix, avformat_write_header with fragmenting movflags).
    public init(
        settings: ClipEncoderSettings, codecHeader: [UInt8], metadata: ClipMetadata, sink: any ClipSink
    ) throws(VideoError) {
        let api = try LibavShim.shared().api
        self.api = api
        output = Output(sink: sink)
        var error = [CChar](repeating: 0, count: 256)
        let opaque = Unmanaged.passUnretained(output).toOpaque()
        let opened: OpaquePointer? = LibavMetadataTable.with(metadata.entries) { table, count in
            codecHeader.withUnsafeBufferPointer { header in
                var config = ph_writer_config(
                    width: Int32(settings.size.width), height: Int32(settings.size.height),
                    fps: Int32(settings.fps), extradata: header.baseAddress,
                    extradata_size: Int32(header.count),
                    rotation_degrees: Double(metadata.rotationDegrees), metadata: table,
                    metadata_count: count)
                return api.writer_open!(&config, writeToSink, opaque, &error, error.count)
            }
        }
        guard let opened else { throw output.failure ?? .writer(LibavClipEncoder.text(error)) }
        handle = opened
        do {
            try sink.fragmentCompleted()
        } catch {
            api.writer_abort!(opened)
            handle = nil
            throw error
        }
    }

    deinit { abort() }

    /// Appends a packet (ph_writer_write: av_write_frame, avio_flush); at a keyframe after the
    /// first, the fragment before it is complete in the sink and made durable.
    public func write(_ packet: EncodedPacket) throws(VideoError) {
        guard let handle else { throw .writer("the clip was already closed") }
        var error = [CChar](repeating: 0, count: 256)
        let status = packet.bytes.withUnsafeBufferPointer { bytes in
            api.writer_write!(
                handle, bytes.baseAddress, Int32(bytes.count), packet.presentationMicroseconds,
                packet.decodingMicroseconds, packet.isKeyframe ? 1 : 0, &error, error.count)
        }
        guard status >= 0 else { throw output.failure ?? .writer(LibavClipEncoder.text(error)) }
        if packet.isKeyframe && packetsWritten > 0 { try output.sink.fragmentCompleted() }
        packetsWritten += 1
    }

    /// Writes the last fragment and the trailer (ph_writer_finish: av_write_trailer), then makes
    /// the file durable.
    public func finish() throws(VideoError) {
        guard let handle else { throw .writer("the clip was already closed") }
        self.handle = nil
        var error = [CChar](repeating: 0, count: 256)
        guard api.writer_finish!(handle, &error, error.count) >= 0 else {
            throw output.failure ?? .writer(LibavClipEncoder.text(error))
        }
        try output.sink.fragmentCompleted()
    }

    /// Frees the muxer without a trailer (ph_writer_abort).
    public func abort() {
        guard let handle else { return }
        self.handle = nil
        api.writer_abort!(handle)
    }
}

/// The AVIOContext's write callback: hands libavformat's bytes to the sink.
private func writeToSink(_ opaque: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ size: Int32)
    -> Int32
{
    guard let opaque else { return -1 }
    let output = Unmanaged<LibavClipWriter.Output>.fromOpaque(opaque).takeUnretainedValue()
    guard output.failure == nil else { return -1 }
    do {
        try output.sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(size)))
        return 0
    } catch {
        output.failure = error
        return -1
    }
}
