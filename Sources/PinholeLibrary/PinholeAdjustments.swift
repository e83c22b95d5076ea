// Pinhole's own edit recipe (rotate, crop, exposure, contrast, vignette) and how it is rendered.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import PinholeImaging

/// The recipe Pinhole's editors write: geometry first (lossless where possible), then tone.
/// Stored as JSON in `AdjustmentData` with format `org.pinhole.adjustments`, version `1`.
public struct PinholeAdjustments: Sendable, Codable, Hashable {
    /// The format identifier of this recipe.
    public static let formatIdentifier = "org.pinhole.adjustments"
    /// The version written.
    public static let formatVersion = "1"

    /// Clockwise rotation of the upright photo, in degrees (0, 90, 180, 270).
    public var rotation: Int
    /// Crop of the rotated photo, in its pixels, or nil for none.
    public var crop: PixelRect?
    /// Exposure change in stops.
    public var exposure: Double
    /// Contrast change, -1…1 (0: none).
    public var contrast: Double
    /// Vignette strength, 0…1 (0: none).
    public var vignette: Double

    /// Creates a recipe; the default changes nothing.
    public init(
        rotation: Int = 0, crop: PixelRect? = nil, exposure: Double = 0, contrast: Double = 0,
        vignette: Double = 0
    ) {
        self.rotation = rotation
        self.crop = crop
        self.exposure = exposure
        self.contrast = contrast
        self.vignette = vignette
    }

    /// True when only rotation and crop are set: rendered losslessly with libjpeg-turbo's transform.
    public var isGeometryOnly: Bool { exposure == 0 && contrast == 0 && vignette == 0 }

    /// The recipe as adjustment data.
    public func adjustmentData() throws -> AdjustmentData {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return AdjustmentData(
            formatIdentifier: Self.formatIdentifier, formatVersion: Self.formatVersion,
            data: Array(try encoder.encode(self)))
    }

    /// Reads a recipe back from adjustment data written by Pinhole; nil for another format.
    public init?(_ data: AdjustmentData) {
        guard data.formatIdentifier == Self.formatIdentifier, data.formatVersion == Self.formatVersion,
            let decoded = try? JSONDecoder().decode(PinholeAdjustments.self, from: Data(data.data))
        else { return nil }
        self = decoded
    }
}

/// Renders a recipe from an original to an upright JPEG.
public protocol AdjustmentRenderer: Sendable {
    /// The rendered, upright JPEG of `original` with `adjustments` applied.
    func render(original: [UInt8], adjustments: PinholeAdjustments) throws -> [UInt8]
}

/// Pinhole's renderer: rotation and crop losslessly with libjpeg-turbo's transform (the
/// result is upright, EXIF orientation folded in); exposure, contrast and vignette then
/// re-rendered from those pixels with the imaging module's `EditRenderer`.
public struct StandardAdjustmentRenderer: AdjustmentRenderer {
    /// JPEG quality of re-rendered (tonal) edits.
    public var quality: Int

    /// Creates the renderer.
    public init(quality: Int = 93) { self.quality = quality }

    /// Renders `adjustments` over the original JPEG and returns the edited JPEG.
    public func render(original: [UInt8], adjustments: PinholeAdjustments) throws -> [UInt8] {
        guard adjustments.rotation % 90 == 0 else {
            throw LibraryError.invalidRequest(
                "rotation must be a multiple of 90 degrees, not \(adjustments.rotation)")
        }
        do {
            var jpeg = try LosslessTransform.rotate(
                original, degrees: ((adjustments.rotation % 360) + 360) % 360)
            if let crop = adjustments.crop { jpeg = try LosslessTransform.crop(jpeg, rect: crop) }
            if adjustments.isGeometryOnly { return jpeg }
            let tone = Adjustments(
                exposure: adjustments.exposure, contrast: adjustments.contrast,
                vignette: adjustments.vignette)
            return try EditRenderer.render(jpeg: jpeg, adjustments: tone, orientation: .up, quality: quality)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.invalidRequest("cannot apply the edit: \(error)")
        }
    }
}

extension PhotoLibrary {
    /// Renders `adjustments` from the photo's original with `renderer` and saves the result as
    /// the photo's edit (a new revision; the original is untouched).
    @discardableResult
    public func applyAdjustments(
        _ adjustments: PinholeAdjustments, to id: String,
        renderer: AdjustmentRenderer = StandardAdjustmentRenderer()
    ) throws -> AssetEdit {
        guard let asset = try asset(id: id) else { throw LibraryError.assetNotFound(id: id) }
        // A redated photo's render carries its corrected date, like its exports.
        let rendered = Self.stampedRender(
            of: asset, try renderer.render(original: try originalData(of: asset), adjustments: adjustments))
        let data: AdjustmentData
        do {
            data = try adjustments.adjustmentData()
        } catch {
            throw LibraryError.invalidRequest("cannot encode the edit recipe: \(error)")
        }
        return try saveEdit(of: id, adjustment: data, renderedJPEG: rendered)
    }

    /// The photo's current Pinhole recipe (to reopen and change it), or the neutral recipe
    /// when it has no edit; nil when its edit was made by another editor.
    public func adjustments(of id: String) throws -> PinholeAdjustments? {
        guard let edit = try edit(of: id) else { return PinholeAdjustments() }
        return PinholeAdjustments(edit.adjustment)
    }
}
