// Thumbnails kept in memory, so that one already sent is served without the library.

import HTTPTypes
import NIOCore
import Synchronization

/// The thumbnails the server has sent, by photo and size, bounded in bytes (the oldest
/// go first). A photo's entries go as soon as the library reports it changed (edited,
/// deleted, restored, purged); a thumbnail read while such a change lands is not kept.
final class ThumbnailCache: Sendable {
    /// A thumbnail ready to send: its bytes and their entity tag.
    struct Entry: Sendable {
        /// The JPEG.
        let body: ByteBuffer
        /// A quoted strong entity tag of the bytes.
        let etag: String

        /// The answer to a request for it: 304 when `ifNoneMatch` names its tag, else 200 with
        /// the JPEG (the body, nil for 304).
        func answer(ifNoneMatch: String?) -> (head: HTTPResponse, body: ByteBuffer?) {
            var headers: HTTPFields = [.cacheControl: "private, no-cache", .eTag: etag]
            if ThumbnailCache.matches(ifNoneMatch, etag) {
                return (HTTPResponse(status: .notModified, headerFields: headers), nil)
            }
            headers[.contentType] = "image/jpeg"
            return (HTTPResponse(status: .ok, headerFields: headers), body)
        }
    }

    private struct Key: Hashable {
        let id: String
        let size: Int
    }

    private struct State {
        var entries: [Key: (entry: Entry, serial: UInt64)] = [:]
        /// Insertion order, oldest first from `head` (a key whose serial no longer matches
        /// was replaced or dropped since).
        var order: [(key: Key, serial: UInt64)] = []
        var head = 0
        var bytes = 0
        var serial: UInt64 = 0
        /// Moves on every reported change: a read begun before it is not kept.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Bytes kept at most.
    let capacity: Int
    /// A thumbnail larger than this is sent but not kept.
    let largestEntry: Int
    private let observation = Mutex<(any Sendable)?>(nil)

    /// A cache of at most `capacity` bytes.
    init(capacity: Int = 8 << 20, largestEntry: Int = 512 << 10) {
        self.capacity = capacity
        self.largestEntry = largestEntry
    }

    /// Follows the library's changes; until called (or when the library cannot report its
    /// changes) nothing is kept.
    func follow(_ library: any WebLibraryReading) {
        let token = library.observeChanges { [weak self] ids in self?.forget(ids) }
        observation.withLock { $0 = token }
    }

    /// The kept thumbnail of photo `id` at `size`.
    func entry(id: String, size: Int) -> Entry? {
        state.withLock { $0.entries[Key(id: id, size: size)]?.entry }
    }

    /// The generation to pass to `keep` for a read that starts now.
    func generation() -> UInt64 { state.withLock { $0.generation } }

    /// Keeps `jpeg` as photo `id`'s thumbnail at `size`, unless a change was reported since
    /// `generation`; returns the entry to send either way.
    func keep(_ jpeg: [UInt8], id: String, size: Int, readAt generation: UInt64) -> Entry {
        let entry = Entry(body: ByteBuffer(bytes: jpeg), etag: Self.etag(jpeg))
        guard jpeg.count <= largestEntry, observation.withLock({ $0 != nil }) else { return entry }
        state.withLock { state in
            guard state.generation == generation else { return }
            let key = Key(id: id, size: size)
            if let old = state.entries[key] { state.bytes -= old.entry.body.readableBytes }
            state.serial += 1
            state.entries[key] = (entry, state.serial)
            state.order.append((key, state.serial))
            state.bytes += jpeg.count
            while state.bytes > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let kept = state.entries[oldest.key], kept.serial == oldest.serial {
                    state.entries.removeValue(forKey: oldest.key)
                    state.bytes -= kept.entry.body.readableBytes
                }
            }
            if state.head > 64, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
        return entry
    }

    /// Drops every entry of the photos `ids` (the library reported them changed).
    func forget(_ ids: [String]) {
        state.withLock { state in
            state.generation += 1
            guard !state.entries.isEmpty else { return }
            let changed = Set(ids)
            for key in state.entries.keys where changed.contains(key.id) {
                if let gone = state.entries.removeValue(forKey: key) {
                    state.bytes -= gone.entry.body.readableBytes
                }
            }
        }
    }

    /// Bytes kept now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// Whether an `If-None-Match` value names `etag` (or is `*`).
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            var tag = item.drop(while: blank)
            while let last = tag.last, blank(last) { tag.removeLast() }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    /// A strong entity tag: the bytes' length and 64-bit FNV-1a hash.
    static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return "\"\(String(bytes.count, radix: 16))-\(String(hash, radix: 16))\""
    }
}
