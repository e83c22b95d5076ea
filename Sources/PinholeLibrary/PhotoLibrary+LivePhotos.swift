// Live Photos: one asset with two resources, the still (`ID.jpg`) and its motion clip (`ID.motion.mp4`) beside it.

import PinholeCore
import PinholeLibav
import SystemPackage

extension LibraryLayout {
    /// The motion resource of the Live Photo whose still is `stillPath` (`….jpg`): `….motion.mp4`.
    static func motionPath(ofStill stillPath: String) -> String {
        (stillPath.hasSuffix(".jpg") ? String(stillPath.dropLast(4)) : stillPath) + motionSuffix
    }

    /// The end of a motion resource's file name.
    static let motionSuffix = ".motion.mp4"
}

extension PhotoLibrary {
    /// The absolute path of a Live Photo's motion clip; nil for a photo or a clip.
    public func motionFilePath(of asset: Asset) -> FilePath? {
        motionAbsolutePath(of: asset).map { FilePath($0) }
    }

    /// `motionFilePath(of:)` as the library's own file layer takes it.
    func motionAbsolutePath(of asset: Asset) -> String? {
        asset.mediaType == .live ? layout.absolute(LibraryLayout.motionPath(ofStill: asset.path)) : nil
    }

    /// Makes the photo `id` a Live Photo with the clip at `file` (an MP4 from the pre-roll
    /// ring around the still's exposure, or the MOV of an imported pair): the clip is checked
    /// by libavformat, copied durably beside the still as `ID.motion.mp4` (file, fsync, a
    /// rename that never replaces, the directory's fsync), then the asset becomes `live` with
    /// the clip's duration, rate and codec and `stillOffset` (where the still falls in the
    /// clip) in one commit. A cut between the two leaves a motion file that the next open's
    /// recovery pass attaches the same way.
    /// - Throws: `LibraryError.assetNotFound`, `.invalidRequest` when the asset is not a photo,
    ///   `.invalidImage` when libavformat reads no frame in `file`.
    @discardableResult
    public func attachMotion(to id: String, clip file: FilePath, stillOffset: Duration) throws -> Asset {
        let asset = try stillToPair(id)
        let probed: ProbedClip
        do {
            probed = try LibavClipReader.probe(file)
        } catch {
            throw LibraryError.invalidImage(
                path: file.string, reason: "not a movie Pinhole can read (\(error))")
        }
        return try storeMotion(of: asset, record: ClipRecord(probed), stillOffset: stillOffset) { write in
            try self.stream(file.string, to: write)
        }
    }

    /// Makes the photo `id` a Live Photo with `clipBytes` (an MP4 the recorder wrote from the
    /// pre-roll ring) as its motion clip: written durably beside the still, checked by
    /// libavformat there (removed again when it reads no frame), then indexed as
    /// `attachMotion(to:clip:stillOffset:)` does.
    @discardableResult
    public func attachMotion(to id: String, clipBytes: [UInt8], stillOffset: Duration) throws -> Asset {
        let asset = try stillToPair(id)
        return try storeMotion(of: asset, record: nil, stillOffset: stillOffset) { write in
            try clipBytes.withUnsafeBytes { try write($0) }
        }
    }

    /// Makes the photo `id` a Live Photo with the `length` bytes at `offset` of `file` (a
    /// Motion Photo's appended MP4) as its motion clip, streamed in pieces of
    /// `options.streamChunkBytes`, then checked and indexed as `attachMotion(to:clipBytes:stillOffset:)`.
    @discardableResult
    func attachMotion(
        to id: String, videoIn file: String, at offset: Int64, length: Int64, stillOffset: Duration
    )
        throws -> Asset
    {
        let asset = try stillToPair(id)
        return try storeMotion(of: asset, record: nil, stillOffset: stillOffset) { write in
            try self.stream(file, from: offset, count: length, to: write)
        }
    }

    /// The photo `id`, refused when missing or not a photo.
    private func stillToPair(_ id: String) throws -> Asset {
        guard let asset = try asset(id: id) else { throw LibraryError.assetNotFound(id: id) }
        guard asset.mediaType == .photo else {
            throw LibraryError.invalidRequest("\(id) is a \(asset.mediaType.rawValue), not a photo")
        }
        return asset
    }

    /// Writes the motion file durably (never replacing one), probes it when `record` is nil,
    /// and marks the asset live.
    private func storeMotion(
        of asset: Asset, record: ClipRecord?, stillOffset: Duration, producing produce: ByteProducer
    ) throws -> Asset {
        let motion = layout.absolute(LibraryLayout.motionPath(ofStill: asset.path))
        do {
            try POSIXFiles.writeDurably(to: motion, producing: produce)
        } catch {
            throw mapped(error)
        }
        var clip = record
        if clip == nil {
            do {
                clip = ClipRecord(try LibavClipReader.probe(FilePath(motion)))
            } catch {
                try? POSIXFiles.remove(motion)
                throw LibraryError.invalidImage(
                    path: motion, reason: "the motion clip is not a movie Pinhole can read (\(error))")
            }
        }
        guard let clip else { return asset }
        try markLive(asset.id, clip, stillOffset: stillOffset)
        return try self.asset(id: asset.id) ?? asset
    }

    /// Records in the index that `id` is a Live Photo whose motion clip is `record`.
    func markLive(_ id: String, _ record: ClipRecord, stillOffset: Duration?) throws {
        let modified = now()
        let (_, delivery) = try write { db, tracker in
            try tracker.willChange(db, assets: [id])
            try db.execute(
                sql: """
                    UPDATE asset SET media_type = 'live', duration_us = ?, frame_rate = ?, codec = ?,
                        trigger_us = ?, modified_ns = ?, modified_offset = ?
                    WHERE id = ?
                    """,
                arguments: [
                    record.duration.nanoseconds / 1000, record.frameRate, record.codec,
                    stillOffset.map { $0.nanoseconds / 1000 }, modified.epochNanoseconds,
                    modified.utcOffsetSeconds, id,
                ])
        }
        deliver(delivery)
    }
}
