// `library` commands that move files in and out: import, export, thumbnails and edits.

extension LibraryCommandLine {
    /// Runs import, export, thumbnail and edit commands.
    static func executeTransfer(_ command: String, _ operands: [String], _ args: inout CommandArguments,
                                json: Bool, library: PhotoLibrary) throws -> String {
        switch command {
        case "import":
            guard operands.count == 1 else { throw LibraryError.invalidRequest("usage: library import DIR") }
            guard POSIXFiles.isDirectory(operands[0]) else {
                throw LibraryError.invalidRequest("library import: \(operands[0]) is not a directory")
            }
            let report = try library.importFolder(operands[0])
            if json { return try LibraryJSON.encode(report) }
            var lines = ["imported \(report.imported.count), duplicates \(report.duplicates.count), "
                         + "failed \(report.failures.count)"]
            lines += report.failures.sorted { $0.key < $1.key }.map { "failed: \($0.key): \($0.value)" }
            return lines.joined(separator: "\n")
        case "export":
            guard operands.count == 1 else {
                throw LibraryError.invalidRequest("usage: library export DIR [--album ID] [--rendered] [filters of list]")
            }
            var query = try Self.query(&args)
            if let album = query.filters.compactMap({ filter -> String? in
                if case let .album(id) = filter { return id } else { return nil }
            }).first {
                let resolved = try resolveAlbum(album, library: library).id
                query.filters = query.filters.map { filter in
                    if case .album = filter { return .album(resolved) } else { return filter }
                }
            }
            let version: ExportVersion = args.flag("rendered") ? .current : .original
            let report = try library.export(query, to: operands[0], version: version)
            if json { return try LibraryJSON.encode(report) }
            return "exported \(report.written.count), skipped \(report.skipped.count) (already there)"
        case "edit":
            return try edit(operands, &args, json: json, library: library)
        default:
            throw LibraryError.invalidRequest("unknown library command '\(command)'; see `library help`")
        }
    }

    private static func edit(_ operands: [String], _ args: inout CommandArguments, json: Bool,
                             library: PhotoLibrary) throws -> String {
        guard operands.count == 2 else { throw LibraryError.invalidRequest("usage: library edit show|revert ID") }
        let asset = try resolve(operands[1], library: library)
        switch operands[0] {
        case "show":
            guard let edit = try library.edit(of: asset.id) else { throw LibraryError.notEdited(id: asset.id) }
            struct Answer: Encodable {
                var id: String, revision: Int, format: String, version: String, render: String, width: Int, height: Int
            }
            let answer = Answer(id: asset.id, revision: edit.revision, format: edit.adjustment.formatIdentifier,
                                version: edit.adjustment.formatVersion, render: library.directory + "/" + edit.renderPath,
                                width: edit.renderSize.width, height: edit.renderSize.height)
            if json { return try LibraryJSON.encode(answer) }
            return "revision \(answer.revision), \(answer.format) v\(answer.version), render \(answer.render) "
                + "(\(answer.width)x\(answer.height))"
        case "revert":
            try library.revertEdit(of: asset.id)
            return json ? try LibraryJSON.encode(["ok": [asset.id]]) : "ok 1"
        default:
            throw LibraryError.invalidRequest("usage: library edit show|revert ID")
        }
    }
}
