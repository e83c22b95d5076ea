// Exporting a Live Photo in both interchange forms: Apple's JPEG + MOV pair and Google's Motion Photo.

import PinholeCore
import PinholeLibav

extension PhotoLibrary {
    /// The three files of a Live Photo's export, named from one stem so they sort together:
    /// `STEM.jpg` and `STEM.mov`, Apple's pair (one content identifier in both; the MOV also
    /// says where the still falls, `com.apple.quicktime.still-image-time` in seconds), and
    /// `STEM.MP.jpg`, the Motion Photo (the still with the MP4 appended). The motion clip is
    /// rewritten by libavformat (packets copied) into a plain MOV and a plain MP4.
    func livePhotoFiles(of asset: Asset, still: @escaping () throws -> [UInt8])
        -> [(name: String, produce: ByteProducer)]
    {
        let stem = Self.exportStem(of: asset)
        let identifier = LivePhotoInterchange.contentIdentifier(of: asset)
        let stillTime = asset.triggerOffset ?? .zero
        let motion = layout.absolute(LibraryLayout.motionPath(ofStill: asset.path))
        // A redated Live Photo's movie starts its still offset before the still's corrected date.
        let dates = Self.exportedClipDates(of: asset, start: asset.created.adding(.zero - stillTime))
        let appleStill: ByteProducer = { write in
            try LivePhotoInterchange.appleStill(try still(), identifier: identifier).withUnsafeBytes {
                try write($0)
            }
        }
        let mov: ByteProducer = { write in
            let metadata =
                [
                    ("com.apple.quicktime.content.identifier", identifier),
                    ("com.apple.quicktime.still-image-time", String(Double(stillTime.nanoseconds) / 1e9)),
                ] + dates
            try self.rewriting(motion, as: .mov, metadata: metadata) { try self.stream($0, to: write) }
        }
        let motionPhoto: ByteProducer = { write in
            try self.rewriting(motion, as: .mp4, metadata: dates) { mp4 in
                let head = try LivePhotoInterchange.motionPhotoHead(
                    try still(), videoLength: Int(POSIXFiles.fileSize(mp4) ?? 0),
                    presentationMicroseconds: stillTime.nanoseconds / 1000)
                try head.withUnsafeBytes { try write($0) }
                try self.stream(mp4, to: write)
            }
        }
        return [(stem + ".jpg", appleStill), (stem + ".mov", mov), (stem + ".MP.jpg", motionPhoto)]
    }

    /// Calls `body` with `source` (a clip or a Live Photo's motion) rewritten as `container`
    /// with `metadata` into a scratch file under `cache/`, removed afterwards.
    func rewriting(
        _ source: String, as container: LibavClipRemuxer.Container, metadata: [(String, String)],
        _ body: (String) throws -> Void
    ) throws {
        let scratch = layout.root + "/cache/.export-\(Identifier.make(at: now())).\(container.rawValue)"
        defer {
            if POSIXFiles.exists(scratch) {
                cleaning(
                    "remove the export's scratch file \(scratch)",
                    consequence: "it only takes space under cache/"
                ) {
                    try POSIXFiles.remove(scratch)
                }
            }
        }
        do {
            try LibavClipRemuxer.rewrite(
                source, to: scratch, as: container, metadata: metadata.map { (key: $0.0, value: $0.1) })
        } catch {
            throw LibraryError.invalidImage(
                path: source, reason: "its clip could not be rewritten for the export (\(error))")
        }
        try body(scratch)
    }
}
