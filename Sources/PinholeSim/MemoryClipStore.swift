// A clip store in memory for tests and the command fuzzer: each clip's bytes, fragment boundaries and facts.

import PinholeCore
import SystemPackage

/// Keeps clips in memory. `capacity` makes writes fail past that many bytes (a full disk).
public final class MemoryClipStore: ClipStore, @unchecked Sendable {
    /// One clip.
    public final class Clip: ClipRecording {
        /// Its bytes.
        public private(set) var bytes: [UInt8] = []
        /// Sizes at each fragment boundary.
        public private(set) var boundaries: [Int] = []
        /// What it was completed with; nil while recording.
        public private(set) var facts: ClipFacts?
        /// Whether it was removed.
        public private(set) var discarded = false
        let capacity: Int
        let index: Int

        init(index: Int, capacity: Int) {
            self.index = index
            self.capacity = capacity
        }

        /// Appends, or fails past the capacity.
        public func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
            guard self.bytes.count + bytes.count <= capacity else {
                throw .storage("no space left on device")
            }
            self.bytes.append(contentsOf: bytes)
        }

        /// Records the boundary.
        public func fragmentCompleted() throws(VideoError) { boundaries.append(bytes.count) }

        /// Keeps the facts.
        public func complete(_ facts: ClipFacts) throws -> SavedClip {
            self.facts = facts
            return SavedClip(
                id: "clip\(index)", path: FilePath("/clips/clip\(index).mp4"), byteCount: Int64(bytes.count),
                frameCount: facts.frameCount, durationSeconds: Double(facts.durationMicroseconds) / 1_000_000)
        }

        /// Marks it removed.
        public func discard() { discarded = true }
    }

    /// Clips begun, oldest first.
    public private(set) var clips: [Clip] = []
    /// Bytes each clip may hold.
    public var capacity = Int.max

    /// Creates an empty store.
    public init() {}

    /// Starts a clip.
    public func beginClip(startedAt: WallTime?) throws -> any ClipRecording {
        let clip = Clip(index: clips.count, capacity: capacity)
        clips.append(clip)
        return clip
    }

    /// Live Photos' motion clips by photo: their bytes and window.
    public private(set) var motions: [String: (bytes: [UInt8], window: MotionWindow)] = [:]

    /// Keeps a Live Photo's motion clip (`/motion/ID.mp4`).
    public func attachMotion(
        toPhoto photoID: String, write: (any ClipSink) throws(VideoError) -> MotionWindow
    ) throws -> FilePath {
        let sink = MemoryClipSink()
        let window = try write(sink)
        motions[photoID] = (sink.bytes, window)
        return FilePath("/motion/\(photoID).mp4")
    }
}
