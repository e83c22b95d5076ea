// A backend for router tests: records the typed commands it is asked to run and serves a
// small library of real JPEG files from a temporary directory.

import PinholeConsole
import PinholeCore
import PinholeWeb
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Records commands and logins; answers from a fixed library.
final class FakeWebBackend: WebBackend {
    let commands = Mutex<[ConsoleInvocation]>([])
    let pins = Mutex<[String]>([])
    let answer: @Sendable (ConsoleInvocation) -> String
    let pin: String?
    /// Wrong PINs left before the (shared) lock-out.
    let remaining = Mutex(3)
    let library: any WebLibraryReading
    let frame: WebFrame?
    let eventLines: AsyncStream<String>
    let eventSink: AsyncStream<String>.Continuation

    init(
        pin: String? = "2468", library: FakeLibrary, frame: WebFrame? = nil,
        answer: @escaping @Sendable (ConsoleInvocation) -> String = { _ in "ok done" }
    ) {
        self.pin = pin
        self.library = library
        self.frame = frame
        self.answer = answer
        (eventLines, eventSink) = AsyncStream<String>.makeStream()
    }

    func run(_ invocation: ConsoleInvocation) async -> String {
        commands.withLock { $0.append(invocation) }
        return answer(invocation)
    }

    func login(pin: String) async -> WebLoginOutcome {
        pins.withLock { $0.append(pin) }
        guard let expected = self.pin else { return .accepted }
        return remaining.withLock { left in
            guard left > 0 else { return .lockedOut(seconds: 60) }
            if pin == expected { return .accepted }
            left -= 1
            return left == 0 ? .lockedOut(seconds: 60) : .wrong(remaining: left)
        }
    }

    func hasPIN() async -> Bool { pin != nil }

    /// The PIN's changes so far (a test bumps it).
    let pinChanges = Atomic<Int>(0)
    var pinGeneration: Int { pinChanges.load(ordering: .relaxed) }

    func viewfinderFrame() async -> WebFrame? { frame }

    func events() -> AsyncStream<String> { eventLines }

    var ran: [ConsoleInvocation] { commands.withLock { $0 } }
}

/// A library of `count` photos, each a small file in a temporary directory, newest first.
final class FakeLibrary: WebLibraryReading {
    let directory: String
    let ids: [String]
    let bytes: [UInt8]
    /// Photos that are clips: id → `video` or `live` (a Live Photo has a motion file).
    let clips: [String: String]

    /// `count` photos; the indexes in `clips` are clips of that kind (`video`, `live`).
    init(count: Int, clips: [Int: String] = [:]) {
        var template = Array("/tmp/pinhole-web-test-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        ids = (0..<count).map { index in
            let hex = String(index, radix: 16)
            return "0190a5c0-0000-7000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
        }
        bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        self.clips = Dictionary(uniqueKeysWithValues: clips.map { [ids] in (ids[$0.key], $0.value) })
        for id in ids {
            let fd = open(directory + "/" + id + ".jpg", O_CREAT | O_WRONLY | O_TRUNC, 0o644)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        for (id, kind) in self.clips where kind == "live" {
            let fd = open(motionPath(id), O_CREAT | O_WRONLY | O_TRUNC, 0o644)
            _ = motionBytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }

    /// A Live Photo's motion file's bytes (3000 of them).
    var motionBytes: [UInt8] { (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) } }

    func motionPath(_ id: String) -> String { directory + "/" + id + ".motion.mp4" }

    func remove() {
        for id in ids { unlink(directory + "/" + id + ".jpg") }
        for id in clips.keys { unlink(motionPath(id)) }
        rmdir(directory)
    }

    func albums() throws -> [LibraryAlbumRow] {
        [
            LibraryAlbumRow(id: "smart:all", title: "All Photos", count: ids.count),
            LibraryAlbumRow(id: "0190a5c0-0000-7000-8000-aaaaaaaaaaaa", title: "Birds <&>", count: 0),
        ]
    }

    func photos(in source: LibraryAlbumRow, offset: Int, limit: Int) throws -> [LibraryPhotoRow] {
        Array(ids.dropFirst(offset).prefix(limit)).map(row)
    }

    func photos(in source: String, after: String?, limit: Int) throws -> (
        rows: [LibraryPhotoRow], next: String?
    ) {
        guard source == "smart:all" else { throw FakeError.noAlbum }
        let start = after.flatMap { ids.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let page = Array(ids[start...].prefix(limit))
        return (page.map(row), start + page.count < ids.count ? page.last : nil)
    }

    func photo(id: String) throws -> LibraryPhotoDetail? {
        guard ids.contains(id) else { return nil }
        var detail = LibraryPhotoDetail(
            id: id, file: FilePath(directory + "/" + id + ".jpg"), created: "2026-11-26T12:00:00Z",
            added: "2026-11-26T12:00:01Z", width: 4056, height: 3040, favorite: false, edited: false)
        detail.latitude = 46.5
        detail.longitude = 6.6
        detail.iso = 100
        detail.model = "<script>alert(1)</script>"
        if let kind = clips[id] {
            detail.clipKind = kind
            detail.clipLength = "3.0 s"
        }
        return detail
    }

    /// Thumbnails the fake has rendered differently from `bytes` (an edit).
    let edited = Mutex<[String: [UInt8]]>([:])
    /// How many thumbnails were read from this library.
    let thumbnailReads = Atomic<Int>(0)
    private let changeHandlers = Mutex<[@Sendable ([String]) -> Void]>([])

    func thumbnailJPEG(id: String, size: Int) throws -> [UInt8]? {
        guard ids.contains(id) else { return nil }
        thumbnailReads.add(1, ordering: .relaxed)
        return edited.withLock { $0[id] } ?? bytes
    }

    func observeChanges(_ handler: @escaping @Sendable ([String]) -> Void) -> (any Sendable)? {
        changeHandlers.withLock { $0.append(handler) }
        return "observing"
    }

    /// Gives photo `id` a new thumbnail and reports the change, as the library does after an edit.
    func edit(_ id: String, thumbnail: [UInt8]) {
        edited.withLock { $0[id] = thumbnail }
        for handler in changeHandlers.withLock({ $0 }) { handler([id]) }
    }

    func originalFile(id: String) throws -> (path: FilePath, size: Int64, name: String)? {
        guard ids.contains(id) else { return nil }
        return (
            FilePath(directory + "/" + id + ".jpg"), Int64(bytes.count),
            id + (clips[id] == "video" ? ".mp4" : ".jpg")
        )
    }

    func motionFile(id: String) throws -> (path: FilePath, size: Int64, name: String)? {
        clips[id] == "live" ? (FilePath(motionPath(id)), Int64(motionBytes.count), id + ".motion.mp4") : nil
    }

    private func row(_ id: String) -> LibraryPhotoRow {
        var row = LibraryPhotoRow(
            id: id, created: "2026-11-26T12:00:00Z", camera: "back", width: 4056, height: 3040,
            favorite: false,
            edited: false, deleted: nil)
        if let kind = clips[id] {
            row.clipKind = kind
            row.clipLength = "3.0 s"
        }
        return row
    }

    enum FakeError: Error { case noAlbum }
}
