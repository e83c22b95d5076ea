// `library` commands that change the library: albums, favorites, deletion, import, export, edits.

extension LibraryCommandLine {
    /// Runs the commands not handled by `execute` itself.
    static func executeMore(_ command: String, _ operands: [String], _ args: inout CommandArguments,
                            json: Bool, library: PhotoLibrary) throws -> String {
        throw LibraryError.invalidRequest("unknown library command '\(command)'; see `library help`")
    }
}
