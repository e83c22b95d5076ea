// Where recordings go: a file that grows fragment by fragment, named and indexed when the clip ends.

import SystemPackage

/// Stores clips: the library on a device, a directory in tests. Called from the recording's
/// own thread, never from the loop.
public protocol ClipStore: AnyObject, Sendable {
    /// Starts a clip: a temporary file that grows as fragments come (durable at each
    /// `fragmentCompleted`), not yet in the index. A recording cut short by a power cut is
    /// adopted from it at the next start.
    func beginClip(startedAt: WallTime?) throws -> any ClipRecording
    /// Makes the saved photo `photoID` a Live Photo: `write` writes its motion clip (an MP4)
    /// into the sink it is given; the store keeps it beside the still and returns the motion
    /// file's path.
    func attachMotion(
        toPhoto photoID: String, write: (any ClipSink) throws(VideoError) -> MotionWindow
    ) throws -> FilePath
}

/// A Live Photo's motion clip as written from the pre-roll ring.
public struct MotionWindow: Sendable, Hashable {
    /// Frames in the clip.
    public var frameCount: Int
    /// Where the still's exposure falls in the clip, microseconds from its first frame.
    public var stillOffsetMicroseconds: Int64

    /// Creates a record.
    public init(frameCount: Int, stillOffsetMicroseconds: Int64) {
        self.frameCount = frameCount
        self.stillOffsetMicroseconds = stillOffsetMicroseconds
    }
}

extension ClipStore {
    /// A store that keeps no Live Photos refuses them.
    public func attachMotion(
        toPhoto photoID: String, write: (any ClipSink) throws(VideoError) -> MotionWindow
    ) throws -> FilePath {
        throw VideoError.storage("this store keeps no Live Photos")
    }
}

/// A clip being written: the sink of its container bytes, then named or removed.
public protocol ClipRecording: ClipSink {
    /// Names the file and indexes the clip with `facts` (the file is complete and durable).
    func complete(_ facts: ClipFacts) throws -> SavedClip
    /// Removes the file (a clip that holds no frame).
    func discard()
}

/// What the library records of a clip.
public struct ClipFacts: Sendable {
    /// The movie's metadata (time, place, rotation, camera, clock trust).
    public var metadata: ClipMetadata
    /// Frame size.
    public var size: PixelSize
    /// Frames per second.
    public var fps: Int
    /// The codec (`h264`).
    public var codec: String
    /// Frames in the file.
    public var frameCount: Int
    /// Duration in microseconds (frames × frame period).
    public var durationMicroseconds: Int64
    /// Where the trigger (or `record start`) falls inside the clip, microseconds from its start.
    public var triggerMicroseconds: Int64
    /// Why the clip ended early, when it did (a full disk, the camera gone).
    public var cutShort: String?

    /// Creates facts.
    public init(
        metadata: ClipMetadata, size: PixelSize, fps: Int, codec: String = "h264", frameCount: Int,
        durationMicroseconds: Int64, triggerMicroseconds: Int64, cutShort: String? = nil
    ) {
        self.metadata = metadata
        self.size = size
        self.fps = fps
        self.codec = codec
        self.frameCount = frameCount
        self.durationMicroseconds = durationMicroseconds
        self.triggerMicroseconds = triggerMicroseconds
        self.cutShort = cutShort
    }
}

/// A stored clip.
public struct SavedClip: Sendable, Hashable {
    /// The library's identifier.
    public var id: String
    /// The file's path.
    public var path: FilePath
    /// Its size in bytes.
    public var byteCount: Int64
    /// Frames in it.
    public var frameCount: Int
    /// Duration in seconds.
    public var durationSeconds: Double

    /// Creates a record.
    public init(id: String, path: FilePath, byteCount: Int64, frameCount: Int, durationSeconds: Double) {
        self.id = id
        self.path = path
        self.byteCount = byteCount
        self.frameCount = frameCount
        self.durationSeconds = durationSeconds
    }
}
