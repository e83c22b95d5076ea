// Joins independently encoded JPEG bands into one baseline JPEG with restart markers.

/// Splices band JPEGs: the first band's headers (frame height patched, a DRI segment added),
/// then each band's entropy-coded data followed by RST0…RST7 in turn, then EOI. An EXIF
/// APP1 payload, when given, is written right after SOI in place of the JFIF APP0, so the
/// photo is assembled with a single copy of the image data.
///
/// This is valid because every band was encoded with the same quantisation and standard
/// Huffman tables, starts its DC prediction at zero and ends byte-aligned — exactly what a
/// decoder expects after a restart marker — and every band but the last holds exactly one
/// restart interval of MCUs.
enum BandJoiner {
    static func join(_ bands: [TJBuffer], plan: BandPlan, app1 payload: [UInt8]? = nil) throws -> [UInt8] {
        if bands.count == 1 && payload == nil { return bands[0].array }
        var (output, scanStart) = try header(of: bands[0], plan: plan, app1: payload)
        output.reserveCapacity(bands.reduce(output.count + 2) { $0 + $1.count })
        for (index, band) in bands.enumerated() {
            output.append(contentsOf: try entropyData(of: band, index: index, firstScanStart: scanStart))
            if index < bands.count - 1 {
                output.append(contentsOf: [0xFF, 0xD0 + UInt8(index % 8)])
            }
        }
        output.append(contentsOf: [0xFF, 0xD9])
        return output
    }

    /// SOI, the APP1 `payload` if any, the first band's segments (JFIF left out when there is
    /// an APP1; the frame height patched to the whole image), DRI when there are several
    /// bands, and the scan header; with the offset of the first band's entropy-coded data.
    static func header(of first: TJBuffer, plan: BandPlan, app1 payload: [UInt8]?) throws -> ([UInt8], Int) {
        let bytes = first.bytes
        let layout = try JPEGLayout(Array(bytes.prefix(min(bytes.count, 4096))))
        guard let sos = layout.segments.last, sos.marker == 0xDA else {
            throw ImagingError.encodeFailed(detail: "band 0 has no scan header")
        }
        var output: [UInt8] = [0xFF, 0xD8]
        if let payload {
            let length = payload.count + 2
            output.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)])
            output.append(contentsOf: payload)
        }
        for segment in layout.segments.dropLast() {
            if payload != nil && segment.marker == 0xE0 { continue }  // JFIF gives way to EXIF
            let start = output.count
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segment.start..<segment.end]))
            if plan.count > 1 && segment.payload == layout.sofPayload {
                // The frame is the whole image, not the first band.
                let offset = start + (segment.payload.lowerBound - segment.start) + 1
                output[offset] = UInt8(plan.height >> 8)
                output[offset + 1] = UInt8(plan.height & 0xFF)
            }
        }
        if plan.count > 1 {
            let interval = plan.restartInterval
            output.append(contentsOf: [0xFF, 0xDD, 0x00, 0x04, UInt8(interval >> 8), UInt8(interval & 0xFF)])
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sos.start..<layout.scanStart]))
        return (output, layout.scanStart)
    }

    /// Band `index`'s entropy-coded data: from its scan start (`firstScanStart` for band 0)
    /// up to, not including, its EOI.
    static func entropyData(of band: TJBuffer, index: Int, firstScanStart: Int) throws -> UnsafeBufferPointer<
        UInt8
    > {
        let bytes = band.bytes
        let scanStart =
            index == 0
            ? firstScanStart
            : try JPEGLayout(Array(bytes.prefix(min(bytes.count, 4096)))).scanStart
        guard bytes.count >= scanStart + 2, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9
        else {
            throw ImagingError.encodeFailed(detail: "band \(index) does not end with EOI")
        }
        return UnsafeBufferPointer(rebasing: bytes[scanStart..<(bytes.count - 2)])
    }
}
