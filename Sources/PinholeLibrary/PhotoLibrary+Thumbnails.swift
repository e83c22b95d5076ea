// Thumbnails and previews at a requested size and content mode, cached on disk, cancellable.

import PinholeCore
import PinholeImaging
import Synchronization
import SystemPackage

/// A flag to cancel a thumbnail request from another thread.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Creates a flag that is not cancelled.
    public init() {}

    /// Asks the request to stop; it throws `LibraryError.cancelled` at its next checkpoint.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// A rendered thumbnail or preview.
public struct Thumbnail: Sendable, Hashable {
    /// The JPEG.
    public var jpeg: [UInt8]
    /// Its pixel size (upright).
    public var size: PixelSize
    /// Absolute path of the cached file.
    public var file: FilePath
    /// True when it came from the disk cache.
    public var fromCache: Bool
}

extension PhotoLibrary {
    /// A JPEG of the photo upright at `size` (display orientation) with `mode`: the whole
    /// photo inside the size (`aspectFit`) or the size filled and the rest cropped
    /// (`aspectFill`). Rendered with libjpeg-turbo's decode-time scaling, then cached under
    /// `cache/thumbnails/`; `version` chooses the original or the current (edited) look.
    ///
    /// `cancellation` is checked between reading, rendering and caching; a cancelled request
    /// throws `LibraryError.cancelled` and caches nothing.
    public func thumbnail(
        of asset: Asset, size: PixelSize, mode: ContentMode, version: ExportVersion = .current,
        quality: Int = 85, cancellation: Cancellation? = nil
    ) throws -> Thumbnail {
        guard size.width > 0, size.height > 0, size.width <= 8192, size.height <= 8192 else {
            throw LibraryError.invalidRequest("thumbnail size \(size) must be between 1x1 and 8192x8192")
        }
        guard (1...100).contains(quality) else {
            throw LibraryError.invalidRequest("thumbnail quality \(quality) must be 1...100")
        }
        let edit = version == .current && asset.isEdited ? try edit(of: asset.id) : nil
        let tag = edit.map { "r\($0.revision)" } ?? "o"
        let name =
            "\(size.width)x\(size.height)-\(mode == .aspectFit ? "fit" : "fill")-\(tag)-q\(quality).jpg"
        let directory = layout.thumbnails + "/" + asset.id
        let file = directory + "/" + name
        try checkpoint(cancellation)
        if let cached = try? POSIXFiles.read(file), case let .success(info) = JPEGProbe.inspect(cached) {
            return Thumbnail(
                jpeg: cached, size: PixelSize(width: info.width, height: info.height), file: FilePath(file),
                fromCache: true)
        }
        let source = edit.map { layout.absolute($0.renderPath) } ?? layout.absolute(asset.path)
        let jpeg: [UInt8]
        do {
            jpeg = asset.mediaType == .video ? try posterJPEG(of: asset) : try POSIXFiles.read(source)
        } catch {
            throw mapped(error)
        }
        try checkpoint(cancellation)
        let rendered: [UInt8]
        do {
            rendered = try Thumbnailer.render(
                jpeg: jpeg, size: size, mode: mode,
                orientation: edit == nil ? asset.orientation : .up, quality: quality)
        } catch {
            throw LibraryError.invalidImage(path: source, reason: "\(error)")
        }
        try checkpoint(cancellation)
        guard case let .success(info) = JPEGProbe.inspect(rendered) else {
            throw LibraryError.invalidImage(path: source, reason: "the thumbnail renderer produced no JPEG")
        }
        // The cache is disposable: a failure to write it does not fail the request; it is reported.
        cleaning("cache the thumbnail \(file)", consequence: "it is rendered again when asked for") {
            try ensureDirectory(directory)
            try POSIXFiles.writeAtomically(rendered, to: file)
        }
        return Thumbnail(
            jpeg: rendered, size: PixelSize(width: info.width, height: info.height), file: FilePath(file),
            fromCache: false)
    }

    /// The same as the synchronous form, stopping when the calling task is cancelled.
    public func thumbnail(
        of asset: Asset, size: PixelSize, mode: ContentMode,
        version: ExportVersion = .current, quality: Int = 85
    ) async throws -> Thumbnail {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try thumbnail(
                of: asset, size: size, mode: mode, version: version, quality: quality,
                cancellation: cancellation)
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The photo upright (its orientation and edits applied) as pixels fitting in `size`,
    /// for a screen that draws it itself (the console's photo page): the cached `aspectFit`
    /// thumbnail (rendered with the DCT-scaled preview decode), decoded.
    /// - Throws: what `thumbnail(of:size:mode:)` throws.
    public func previewPixels(of asset: Asset, fitting size: PixelSize) throws -> RawImage {
        let small = try thumbnail(of: asset, size: size, mode: .aspectFit)
        do {
            return try JPEGDecoder.decode(small.jpeg, pixelLimit: size.width * size.height)
        } catch {
            throw LibraryError.invalidImage(path: small.file.string, reason: "\(error)")
        }
    }

    /// Removes every cached thumbnail (they are re-rendered on demand); returns how many.
    @discardableResult
    public func clearThumbnailCache() throws -> Int {
        var removed = 0
        for entry in (try? POSIXFiles.list(layout.thumbnails)) ?? [] where entry.isDirectory {
            let directory = layout.thumbnails + "/" + entry.name
            for file in (try? POSIXFiles.list(directory)) ?? [] where !file.isDirectory {
                // Counted only when removed; one that stays is reported.
                if cleaning(
                    "remove the cached thumbnail \(directory)/\(file.name)",
                    consequence: "it stays in the cache",
                    {
                        try POSIXFiles.remove(directory + "/" + file.name)
                    })
                {
                    removed += 1
                }
            }
            POSIXFiles.removeEmptyDirectory(directory)
        }
        return removed
    }

    private func checkpoint(_ cancellation: Cancellation?) throws {
        if cancellation?.isCancelled == true { throw LibraryError.cancelled }
    }
}
