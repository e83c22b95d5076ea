// `pinhole library …`: works on a photo library directory without the camera running.

import ArgumentParser
import SystemPackage
import PinholeAppliance
import PinholeConfiguration
import PinholeCore
import PinholeLibrary
import PinholeLibraryCommandLine

#if canImport(Glibc)
    import Glibc
#endif

/// Runs one `library` command (list, show, albums, fsck, import, export, …) on a library directory.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "List, organize, check, import and export the photo library.",
        discussion: """
            The library is --library DIR, else the configuration's [library] path, else \
            $PINHOLE_LIBRARY, else /var/lib/pinhole/library when it exists, else \
            $XDG_DATA_HOME/pinhole/library (~/.local/share/pinhole/library).

            """ + LibraryCommandLine.helpText)

    /// The library `pinhole run` would use: the configuration's `[library] path`, else
    /// $PINHOLE_LIBRARY, else /var/lib/pinhole/library when it exists, else
    /// $XDG_DATA_HOME/pinhole/library (~/.local/share/pinhole/library).
    static func defaultDirectory(configured: FilePath?) -> FilePath {
        if let configured { return configured }
        if let value = getenv("PINHOLE_LIBRARY"), value.pointee != 0 {
            return FilePath(String(cString: value))
        }
        var info = stat()
        if stat("/var/lib/pinhole/library", &info) == 0 { return "/var/lib/pinhole/library" }
        if let data = getenv("XDG_DATA_HOME"), data.pointee != 0 {
            return FilePath(String(cString: data)).appending("pinhole/library")
        }
        let home = getenv("HOME").map { FilePath(String(cString: $0)) } ?? "/tmp"
        return home.appending(".local/share/pinhole/library")
    }

    /// Commands that only read: they refuse to create a library where there is none.
    static let readOnlyCommands: Set<String> = [
        "list", "count", "show", "albums", "smart", "fsck", "export", "thumbnail",
    ]

    @Option(help: "Photo library directory (default: as `pinhole run`; see the discussion).")
    var library: FilePath?

    @Option(help: "Configuration file (default /etc/pinhole/pinhole.toml when it exists).")
    var config: FilePath?

    @Argument(
        parsing: .captureForPassthrough, help: "The library command and its arguments (see `library help`).")
    var arguments: [String] = []

    mutating func run() throws {
        var words = arguments
        var directory = library
        // `--library DIR` may also come after the command word.
        if let index = words.firstIndex(of: "--library") {
            guard index + 1 < words.count else {
                throw LibraryCommandFailure(message: "--library needs a directory")
            }
            directory = FilePath(words[index + 1])
            words.removeSubrange(index...(index + 1))
        }
        let configured: FilePath?
        do {
            configured = directory == nil ? try Configuration.load(file: config).libraryPath : nil
        } catch {
            throw LibraryCommandFailure(message: "\(error)")
        }
        let path = directory ?? Self.defaultDirectory(configured: configured)
        if let command = words.first, Self.readOnlyCommands.contains(command) {
            var info = stat()
            guard stat(path.appending("library.sqlite").string, &info) == 0 else {
                throw LibraryCommandFailure(
                    message: "no photo library at \(path) (no library.sqlite); "
                        + "pass --library DIR or set PINHOLE_LIBRARY")
            }
        }
        let photoLibrary: PhotoLibrary
        do {
            photoLibrary = try PhotoLibrary.open(
                at: path,
                options: LibraryOptions(protectedDirectories: RunCommand.configurationFolders(config)),
                now: { systemWallNow() })
        } catch {
            throw LibraryCommandFailure(message: "cannot open the photo library at \(path): \(error)")
        }
        let recovery = photoLibrary.recoveryReport
        if !recovery.isClean || !recovery.interruptedExports.isEmpty {
            for line in recovery.lines {
                LineWriter.standardError.write("pinhole library: recovery: \(line)")
            }
        }
        if words.first == "list" {
            // Streamed: each photo goes out as it is read, in 64 KB writes, so listing a
            // million photos takes no more memory than listing a hundred.
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 16)
            try LibraryCommandLine.execute(words, library: photoLibrary) { piece in
                buffer += piece.utf8
                if buffer.count >= 1 << 16 {
                    writeAll(1, buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            buffer.append(10)
            writeAll(1, buffer)
            return
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
