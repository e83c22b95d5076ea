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
        -> [(name: String, bytes: () throws -> [UInt8])]
    {
        let stem = Self.exportStem(of: asset)
        let identifier = LivePhotoInterchange.contentIdentifier(of: asset)
        let stillTime = asset.triggerOffset ?? .zero
        let motion = layout.absolute(LibraryLayout.motionPath(ofStill: asset.path))
        let appleStill = { try LivePhotoInterchange.appleStill(try still(), identifier: identifier) }
        let mov = {
            try self.rewritten(
                motion, as: .mov,
                metadata: [
                    ("com.apple.quicktime.content.identifier", identifier),
                    ("com.apple.quicktime.still-image-time", String(Double(stillTime.nanoseconds) / 1e9)),
                ])
        }
        let motionPhoto = {
            try LivePhotoInterchange.motionPhoto(
                try still(), mp4: try self.rewritten(motion, as: .mp4, metadata: []),
                presentationMicroseconds: stillTime.nanoseconds / 1000)
        }
        return [(stem + ".jpg", appleStill), (stem + ".mov", mov), (stem + ".MP.jpg", motionPhoto)]
    }

    /// `source` rewritten as `container` into a scratch file under `cache/`, read back and removed.
    private func rewritten(
        _ source: String, as container: LibavClipRemuxer.Container, metadata: [(String, String)]
    )
        throws -> [UInt8]
    {
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
                path: source, reason: "its motion clip could not be rewritten (\(error))")
        }
        return try POSIXFiles.read(scratch)
    }
}
