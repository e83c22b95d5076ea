// `library` commands for albums, folders, smart albums, favorites, hiding and deletion.

import PinholeCore
import PinholeLibrary

extension LibraryCommandLine {
    /// Runs the commands not handled by `execute` itself.
    static func executeMore(
        _ command: String, _ operands: [String], _ args: inout CommandArguments,
        json: Bool, library: PhotoLibrary
    ) throws -> String {
        switch command {
        case "albums":
            try noOperands("albums", operands)
            return try albums(json: json, library: library)
        case "album":
            return try album(operands, &args, json: json, library: library)
        case "folder":
            guard operands.count == 2, operands[0] == "create" else {
                throw LibraryError.invalidRequest("usage: library folder create NAME [--folder PARENT]")
            }
            let parent = args.option("folder")
            try args.rejectUnknown(command: command)
            let result = try library.performChanges { _ = $0.createFolder(title: operands[1], in: parent) }
            return try created(result.createdFolderIDs[0], json: json)
        case "smart":
            guard operands.count == 1,
                let smart = SmartAlbum(name: operands[0]) ?? cameraAlbum(operands[0], &args)
            else {
                throw LibraryError.invalidRequest(
                    "usage: library smart all|recent|favorites|videos|live|edited|hidden|deleted|camera:ID")
            }
            var query = library.query(for: smart)
            query = query.limit(try args.integer("limit"), offset: try args.integer("offset") ?? 0)
            return try render(try library.assets(query), json: json, library: library)
        case "favorite", "hide":
            let ids = try resolveAll(operands, command: command, library: library)
            let on = !args.flag("off")
            try args.rejectUnknown(command: command)
            _ = try library.performChanges { batch in
                if command == "favorite" { batch.setFavorite(ids, on) } else { batch.setHidden(ids, on) }
            }
            return try done(ids, json: json)
        case "delete":
            let ids = try resolveAll(operands, command: command, library: library)
            try args.rejectUnknown(command: command)
            try library.delete(ids)
            return try done(ids, json: json)
        case "restore":
            let ids = try resolveAll(operands, command: command, library: library)
            try args.rejectUnknown(command: command)
            try library.restore(ids)
            return try done(ids, json: json)
        case "purge":
            if args.flag("all") {
                try noOperands("purge --all", operands)
                try args.rejectUnknown(command: command)
                return try done(try library.emptyRecentlyDeleted(), json: json)
            }
            let ids = try resolveAll(operands, command: command, library: library)
            try args.rejectUnknown(command: command)
            try library.purge(ids)
            return try done(ids, json: json)
        default:
            return try executeTransfer(command, operands, &args, json: json, library: library)
        }
    }

    private static func cameraAlbum(_ name: String, _ args: inout CommandArguments) -> SmartAlbum? {
        guard name == "camera", let camera = args.option("camera") else { return nil }
        return .camera(camera)
    }

    private static func album(
        _ operands: [String], _ args: inout CommandArguments, json: Bool,
        library: PhotoLibrary
    ) throws -> String {
        let usage =
            "usage: library album create NAME | add ALBUM ID... | remove ALBUM ID... | rename ALBUM NAME "
            + "| delete ALBUM | list ALBUM"
        guard let verb = operands.first else { throw LibraryError.invalidRequest(usage) }
        let rest = Array(operands.dropFirst())
        switch (verb, rest.count) {
        case ("create", 1):
            let folder = args.option("folder")
            try args.rejectUnknown(command: "album")
            let result = try library.performChanges { _ = $0.createAlbum(title: rest[0], in: folder) }
            return try created(result.createdAlbumIDs[0], json: json)
        case ("add", 2...), ("remove", 2...):
            let album = try resolveAlbum(rest[0], library: library)
            let ids = try resolveAll(Array(rest.dropFirst()), command: "album \(verb)", library: library)
            try args.rejectUnknown(command: "album")
            _ = try library.performChanges { batch in
                if verb == "add" {
                    batch.addAssets(ids, to: album.id)
                } else {
                    batch.removeAssets(ids, from: album.id)
                }
            }
            return try done(ids, json: json)
        case ("rename", 2):
            let album = try resolveAlbum(rest[0], library: library)
            try args.rejectUnknown(command: "album")
            _ = try library.performChanges { $0.renameAlbum(album.id, to: rest[1]) }
            return try done([album.id], json: json)
        case ("delete", 1):
            let album = try resolveAlbum(rest[0], library: library)
            try args.rejectUnknown(command: "album")
            _ = try library.performChanges { $0.deleteAlbum(album.id) }
            return try done([album.id], json: json)
        case ("list", 1):
            let album = try resolveAlbum(rest[0], library: library)
            let query = library.albumQuery(album.id).limit(
                try args.integer("limit"), offset: try args.integer("offset") ?? 0)
            return try render(try library.assets(query), json: json, library: library)
        default:
            throw LibraryError.invalidRequest(usage)
        }
    }

    private static func albums(json: Bool, library: PhotoLibrary) throws -> String {
        let folders = try library.folders()
        let albums = try library.albums()
        let smart = try library.smartAlbums().map { smart in
            SmartJSON(id: smart.id, title: smart.title, count: try library.count(library.query(for: smart)))
        }
        if json {
            struct Answer: Encodable {
                var folders: [AlbumFolder]; var albums: [AlbumJSON]; var smart: [SmartJSON]
            }
            return try LibraryJSON.encode(
                Answer(folders: folders, albums: albums.map(AlbumJSON.init), smart: smart))
        }
        var lines = smart.map { "\($0.id)  \($0.title)  \($0.count)" }
        lines += folders.map { "\($0.id)  folder \($0.title)" + ($0.parentID.map { " (in \($0))" } ?? "") }
        lines += albums.map {
            "\($0.id)  \($0.title)  \($0.count)" + ($0.folderID.map { " (in \($0))" } ?? "")
        }
        return lines.joined(separator: "\n")
    }

    /// The album with this identifier, unique identifier prefix or exact title.
    static func resolveAlbum(_ text: String, library: PhotoLibrary) throws -> Album {
        if let album = try library.album(id: text) { return album }
        let all = try library.albums()
        let byTitle = all.filter { $0.title == text }
        if byTitle.count == 1 { return byTitle[0] }
        let byPrefix = text.count >= 4 ? all.filter { $0.id.hasPrefix(text) } : []
        if byPrefix.count == 1 { return byPrefix[0] }
        throw LibraryError.albumNotFound(id: text)
    }

    /// Resolves each identifier or prefix; at least one is required.
    static func resolveAll(_ operands: [String], command: String, library: PhotoLibrary) throws -> [String] {
        guard !operands.isEmpty else { throw LibraryError.invalidRequest("usage: library \(command) ID...") }
        return try operands.map { try resolve($0, library: library).id }
    }

    private static func created(_ id: String, json: Bool) throws -> String {
        json ? try LibraryJSON.encode(["id": id]) : id
    }

    private static func done(_ ids: [String], json: Bool) throws -> String {
        json ? try LibraryJSON.encode(["ok": ids]) : "ok \(ids.count)"
    }
}

/// JSON of a smart album in `library albums --json`.
struct SmartJSON: Encodable {
    var id: String
    var title: String
    var count: Int
}

/// JSON of a user album in `library albums --json`.
struct AlbumJSON: Encodable {
    var id: String
    var title: String
    var folderID: String?
    var position: Int
    var created: String
    var count: Int

    init(_ album: Album) {
        id = album.id
        title = album.title
        folderID = album.folderID
        position = album.position
        created = album.created.iso8601
        count = album.count
    }
}
