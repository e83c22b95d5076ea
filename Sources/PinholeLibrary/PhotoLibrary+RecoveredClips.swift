// Clips the recovery pass finds: a recording cut short becomes a shorter clip, an unindexed clip is adopted.

import GRDB
import PinholeCore
import PinholeImaging
import PinholeLibav
import PinholeSystem
import SystemPackage

extension PhotoLibrary {
    /// Finishes a recording that a power cut or a kill interrupted (`.ID.mp4.recording`): cut
    /// back to its last whole fragment (a fragment is made durable as soon as it is written,
    /// so at most the one being written is lost), checked by demuxing it, then renamed to
    /// `ID.mp4` without replacing anything. One cut before its first fragment was whole keeps
    /// the frames libavformat reads whole in it (`salvageFirstFragment`), or, holding not one,
    /// is removed and reported: there is nothing in it to keep. Returns the new relative path,
    /// which the pass then adopts like any unindexed clip; nil when removed, or when it could
    /// not be read or renamed (then it is quarantined, never removed).
    func finishRecording(id: String, relative: String, into report: inout RecoveryReport) -> String? {
        if let reason = clipsUnreadable() {
            report.failedRepairs.append("left the cut recording \(relative) for the next open: \(reason)")
            return nil
        }
        let absolute = layout.absolute(relative)
        let named = POSIXFiles.parentDirectory(of: relative) + "/" + id + ".mp4"
        do {
            guard let whole = try MP4Fragments.whole(of: absolute), whole.fragments > 0,
                let size = POSIXFiles.fileSize(absolute)
            else {
                return try salvageFirstFragment(id: id, relative: relative, named: named, into: &report)
            }
            if whole.length < size { try POSIXFiles.truncateDurably(absolute, to: whole.length) }
            let clip = try LibavClipReader.probe(FilePath(absolute))
            try POSIXFiles.moveDurably(absolute, to: layout.absolute(named))
            report.adoptedRecordings.append(
                "\(id): \(clip.frameCount) frames, "
                    + DurationText.clipLength(.microseconds(clip.durationMicroseconds)))
            return named
        } catch {
            quarantine(relative, into: &report)
            return nil
        }
    }

    /// A recording cut before its first fragment was whole (libavformat writes a fragment when
    /// the next keyframe comes, so a cut in the first second leaves the header, and perhaps part
    /// of the first fragment): the frames read whole are copied by libavformat into `ID.mp4`
    /// (a scratch file, fsync, a rename that never replaces), then the recording is removed.
    /// Not one whole frame (the header alone, or a cut inside the first frame): the recording
    /// is removed and reported, it holds nothing a player could show. Returns `named` when
    /// frames were kept.
    private func salvageFirstFragment(
        id: String, relative: String, named: String, into report: inout RecoveryReport
    ) throws -> String? {
        let absolute = layout.absolute(relative)
        let target = layout.absolute(named)
        // A previous start copied the frames and was cut before removing the recording.
        if POSIXFiles.exists(target), let kept = try? LibavClipReader.probe(FilePath(target)),
            kept.frameCount > 0
        {
            try POSIXFiles.remove(absolute)
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
            return named
        }
        let scratch = DurableFiles.temporaryPath(for: FilePath(target)).string
        defer { try? POSIXFiles.remove(scratch) }
        let frames = try LibavClipRemuxer.salvage(absolute, to: scratch)
        guard frames > 0 else {
            try POSIXFiles.remove(absolute)
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
            report.removedRecordings.append(id)
            return nil
        }
        let clip = try LibavClipReader.probe(FilePath(scratch))
        try POSIXFiles.syncFile(scratch)
        try POSIXFiles.moveDurably(scratch, to: target)
        try POSIXFiles.remove(absolute)
        try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
        report.adoptedRecordings.append(
            "\(id): \(clip.frameCount) frames, "
                + DurationText.clipLength(.microseconds(clip.durationMicroseconds))
                + " (kept from its first fragment, cut before it was whole)")
        return named
    }

    /// Why clips cannot be read in this process (the video shim or FFmpeg's libraries are not
    /// installed: loading them is the first thing a clip read does), nil when they can. Recovery
    /// then leaves a clip where it is, as a failed repair the next open tries again, instead of
    /// quarantining a clip it only cannot read here. Loads libav, so it is asked only when
    /// there is a clip to adopt.
    func clipsUnreadable() -> String? {
        do {
            _ = try LibavVideoBackend().load()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The record of an unindexed clip, from what libavformat reads in it; nil when it reads
    /// no frame. Its date is the movie's creation_time (the start of the recording), else its
    /// identifier's; make, model, place and clock trust come from the movie's metadata.
    func adoptableClip(id: String, relative: String) -> Asset? {
        let absolute = layout.absolute(relative)
        guard let clip = try? LibavClipReader.probe(FilePath(absolute)),
            let size = POSIXFiles.fileSize(absolute),
            let checksum = try? Checksum.string(ofFile: absolute)
        else { return nil }
        let added = Identifier.time(of: id) ?? now()
        let record = ClipRecord(clip)
        return Asset(
            clipID: id, path: relative, record: record, added: added, created: record.created ?? added,
            fileSize: size,
            checksum: checksum)
    }
}

extension PhotoLibrary {
    /// Live Photos' motion clips found on disk: kept when their still is indexed as a Live
    /// Photo; attached when it is indexed as a photo (a cut fell between the clip's durable
    /// write and the index's change, see `attachMotion`); otherwise quarantined.
    func reconcileMotions(_ motions: [String: String], into report: inout RecoveryReport) throws {
        guard !motions.isEmpty else { return }
        let rows = try stillRows(Array(motions.keys))
        for (id, relative) in motions.sorted(by: { $0.key < $1.key }) {
            guard let row = rows[id], LibraryLayout.motionPath(ofStill: row.path) == relative,
                row.type != .video
            else {
                quarantine(relative, into: &report)
                continue
            }
            guard row.type == .photo else { continue }
            if let reason = clipsUnreadable() {
                report.failedRepairs.append("left the motion clip \(relative) for the next open: \(reason)")
                continue
            }
            do {
                try markLive(
                    id, ClipRecord(try LibavClipReader.probe(FilePath(layout.absolute(relative)))),
                    stillOffset: nil)
                report.adoptedAssets.append(id)
            } catch {
                quarantine(relative, into: &report)
            }
        }
    }

    /// Motion clips left under `.purging/` by an interrupted permanent deletion: back beside
    /// their still when the Live Photo is still indexed, removed when it is gone.
    func finishMotionPurges(_ motions: [String: String], into report: inout RecoveryReport) throws {
        guard !motions.isEmpty else { return }
        let rows = try stillRows(Array(motions.keys))
        for (id, relative) in motions.sorted(by: { $0.key < $1.key }) {
            do {
                if let row = rows[id] {
                    try POSIXFiles.moveDurably(
                        layout.absolute(relative),
                        to: layout.absolute(LibraryLayout.motionPath(ofStill: row.path)))
                } else {
                    try POSIXFiles.remove(layout.absolute(relative))
                }
            } catch {
                report.failedRepairs.append(
                    "could not finish the purge of \(id)'s motion clip (\(relative)): \(error)")
            }
        }
    }

    /// The indexed path and media type of `ids` (those that are indexed).
    private func stillRows(_ ids: [String]) throws -> [String: (path: String, type: MediaType)] {
        try read { db in
            var rows: [String: (path: String, type: MediaType)] = [:]
            for id in ids {
                if let row = try Row.fetchOne(
                    db, sql: "SELECT path, media_type FROM asset WHERE id = ?", arguments: [id])
                {
                    rows[id] = (row[0], MediaType(rawValue: row[1]) ?? .photo)
                }
            }
            return rows
        }
    }
}

extension ClipRecord {
    /// What libavformat reads in a movie: stream facts, and the make, model, place, clock
    /// trust and creation time its metadata carries (an imported clip, an adopted recording).
    init(_ clip: ProbedClip) {
        self.init(
            size: clip.size, frameRate: clip.frameRate, codec: clip.codec,
            duration: .microseconds(clip.durationMicroseconds))
        make = clip.make
        model = clip.model
        if let place = clip.coordinates {
            (latitude, longitude, altitude) = (place.latitude, place.longitude, place.altitude)
        }
        clockTrust = clip.clockTrust.flatMap(ClockTrust.init(rawValue:))
        orientation = Orientation(mountRotation: clip.rotationDegrees)
        created = clip.creationMicroseconds.map {
            WallTime(secondsSince1970: $0 / 1_000_000, nanoseconds: Int32($0 % 1_000_000) * 1000)
        }
    }
}
