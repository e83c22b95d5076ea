// Clips the recovery pass finds: a recording cut short becomes a shorter clip, an unindexed clip is adopted.

import PinholeCore
import PinholeLibav

extension PhotoLibrary {
    /// Finishes a recording that a power cut or a kill interrupted (`.ID.mp4.recording`): cut
    /// back to its last whole fragment (a fragment is made durable as soon as it is written,
    /// so at most the one being written is lost), checked by demuxing it, then renamed to
    /// `ID.mp4` without replacing anything. Returns the new relative path, which the pass then
    /// adopts like any unindexed clip; nil when it holds no whole frame or the rename failed
    /// (then it is quarantined, never removed).
    func finishRecording(id: String, relative: String, into report: inout RecoveryReport) -> String? {
        let absolute = layout.absolute(relative)
        let named = POSIXFiles.parentDirectory(of: relative) + "/" + id + ".mp4"
        do {
            guard let whole = try MP4Fragments.wholeLength(of: absolute),
                let size = POSIXFiles.fileSize(absolute)
            else {
                quarantine(relative, into: &report)
                return nil
            }
            if whole < size { try POSIXFiles.truncateDurably(absolute, to: whole) }
            let clip = try LibavClipReader.probe(absolute)
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

    /// The record of an unindexed clip, from what libavformat reads in it; nil when it reads
    /// no frame. Its date is its identifier's (the start of the recording).
    func adoptableClip(id: String, relative: String) -> Asset? {
        let absolute = layout.absolute(relative)
        guard let clip = try? LibavClipReader.probe(absolute), let size = POSIXFiles.fileSize(absolute),
            let checksum = try? Checksum.string(ofFile: absolute)
        else { return nil }
        let added = Identifier.time(of: id) ?? now()
        return Asset(
            clipID: id, path: relative, record: ClipRecord(clip), added: added, created: added,
            fileSize: size,
            checksum: checksum)
    }
}

extension ClipRecord {
    /// What the index records of a clip read back from its file.
    init(_ clip: ProbedClip) {
        self.init(
            size: clip.size, frameRate: clip.frameRate, codec: clip.codec,
            duration: .microseconds(clip.durationMicroseconds))
    }
}
