// `pinhole library …`: works on a photo library directory without the camera running.

import ArgumentParser
import PinholeCore
import PinholeLibrary

#if canImport(Glibc)
import Glibc
#endif

/// Runs one `library` command (list, show, albums, fsck, import, export, …) on a library directory.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "List, organize, check, import and export the photo library.",
        discussion: LibraryCommandLine.helpText)

    /// The default library: $PINHOLE_LIBRARY, else /var/lib/pinhole/library.
    static var defaultDirectory: String {
        if let value = getenv("PINHOLE_LIBRARY"), value.pointee != 0 { return String(cString: value) }
        return "/var/lib/pinhole/library"
    }

    /// Commands that only read: they refuse to create a library where there is none.
    static let readOnlyCommands: Set<String> = ["list", "count", "show", "albums", "smart", "fsck", "export", "thumbnail"]

    @Option(help: "Photo library directory (default: $PINHOLE_LIBRARY, else /var/lib/pinhole/library).")
    var library: String?

    @Argument(parsing: .captureForPassthrough, help: "The library command and its arguments (see `library help`).")
    var arguments: [String] = []

    mutating func run() throws {
        var words = arguments
        var directory = library
        // `--library DIR` may also come after the command word.
        if let index = words.firstIndex(of: "--library") {
            guard index + 1 < words.count else { throw LibraryCommandFailure(message: "--library needs a directory") }
            directory = words[index + 1]
            words.removeSubrange(index...(index + 1))
        }
        let path = directory ?? Self.defaultDirectory
        if let command = words.first, Self.readOnlyCommands.contains(command) {
            var info = stat()
            guard stat(path + "/library.sqlite", &info) == 0 else {
                throw LibraryCommandFailure(message: "no photo library at \(path) (no library.sqlite); "
                                      + "pass --library DIR or set PINHOLE_LIBRARY")
            }
        }
        let photoLibrary: PhotoLibrary
        do {
            photoLibrary = try PhotoLibrary.open(at: path, now: { systemWallNow() })
        } catch {
            throw LibraryCommandFailure(message: "cannot open the photo library at \(path): \(error)")
        }
        let recovery = photoLibrary.recoveryReport
        if !recovery.isClean {
            for line in recovery.lines { LineWriter.standardError.write("pinhole library: recovery: \(line)") }
        }
        let output = try LibraryCommandLine.execute(words, library: photoLibrary)
        LineWriter.standardOutput.write(output)
        // fsck exits with status 1 when the library is not clean, in text and JSON mode.
        if words.first == "fsck" && (output.contains("\"clean\":false") || output.contains("problem(s);")) {
            throw ExitCode(1)
        }
    }
}

/// A failure of `pinhole library` printed as `Error: <message>` (without the usage text).
struct LibraryCommandFailure: Error, CustomStringConvertible {
    /// What failed and what to do.
    var message: String

    var description: String { message }
}
