// The command fuzzer's real photo library, in a scratch folder that is all `library` lines may touch.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibrary
import PinholeLibraryCommandLine
import SystemPackage

/// A real library (SQLite, files) in a scratch folder with `in/` (a photo, a broken clip, a
/// broken photo) to import from and `out/` to export to. `library` lines run through the same
/// command language as `pinhole run`'s console; a line whose folder or file lies outside the
/// scratch folder is answered with an error instead (hostile words could name the working
/// directory or the root).
final class FuzzLibrarySandbox: Sendable {
    /// The scratch folder.
    let root: String
    /// The folders and file `DIR` and `FILE` become.
    let paths: [String]
    /// The library's photos (imported from `in/` at the start).
    let ids: [String]
    private let library: PhotoLibrary

    /// The options whose next word is their value (as the library language reads them).
    private static let valued: Set<String> = [
        "limit", "offset", "camera", "album", "sort", "folder", "size", "mode", "out", "quality",
        "degrees", "rect", "exposure", "contrast", "vignette", "from", "to", "near", "within", "by", "clock",
        "redo", "forget", "type",
    ]

    /// Makes the scratch folder and opens the library in it.
    init(seed: UInt64) throws {
        // In memory where it can be (/dev/shm): the library syncs every change, and on a disk
        // those syncs, not the commands, took 85 % of a run's time.
        let scratch =
            FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        root = scratch + "pinhole-fuzz-\(getpid())-\(seed)-\(UUID().uuidString.prefix(8))"
        for folder in ["in", "out", "lib"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let image = RawImage.yuv420(width: 64, height: 48) { plane, width, _, buffer in
            for index in buffer.indices {
                buffer[index] = UInt8(truncatingIfNeeded: index % width + plane * 40)
            }
        }
        var metadata = PhotoMetadata(pixelWidth: 64, pixelHeight: 48, orientation: .up)
        metadata.captureTime = WallTime(secondsSince1970: 1_795_000_000)
        let jpeg = try PhotoEncoder(quality: 80, threads: 1).encode(image: image, metadata: metadata)
        for (name, bytes) in [
            ("photo.jpg", jpeg), ("clip.mp4", Array("ftypisom not a clip".utf8)),
            ("broken.jpg", Array(jpeg.prefix(100))),
        ] {
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/in/" + name))
        }
        library = try PhotoLibrary.open(at: FilePath(root + "/lib")) {
            WallTime(secondsSince1970: 1_795_000_000)
        }
        ids = try library.importFolder(FilePath(root + "/in")).imported
        paths = [root + "/in", root + "/out", root + "/out/thumb.jpg", root + "/missing"]
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Runs one `library` line's words, unless it names a path outside the scratch folder.
    func run(_ words: [String]) throws -> String {
        try checkPaths(words)
        return try LibraryCommandLine.execute(words, library: library)
    }

    /// What a rejected `library` line must leave alone: the photos (in the library and in
    /// Recently Deleted) and the albums.
    var state: String {
        let photos = (try? library.count(.all)) ?? -1
        let deleted = (try? library.count(AssetQuery.all.trash(.only))) ?? -1
        let albums = (try? library.albums().count) ?? -1
        return "library \(photos) photos \(deleted) deleted \(albums) albums"
    }

    /// Import, export and thumbnail read and write the folders and files their words name:
    /// each must lie in the scratch folder.
    private func checkPaths(_ words: [String]) throws {
        var positionals: [String] = []
        var outs: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                positionals += words[index...]
                break
            }
            guard word.hasPrefix("--"), word.count > 2 else {
                positionals.append(word)
                continue
            }
            let option = word.dropFirst(2)
            let name = String(option.prefix { $0 != "=" })
            if let equals = option.firstIndex(of: "=") {
                if name == "out" { outs.append(String(option[option.index(after: equals)...])) }
            } else if Self.valued.contains(name), index < words.count {
                if name == "out" { outs.append(words[index]) }
                index += 1
            }
        }
        let paths: [String]
        switch positionals.first {
        case "import", "export": paths = Array(positionals.dropFirst())
        case "thumbnail": paths = outs
        default: return
        }
        for path in paths where !path.hasPrefix(root + "/") || path.contains("..") {
            throw LibraryError.invalidRequest("fuzz: '\(path)' is outside the fuzzer's scratch folder")
        }
    }
}
