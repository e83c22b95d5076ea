// The dates an exported file carries (EXIF, a clip's creation_time): the index's corrected date, never the original's.

import PinholeCore
import PinholeImaging

extension PhotoLibrary {
    /// `bytes` (an original or a render of `asset`) as an export writes it: a photo never
    /// redated is exported byte for byte; a redated photo's EXIF dates are rewritten to the
    /// index's date, and its render without EXIF dates (a tonal edit) gets an EXIF block with
    /// the date, camera, place and clock trust. Anything that cannot be rewritten is exported
    /// unchanged.
    static func exportBytes(of asset: Asset, _ bytes: [UInt8], isOriginal: Bool) -> [UInt8] {
        guard asset.dateShift != .zero else { return bytes }  // never redated: the file as it is
        if let stamped = try? ExifDateStamp.restamp(bytes, to: asset.created) { return stamped }
        guard !isOriginal, (try? ExifReader.read(jpeg: bytes))?.captureTime == nil,
            let header = try? ExifReader.read(jpeg: bytes)
        else { return bytes }
        var metadata = PhotoMetadata(pixelWidth: header.pixelWidth, pixelHeight: header.pixelHeight)
        metadata.captureTime = asset.created
        metadata.make = asset.make
        metadata.model = asset.model
        metadata.gps = asset.gps
        metadata.clockTrust = asset.clockTrust
        metadata.pressToExposure = asset.pressToExposure
        metadata.wakeCost = asset.wakeCost
        return (try? ExifWriter.embed(metadata, thumbnail: nil, into: bytes)) ?? bytes
    }

    /// The metadata a redated clip is exported with: its `creation_time` moved to `start` (the
    /// index's corrected date of the clip's first frame), so that players, photo apps and an
    /// import elsewhere show the date the library shows. Empty for a clip never redated: it is
    /// exported byte for byte.
    static func exportedClipDates(of asset: Asset, start: WallTime) -> [(String, String)] {
        guard asset.dateShift != .zero else { return [] }
        return [("creation_time", ClipMetadata.isoUTC(start))]
    }
}
