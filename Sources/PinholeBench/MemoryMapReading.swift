// A process's /proc/PID/smaps summed by owner: shared objects mapped since a reference reading, anonymous memory, the rest.

import Foundation

/// One reading of `/proc/PID/smaps`: every mapping's resident and anonymous kB. `split(since:)`
/// says how much of the growth since an earlier reading is shared objects mapped in between
/// (their file pages, and their relocated, `.data` and `.bss` pages, which are anonymous) and how
/// much is anonymous memory (heap, thread stacks, malloc's and libraries' own maps).
struct MemoryMapReading {
    struct Mapping {
        var start: UInt64
        var end: UInt64
        /// The mapped file's path, a `[name]` of the kernel's, or empty (anonymous).
        var path: String
        var residentKB: Int
        var anonymousKB: Int
    }

    var mappings: [Mapping]

    /// Resident kB of all mappings (VmRSS, as smaps counts it).
    var residentKB: Int { mappings.reduce(0) { $0 + $1.residentKB } }

    /// The files mapped (shared objects, the binary, other mapped files).
    var files: Set<String> { Set(mappings.map(\.path).filter { $0.hasPrefix("/") }) }

    /// Whether a mapped file's path contains `name` (e.g. "/libavcodec.so").
    func maps(_ name: String) -> Bool { mappings.contains { $0.path.contains(name) } }

    /// The process's smaps now; nil when it cannot be read (the process ended).
    static func read(_ pid: Int32) -> MemoryMapReading? {
        // Read to the end: /proc files have no size, a one-shot read would stop at a page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return nil }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return parse(text)
    }

    /// Parses smaps text: a header line per mapping (`start-end perms offset dev inode [path]`),
    /// then `Key: value kB` lines.
    static func parse(_ text: String) -> MemoryMapReading? {
        var mappings: [Mapping] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = words.first else { continue }
            if first.hasSuffix(":") {
                guard !mappings.isEmpty, words.count >= 2, let kB = Int(words[1]) else { continue }
                if first == "Rss:" { mappings[mappings.count - 1].residentKB = kB }
                if first == "Anonymous:" { mappings[mappings.count - 1].anonymousKB = kB }
                continue
            }
            let range = first.split(separator: "-")
            guard range.count == 2, let start = UInt64(range[0], radix: 16),
                let end = UInt64(range[1], radix: 16)
            else { continue }
            let path = words.count > 5 ? words[5...].joined(separator: " ") : ""
            mappings.append(Mapping(start: start, end: end, path: path, residentKB: 0, anonymousKB: 0))
        }
        return mappings.isEmpty ? nil : MemoryMapReading(mappings: mappings)
    }

    /// Resident kB by owner, against the files an earlier reading mapped.
    struct Split {
        /// Shared objects (and other files) mapped since the earlier reading: how many, their
        /// file pages, and their anonymous pages (relocations, written `.data`, `.bss`).
        var newFiles = 0
        var newFileKB = 0
        var newAnonymousKB = 0
        /// Anonymous mappings that belong to no file: heap, thread stacks, large mallocs.
        var anonymousKB = 0
        /// Everything else: the binary and the shared objects the earlier reading mapped too.
        var otherKB = 0

        var newObjectsKB: Int { newFileKB + newAnonymousKB }
        var totalKB: Int { newObjectsKB + anonymousKB + otherKB }
    }

    /// This reading's pages by owner; "new" are the files `earlier` did not map. An unnamed
    /// mapping that starts where a file's mapping ends is that file's `.bss`.
    func split(since earlier: MemoryMapReading) -> Split {
        let before = earlier.files
        var split = Split()
        var newPaths = Set<String>()
        var previous: Mapping?
        for mapping in mappings {
            let owner: String
            if mapping.path.isEmpty, let previous, previous.end == mapping.start, previous.path.hasPrefix("/")
            {
                owner = previous.path  // a shared object's .bss
            } else {
                owner = mapping.path
            }
            if owner.hasPrefix("/") && !before.contains(owner) {
                newPaths.insert(owner)
                split.newAnonymousKB += mapping.anonymousKB
                split.newFileKB += mapping.residentKB - mapping.anonymousKB
            } else if owner.isEmpty || owner == "[heap]" || owner == "[stack]" || owner.hasPrefix("[anon") {
                split.anonymousKB += mapping.residentKB
            } else {
                split.otherKB += mapping.residentKB
            }
            previous = mapping
        }
        split.newFiles = newPaths.count
        return split
    }
}

/// Reads a process's smaps every `interval` on its own thread and keeps the reading with the
/// most resident memory (VmHWM may still be higher: a peak between two readings).
final class MemoryMapSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var highest: MemoryMapReading?
    private var stopped = false
    private var thread: Thread?
    private(set) var readings = 0

    init(pid: Int32, interval: TimeInterval = 0.5) {
        let thread = Thread { [self] in
            while !lock.withLock({ stopped }) {
                if let reading = MemoryMapReading.read(pid) {
                    lock.withLock {
                        readings += 1
                        if reading.residentKB > highest?.residentKB ?? -1 { highest = reading }
                    }
                }
                Thread.sleep(forTimeInterval: interval)
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Stops sampling; the highest reading taken.
    func stop() -> MemoryMapReading? {
        lock.withLock {
            stopped = true
            return highest
        }
    }
}
