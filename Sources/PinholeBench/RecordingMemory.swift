// Where the recording appliance's peak memory goes (libav's libraries, libx264's state, Pinhole's own) and the verdict against issue 21's budget.

import Foundation

/// The recording's peak above the idle appliance, split from /proc/PID/smaps readings of the
/// same run: the idle reading (at the appliance's first answer) against the highest reading
/// taken while recording (every 0.5 s). libx264's and libavcodec's own state is the anonymous
/// memory the bench's encode part added with the same settings; Pinhole's own part is the rest.
struct RecordingMemory {
    var idle: MemoryMapReading?
    var highest: MemoryMapReading?
    var readings: Int
    /// VmHWM while recording less the idle VmHWM, bytes.
    var peakAboveIdle: Double
    /// 3 × one 1080p YUV frame + the ring's byte limit, bytes.
    var budget: Double
    var encoder: RecordingBenchmark.EncoderFigures

    /// Bytes by owner, nil when a reading is missing.
    struct Parts {
        /// libav's shared objects (and those they pull in) mapped since the idle reading.
        var libraries: Double
        var libraryFiles: Int
        var libraryFilePages: Double
        var libraryAnonymous: Double
        /// Anonymous memory grown since idle (heap, stacks, large allocations).
        var anonymous: Double
        /// The binary's and idle's libraries' pages grown since idle.
        var other: Double
        /// VmHWM above the highest reading's resident: a peak between two readings.
        var unsampled: Double
        /// Of `anonymous`, libx264's, libavcodec's and the muxer's state (the encode part's).
        var encoderState: Double
        /// What is left: Pinhole's frames, queue, poster, ring, fragment, the binary's pages,
        /// and the unsampled peak.
        var pinhole: Double { max(0, anonymous - encoderState) + other + unsampled }
        var libavMappedAtIdle: Bool
    }

    var parts: Parts? {
        guard let idle, let highest else { return nil }
        let (before, at) = (idle.split(since: idle), highest.split(since: idle))
        let kB = { (value: Int) in Double(value * 1024) }
        let sampled = kB(highest.residentKB - idle.residentKB)
        return Parts(
            libraries: kB(at.newObjectsKB), libraryFiles: at.newFiles, libraryFilePages: kB(at.newFileKB),
            libraryAnonymous: kB(at.newAnonymousKB), anonymous: kB(at.anonymousKB - before.anonymousKB),
            other: kB(at.otherKB - before.otherKB), unsampled: max(0, peakAboveIdle - sampled),
            encoderState: encoder.anonymousBytes, libavMappedAtIdle: idle.maps("/libavcodec.so"))
    }

    func print() {
        let mb = { (bytes: Double) in String(format: "%.1f MB", bytes / 1_048_576) }
        let times = { (bytes: Double) in String(format: "%.2fx", bytes / budget) }
        guard let parts else {
            Swift.print("video.record.split      failed: /proc/PID/smaps could not be read")
            return
        }
        Swift.print(
            "video.record.split      of the \(mb(peakAboveIdle)) above idle (smaps, highest of \(readings) readings"
                + " every 0.5 s; libav \(parts.libavMappedAtIdle ? "WAS" : "was not") mapped at the idle reading):"
                + " libav's \(parts.libraryFiles) shared objects mapped by the recording \(mb(parts.libraries))"
                + " (file pages \(mb(parts.libraryFilePages)), relocated/data/bss \(mb(parts.libraryAnonymous)));"
                + " anonymous +\(mb(parts.anonymous)), of which libx264's + libavcodec's + the muxer's state"
                + " \(mb(parts.encoderState)) (the encode part's, same settings) and Pinhole's"
                + " \(mb(max(0, parts.anonymous - parts.encoderState))); the binary's and idle's libraries' pages"
                + " +\(mb(parts.other)); between readings \(mb(parts.unsampled))")
        let met = peakAboveIdle < budget
        guard !parts.libavMappedAtIdle else {
            // The ring's encoder started before the idle reading: libav's pages and libx264's
            // state are in the reference, and the parts above cannot be told apart.
            Swift.print(
                "video.record.verdict    total \(mb(peakAboveIdle)) = \(times(peakAboveIdle)) the budget"
                    + " \(mb(budget)): \(met ? "met" : "not met"); Pinhole's own part: no figure (libav was already"
                    + " mapped at the idle reading: rerun)")
            return
        }
        Swift.print(
            "video.record.verdict    total \(mb(peakAboveIdle)) = \(times(peakAboveIdle)) the budget"
                + " \(mb(budget)): \(met ? "met" : "not met")"
                + (met
                    ? ""
                    : ", and not reachable with libx264 in the process: its state alone is"
                        + " \(mb(parts.encoderState)) = \(times(parts.encoderState)) and mapping FFmpeg's libraries"
                        + " \(mb(parts.libraries)) = \(times(parts.libraries)) (measured floors)")
                + "; Pinhole's own part \(mb(parts.pinhole)) = \(times(parts.pinhole)) the budget:"
                + " \(parts.pinhole < budget ? "met" : "not met") (aim < 1x)")
    }
}
