// A line-oriented TCP client run off the event loop (gpsd's JSON reports), behind a protocol.

/// An open (or opening) connection; closing it stops its reader.
public protocol LineConnection: AnyObject, Sendable {
    /// Closes the connection. No callback runs after this returns. Safe to call twice.
    func close()
}

/// Opens connections whose lines are read on another thread.
public protocol LineConnector: Sendable {
    /// Connects to `host:port` in the background, sends `greeting`, then calls `onLine` for
    /// each line (without its newline; an over-long line is cut off at `maxLine` bytes and
    /// the rest of it skipped) and finally `onClosed` once, with the reason, when the
    /// connection fails or ends. Callbacks run on the reader's thread: post them to a loop.
    func open(
        host: String, port: Int, greeting: [UInt8], maxLine: Int,
        onLine: @escaping @Sendable ([UInt8]) -> Void,
        onClosed: @escaping @Sendable (String) -> Void
    ) -> any LineConnection
}
