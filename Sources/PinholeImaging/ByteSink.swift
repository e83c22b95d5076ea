// Where an encoder writes a file's bytes chunk by chunk, so the whole file need never be in memory.

/// Receives a file's bytes in order, chunk by chunk, from one thread at a time.
public protocol ByteSink: AnyObject {
    /// Appends `bytes`; throws when they cannot be kept (the writer then stops).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that keeps every byte in memory.
public final class ByteArraySink: ByteSink {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}
