// A deadline on each write of a long answer: a client that takes no bytes for a while is
// disconnected (Hummingbird's idle timeout does not apply while an answer is being written).

import Hummingbird
import NIOCore

/// A client stopped reading: its answer is abandoned and its connection closed.
struct StalledClientError: Error, CustomStringConvertible {
    /// How long the write waited.
    var waited: Duration

    var description: String { "the client took no bytes for \(waited): disconnected" }
}

/// Writes the parts of a long answer (live view, event stream, original and archive
/// downloads) each within `limit` on `clock`.
/// A write still waiting then is cancelled and `StalledClientError` thrown: the server closes
/// the connection, and the answer's resources (a live-view slot) are given back.
struct StallGuard: Sendable {
    /// How long one write may wait for the client.
    let limit: Duration
    /// The clock the deadline runs on (a test's clock in tests).
    let clock: any Clock<Duration>

    /// Writes `buffer`, or throws `StalledClientError` when the client has not taken it within
    /// `limit`.
    func write(_ buffer: ByteBuffer, to writer: inout any ResponseBodyWriter) async throws {
        // One write at a time, awaited here: the box is never used by two tasks at once.
        let box = WriterBox(writer)
        defer { writer = box.writer }
        let (limit, clock) = (limit, clock)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await box.writer.write(buffer)
                return true
            }
            group.addTask {
                try await clock.sleep(for: limit)
                return false
            }
            // The first to end decides; the other is cancelled (a cancelled write gives up).
            let written = try await group.next() ?? false
            group.cancelAll()
            guard written else { throw StalledClientError(waited: limit) }
        }
    }
}

/// Carries a body writer into the task that writes (see `StallGuard.write`).
private final class WriterBox: @unchecked Sendable {
    var writer: any ResponseBodyWriter

    init(_ writer: any ResponseBodyWriter) {
        self.writer = writer
    }
}
