// Joins independently encoded JPEG bands into one baseline JPEG with restart markers.

/// Splices band JPEGs: the first band's headers (frame height patched, a DRI segment added),
/// then each band's entropy-coded data followed by RST0…RST7 in turn, then EOI.
///
/// This is valid because every band was encoded with the same quantisation and standard
/// Huffman tables, starts its DC prediction at zero and ends byte-aligned — exactly what a
/// decoder expects after a restart marker — and every band but the last holds exactly one
/// restart interval of MCUs.
enum BandJoiner {
    static func join(_ bands: [TJBuffer], plan: BandPlan) throws -> [UInt8] {
        let first = bands[0].array
        let layout = try JPEGLayout(first)
        guard let sos = layout.segments.last, sos.marker == 0xDA else {
            throw ImagingError.encodeFailed(detail: "band 0 has no scan header")
        }
        var output: [UInt8] = []
        output.reserveCapacity(bands.reduce(64) { $0 + $1.count })
        output.append(contentsOf: first[0..<sos.start])
        // Patch the frame height to the whole image.
        let heightOffset = layout.sofPayload.lowerBound + 1
        output[heightOffset] = UInt8(plan.height >> 8)
        output[heightOffset + 1] = UInt8(plan.height & 0xFF)
        let interval = plan.restartInterval
        output.append(contentsOf: [0xFF, 0xDD, 0x00, 0x04, UInt8(interval >> 8), UInt8(interval & 0xFF)])
        output.append(contentsOf: first[sos.start..<layout.scanStart])
        for (index, band) in bands.enumerated() {
            let bytes = band.bytes
            let scanStart: Int
            if index == 0 {
                scanStart = layout.scanStart
            } else {
                scanStart = try JPEGLayout(Array(bytes.prefix(min(bytes.count, 4096)))).scanStart
            }
            guard bytes.count >= scanStart + 2, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
                throw ImagingError.encodeFailed(detail: "band \(index) does not end with EOI")
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[scanStart..<(bytes.count - 2)]))
            if index < bands.count - 1 {
                output.append(contentsOf: [0xFF, 0xD0 + UInt8(index % 8)])
            }
        }
        output.append(contentsOf: [0xFF, 0xD9])
        return output
    }
}
