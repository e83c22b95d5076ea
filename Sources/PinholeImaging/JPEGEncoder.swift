// Baseline JPEG encoding straight from camera planes, split into bands encoded on all cores.

import PinholeCore

/// Encodes raw camera images to baseline 4:2:0 JPEG with libjpeg-turbo.
///
/// YUV 4:2:0 and NV12 are compressed straight from their planes (`tjCompressFromYUVPlanes`,
/// no RGB round trip); RGB888 and XRGB8888 go through `tjCompress2`. With more than one
/// thread the image is cut into horizontal bands of whole MCU rows, each band is encoded
/// independently on its own core, and the bands are joined into one baseline JPEG with a
/// restart marker (RSTn) between them and a DRI segment whose interval is one band. Every
/// conforming decoder reads the result.
public struct JPEGEncoder: Sendable {
    /// JPEG quality, 1...100.
    public let quality: Int
    /// Maximum number of bands encoded at once.
    public let threads: Int

    /// Creates an encoder. `quality` is clamped to 1...100 and `threads` to at least 1.
    public init(quality: Int = 93, threads: Int = SystemInfo.onlineCPUs) {
        self.quality = min(100, max(1, quality))
        self.threads = max(1, threads)
    }

    /// Encodes `image` to a baseline JPEG (JFIF, no EXIF).
    /// - Throws: `ImagingError.invalidImage` when the planes do not match the format and size,
    ///   `.encodeFailed` when libjpeg-turbo fails.
    public func encode(_ image: RawImage) throws -> [UInt8] {
        try encode(image, app1: nil)
    }

    /// Encodes `image` with `app1` (an APP1 payload such as "Exif\0\0…") written right after
    /// SOI instead of the JFIF APP0.
    func encode(_ image: RawImage, app1: [UInt8]?) throws -> [UInt8] {
        try image.validate()
        let plan = BandPlan(width: image.width, height: image.height, bands: threads)
        let encoded = try BandEncoder.encodeBands(image, plan: plan, quality: quality)
        return try BandJoiner.join(encoded, plan: plan, app1: app1)
    }

    /// Encodes `image` with `app1` like `encode(_:app1:)`, but writes the JPEG to `sink` band by
    /// band while it is encoded (bands of about `streamBandRows` rows, at least one per
    /// thread), so that only the bands in progress are ever in memory.
    func encode(_ image: RawImage, app1: [UInt8]?, into sink: any ByteSink) throws {
        try image.validate()
        let bands = max(threads, (image.height + JPEGEncoder.streamBandRows - 1) / JPEGEncoder.streamBandRows)
        let plan = BandPlan(width: image.width, height: image.height, bands: bands)
        try BandStreamer.encode(image, plan: plan, threads: threads, quality: quality, app1: app1, into: sink)
    }

    /// Rows per band when streaming: a 12 MP frame's JPEG is written in twelve pieces.
    static let streamBandRows = 256
}

/// How an image is cut into bands of whole 16-row MCU rows.
struct BandPlan: Sendable {
    /// MCU height and width of 4:2:0.
    static let mcuSize = 16
    /// Image width and height.
    let width: Int, height: Int
    /// Rows of pixels in each band but the last (a multiple of 16).
    let rowsPerBand: Int
    /// Number of bands.
    let count: Int
    /// MCUs in one band but the last: the restart interval.
    let restartInterval: Int

    init(width: Int, height: Int, bands requested: Int) {
        self.width = width
        self.height = height
        let mcuRows = (height + BandPlan.mcuSize - 1) / BandPlan.mcuSize
        let mcusPerRow = (width + BandPlan.mcuSize - 1) / BandPlan.mcuSize
        // Bands of at least 4 MCU rows, and a restart interval that fits DRI's 16 bits.
        let maxRowsPerBand = max(1, 65_535 / mcusPerRow)
        var bands = min(max(1, requested), max(1, mcuRows / 4))
        bands = max(bands, (mcuRows + maxRowsPerBand - 1) / maxRowsPerBand)
        let mcuRowsPerBand = (mcuRows + bands - 1) / bands
        rowsPerBand = mcuRowsPerBand * BandPlan.mcuSize
        count = (mcuRows + mcuRowsPerBand - 1) / mcuRowsPerBand
        restartInterval = mcuRowsPerBand * mcusPerRow
    }

    /// The pixel rows of band `index`.
    func rows(of index: Int) -> Range<Int> {
        let start = index * rowsPerBand
        return start..<min(height, start + rowsPerBand)
    }
}
