// A clip's container bytes kept in memory: a Live Photo's short motion clip before it is stored.

/// Collects what a `ClipWriter` writes; nothing to make durable.
public final class MemoryClipSink: ClipSink {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        self.bytes.append(contentsOf: bytes)
    }

    /// Nothing to do: the owner stores the bytes durably.
    public func fragmentCompleted() throws(VideoError) {}
}
