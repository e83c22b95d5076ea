// `library` commands that move files in and out: import, export, thumbnails and edits.

extension LibraryCommandLine {
    /// Runs import, export, thumbnail and edit commands.
    static func executeTransfer(_ command: String, _ operands: [String], _ args: inout CommandArguments,
                                json: Bool, library: PhotoLibrary) throws -> String {
        throw LibraryError.invalidRequest("unknown library command '\(command)'; see `library help`")
    }
}
