// A clip's poster frame: the frame at its trigger, decoded from the file, as the JPEG its thumbnails come from.

import PinholeCore
import PinholeImaging
import PinholeLibav
import SystemPackage

extension PhotoLibrary {
    /// The poster of a clip as a JPEG: the frame at its trigger (`record start`, the trigger
    /// line, the Live Photo's still), else its first frame, decoded from the file through
    /// libavcodec. Thumbnails and previews are rendered from it and cached like a photo's, so
    /// a clip recorded, imported or adopted after a power cut has one.
    /// - Throws: `LibraryError.invalidImage` when the file does not decode.
    public func posterJPEG(of asset: Asset) throws -> [UInt8] {
        let path = layout.absolute(asset.path)
        do {
            let frame = try LibavClipReader.frame(
                of: FilePath(path), expected: asset.pixelSize,
                at: (asset.triggerOffset ?? .zero).nanoseconds / 1000)
            return try JPEGEncoder(quality: 90, threads: 1).encode(frame)
        } catch let error as VideoError {
            throw LibraryError.invalidImage(path: path, reason: "its poster frame: \(error)")
        } catch {
            throw LibraryError.invalidImage(path: path, reason: "its poster frame: \(error)")
        }
    }
}
