// The `library …` command language shared by the `pinhole library` CLI and the console's line mode.

import PinholeCore
import PinholeLibrary

/// Runs `library` commands against an open library and formats their answers
/// (human-readable text, or one line of JSON with `--json`).
public enum LibraryCommandLine {
    /// Options that take a value, for every subcommand.
    static let valuedOptions: Set<String> = [
        "limit", "offset", "camera", "album", "sort", "folder", "size", "mode", "out", "quality",
        "degrees", "rect", "exposure", "contrast", "vignette", "from", "to", "near", "within", "by", "clock",
        "redo", "forget", "type",
    ]

    /// Runs one `library` command (the arguments after the word `library`, e.g.
    /// `["list", "--json"]`) and returns its output text (JSON when `--json` is given).
    /// Throws `LibraryError` with a clear message on bad input.
    public static func execute(_ arguments: [String], library: PhotoLibrary) throws -> String {
        var args = try CommandArguments(arguments, valued: valuedOptions)
        guard let command = args.positionals.first else { return helpText }
        let operands = Array(args.positionals.dropFirst())
        let json = args.flag("json")
        let output: String
        switch command {
        case "help", "-h", "--help":
            return helpText
        case "list":
            output = try list(operands, &args, json: json, library: library)
        case "count":
            output = try count(operands, &args, json: json, library: library)
        case "show":
            output = try show(operands, json: json, library: library)
        case "fsck":
            output = try fsck(&args, json: json, library: library)
        case "redate":
            output = try redate(operands, &args, json: json, library: library)
        default:
            output = try executeMore(command, operands, &args, json: json, library: library)
        }
        try args.rejectUnknown(command: command)
        return output
    }

    /// Runs one `library` command like `execute(_:library:)`, handing its output to `write`
    /// piece by piece: `list` writes each photo as it is read (memory stays bounded however
    /// many photos match), every other command its whole answer at once. The pieces joined
    /// are exactly what `execute(_:library:)` returns; nothing is written when the command
    /// is refused.
    public static func execute(
        _ arguments: [String], library: PhotoLibrary, writing write: (String) throws -> Void
    ) throws {
        var args = try CommandArguments(arguments, valued: valuedOptions)
        guard args.positionals.first == "list" else {
            try write(try execute(arguments, library: library))
            return
        }
        try noOperands("list", Array(args.positionals.dropFirst()))
        let json = args.flag("json")
        let query = try query(&args, library: library)
        try args.rejectUnknown(command: "list")
        var first = true
        if json { try write("[") }
        try library.forEachAsset(query) { asset in
            let separator = first ? "" : json ? "," : "\n"
            first = false
            try write(separator + (try line(asset, json: json, library: library)))
        }
        if json {
            try write("]")
        } else if first {
            try write("no photos")
        }
    }

    /// The command summary printed by `library help`.
    public static var helpText: String {
        """
        library commands (add --json to any of them for one line of JSON):
          list [--type photo|video|live] [--camera ID] [--album ID] [--favorites] [--edited]
               [--hidden] [--deleted]
               [--from DATE] [--to DATE] [--sort created|added|modified|size] [--desc]
               [--limit N] [--offset N]      DATE: 2026-11-21[T08:30[:00]][Z|+01:00], UTC by default
               [--with-location] [--without-location] [--near LAT,LON --within KM]
               [--clock synchronized|gps|unsynchronized|unknown]
          count [same filters as list]
          show ID                      all metadata of one photo (ID may be a unique prefix)
          albums                       folders, albums and smart albums with counts
          album create NAME [--folder ID]   make an album; prints its id
          album add ALBUM ID...        add photos to an album
          album remove ALBUM ID...     remove photos from an album
          album rename ALBUM NAME      rename an album
          album delete ALBUM           delete an album (its photos stay in the library)
          album list ALBUM             the photos of an album, in album order
          folder create NAME [--folder PARENT]   make a folder of albums
          smart NAME [--camera ID]     photos of a smart album: all, recent, favorites, videos,
                                       live, camera, edited, hidden, deleted
          favorite ID... [--off]       mark (or unmark) photos as favorite
          hide ID... [--off]           hide (or unhide) photos
          delete ID...                 move photos to Recently Deleted
          restore ID...                bring photos back from Recently Deleted
          purge ID... | purge --all    permanently delete photos from Recently Deleted
          fsck [--verify]              check index and files (--verify reads every file)
          redate ID... --by SECONDS    correct the dates of photos taken with a wrong clock
          redate --from DATE --to DATE [filters of list] --by SECONDS
                                       (index and listings; exports carry the corrected EXIF
                                       dates; originals are never modified)
          import DIR                   copy the JPEGs and MP4 clips of DIR into the library
          export DIR [--album ID] [--rendered] [filters of list]   copy photos to DIR
          exports                      exports that did not finish (power cut, full or pulled stick)
          export --redo N | --forget N   finish an interrupted export (torn files rewritten), or drop it
          thumbnail ID --size WxH [--mode fit|fill] [--original] [--out FILE [--force]]
                                       render (or reuse the cached) thumbnail; prints its file
                                       (--out never replaces a file without --force, never
                                       writes into the library or the configuration folder)
          edit show|revert ID          show or revert a photo's edit
          edit rotate ID [--degrees 90|180|270]   rotate further, losslessly (a new edit revision)
          edit crop ID --rect X,Y,W,H  crop the rotated photo, losslessly
          edit adjust ID [--exposure EV] [--contrast -1..1] [--vignette 0..1]
                                       re-render tone from the original (keeps rotation and crop)
        """
    }

    // MARK: list, count, show, fsck

    /// The query described by list-style filter options.
    static func query(_ args: inout CommandArguments, library: PhotoLibrary) throws -> AssetQuery {
        var query = AssetQuery.all
        if let camera = args.option("camera") { query = query.filter(.camera(camera)) }
        if let album = args.option("album") {
            query = query.filter(.album(try resolveAlbum(album, library: library).id)).sorted(by: .albumOrder)
        }
        if args.flag("favorites") { query = query.filter(.favorite(true)) }
        if args.flag("edited") { query = query.filter(.edited(true)) }
        if args.flag("hidden") { query = query.filter(.hidden(true)) }
        if args.flag("deleted") { query = query.trash(.only) }
        if let type = args.option("type") {
            guard let media = MediaType(rawValue: type) else {
                throw LibraryError.invalidRequest("--type must be photo, video or live, not '\(type)'")
            }
            query = query.filter(.mediaType(media))
        }
        let from = try args.option("from").map { try DateArgument.parse($0, option: "from") }
        let to = try args.option("to").map { try DateArgument.parse($0, option: "to") }
        if from != nil || to != nil { query = query.filter(.created(from: from, to: to)) }
        query = try fieldFilters(query, &args)
        if let sort = args.option("sort") {
            let key: AssetSortKey
            switch sort {
            case "created": key = .created
            case "added": key = .added
            case "modified": key = .modified
            case "size": key = .fileSize
            case "album": key = .albumOrder
            default:
                throw LibraryError.invalidRequest(
                    "--sort must be created, added, modified, size or album, not '\(sort)'")
            }
            query = query.sorted(by: key)
        }
        if args.flag("desc") { query.sort = query.sort.map { AssetSort($0.key, ascending: false) } }
        query = query.limit(try args.integer("limit"), offset: try args.integer("offset") ?? 0)
        return query
    }

    private static func list(
        _ operands: [String], _ args: inout CommandArguments, json: Bool,
        library: PhotoLibrary
    ) throws -> String {
        try noOperands("list", operands)
        return try render(
            try library.assets(try query(&args, library: library)), json: json, library: library)
    }

    /// Formats assets as a JSON array or one text line each.
    static func render(_ assets: [Asset], json: Bool, library: PhotoLibrary) throws -> String {
        if json {
            return try LibraryJSON.encode(
                assets.map { AssetJSON($0, file: library.fileURLPath(of: $0).string) })
        }
        if assets.isEmpty { return "no photos" }
        return try assets.map { try line($0, json: false, library: library) }.joined(separator: "\n")
    }

    /// One photo as `list` prints it: its JSON object, or its text line.
    static func line(_ asset: Asset, json: Bool, library: PhotoLibrary) throws -> String {
        if json {
            return try LibraryJSON.encode(AssetJSON(asset, file: library.fileURLPath(of: asset).string))
        }
        let marks =
            (asset.favorite ? " favorite" : "") + (asset.isEdited ? " edited" : "")
            + (asset.hidden ? " hidden" : "") + (asset.isDeleted ? " deleted" : "")
        return "\(asset.id)  \(asset.created.iso8601)  \(asset.cameraName)  "
            + "\(asset.pixelWidth)x\(asset.pixelHeight)\(marks)\(fieldMarks(asset))"
    }

    private static func count(
        _ operands: [String], _ args: inout CommandArguments, json: Bool,
        library: PhotoLibrary
    ) throws -> String {
        try noOperands("count", operands)
        let total = try library.count(try query(&args, library: library))
        return json ? "{\"count\":\(total)}" : "\(total)"
    }

    private static func show(_ operands: [String], json: Bool, library: PhotoLibrary) throws -> String {
        guard operands.count == 1 else { throw LibraryError.invalidRequest("usage: library show ID") }
        let asset = try resolve(operands[0], library: library)
        if json {
            return try LibraryJSON.encode(AssetJSON(asset, file: library.fileURLPath(of: asset).string))
        }
        var lines = [
            "id: \(asset.id)", "file: \(library.fileURLPath(of: asset))",
            "created: \(asset.created.iso8601)", "added: \(asset.added.iso8601)",
            "camera: \(asset.cameraName)", "size: \(asset.pixelWidth)x\(asset.pixelHeight)",
            "orientation: \(asset.orientation.rawValue)", "favorite: \(asset.favorite ? "yes" : "no")",
            "file size: \(asset.fileSize) bytes", "checksum: \(asset.checksum)",
        ]
        if let make = asset.make { lines.append("make: \(make)") }
        if let model = asset.model { lines.append("model: \(model)") }
        if let exposure = asset.exposureTime { lines.append("exposure: \(exposure) s") }
        if let iso = asset.iso { lines.append("iso: \(iso)") }
        if let lens = asset.lensPosition { lines.append("lens position: \(lens) dioptres") }
        if let flash = asset.flashFired { lines.append("flash: \(flash ? "fired" : "not fired")") }
        lines += fieldLines(asset)
        if asset.hidden { lines.append("hidden: yes") }
        if let deleted = asset.deleted { lines.append("deleted: \(deleted.iso8601)") }
        if asset.isEdited { lines.append("edit revision: \(asset.editRevision)") }
        return lines.joined(separator: "\n")
    }

    private static func fsck(_ args: inout CommandArguments, json: Bool, library: PhotoLibrary) throws
        -> String
    {
        let report = try library.fsck(verifyChecksums: args.flag("verify"))
        if json {
            struct Answer: Encodable { var clean: Bool; var report: FsckReport }
            return try LibraryJSON.encode(Answer(clean: report.isClean, report: report))
        }
        return report.lines.joined(separator: "\n")
    }

    // MARK: Helpers

    /// The asset with this identifier or unique prefix; throws a clear error otherwise.
    static func resolve(_ idOrPrefix: String, library: PhotoLibrary) throws -> Asset {
        guard let asset = try library.asset(matching: idOrPrefix) else {
            throw LibraryError.assetNotFound(id: idOrPrefix)
        }
        return asset
    }

    /// Throws when a command that takes no operands got some.
    static func noOperands(_ command: String, _ operands: [String]) throws {
        if let first = operands.first {
            throw LibraryError.invalidRequest(
                "library \(command) takes no operand, got '\(first)'; see `library help`")
        }
    }
}
