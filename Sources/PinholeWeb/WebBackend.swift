// What the web server asks of the appliance: commands, the PIN, the library, frames, events.

import PinholeConsole
import PinholeCore
import SystemPackage

/// The outcome of a login with the console's PIN.
public enum WebLoginOutcome: Equatable, Sendable {
    /// The PIN was right (or no PIN is set).
    case accepted
    /// Wrong PIN; `remaining` more tries before the shared lock-out.
    case wrong(remaining: Int)
    /// Locked out (by this or by earlier failures on any face) for `seconds`.
    case lockedOut(seconds: Int)
}

/// One live-view frame: a JPEG of the viewfinder stream as the sensor delivers it, and
/// how far the camera is mounted rotated clockwise (the page turns it upright).
public struct WebFrame: Sendable {
    /// The JPEG.
    public var jpeg: [UInt8]
    /// 0, 90, 180 or 270.
    public var rotation: Int
    /// The camera's sequence number of the frame.
    public var sequence: UInt64
    /// The start of the frame's exposure on the loop's monotonic timeline (CLOCK_MONOTONIC on
    /// a board), sent with each part so that a client on the same machine can tell its age.
    public var exposureStart: Instant

    /// Creates a frame.
    public init(jpeg: [UInt8], rotation: Int, sequence: UInt64 = 0, exposureStart: Instant = .zero) {
        self.jpeg = jpeg
        self.rotation = rotation
        self.sequence = sequence
        self.exposureStart = exposureStart
    }
}

/// The appliance as the web server sees it. Every method is safe to call from the server's
/// threads: an implementation hands the work to the appliance's loop (or a worker) and
/// answers when it is done; it never blocks the loop on a client.
public protocol WebBackend: Sendable {
    /// Runs one of the console's typed commands for a session that has passed the PIN, in
    /// turn with the console's own commands; the answer line as the console would print it.
    func run(_ invocation: ConsoleInvocation) async -> String
    /// Checks a PIN against the console's hash, counting towards the console's lock-out.
    func login(pin: String) async -> WebLoginOutcome
    /// Whether the console has a PIN set (without one, a login needs no PIN).
    func hasPIN() async -> Bool
    /// How many times the PIN was set, changed or cleared since the start (read from any
    /// thread): a session opened under an older generation is over.
    var pinGeneration: Int { get }
    /// The library, read through the menu's protocol (called on a worker thread).
    var library: any WebLibraryReading { get }
    /// The newest viewfinder frame as a JPEG (nil: no camera running).
    func viewfinderFrame() async -> WebFrame?
    /// Events as the console's line mode reports them (`saved ID FILE`, `torch on`…), from
    /// now on. The stream keeps the newest few if its reader is slow; ending the iteration
    /// unsubscribes.
    func events() -> AsyncStream<String>
}

/// The web gallery's reading of the library: the menu's `LibraryReading` plus keyset pages
/// and files to serve.
public protocol WebLibraryReading: LibraryReading {
    /// A page of photos after the one with id `after` (from the start when nil), in the
    /// source's order, by the library's keyset paging; `next` is the last id when more follow.
    func photos(in source: String, after: String?, limit: Int) throws -> (
        rows: [LibraryPhotoRow], next: String?
    )
    /// A JPEG thumbnail of the photo fitting `size` square (from the library's cache, rendered
    /// if needed); nil: no such photo.
    func thumbnailJPEG(id: String, size: Int) throws -> [UInt8]?
    /// Calls `handler` with the ids of photos after every committed change to them (edited,
    /// deleted, restored, purged, favorited…), until the returned token is released. Nil:
    /// this library cannot report changes (the server then keeps no thumbnail in memory).
    func observeChanges(_ handler: @escaping @Sendable ([String]) -> Void) -> (any Sendable)?
    /// The path and byte size of the photo's original (nil: no such photo).
    func originalFile(id: String) throws -> (path: FilePath, size: Int64, name: String)?
    /// The path and byte size of a Live Photo's motion clip (nil: no such photo, or not a
    /// Live Photo).
    func motionFile(id: String) throws -> (path: FilePath, size: Int64, name: String)?
}
