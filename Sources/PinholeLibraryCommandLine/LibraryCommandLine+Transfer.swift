// `library` commands that move files in and out: import, export, thumbnails and edits.

import PinholeCore
import PinholeLibrary
import PinholeImaging
import SystemPackage

extension LibraryCommandLine {
    /// Runs import, export, thumbnail and edit commands.
    static func executeTransfer(
        _ command: String, _ operands: [String], _ args: inout CommandArguments,
        json: Bool, library: PhotoLibrary
    ) throws -> String {
        switch command {
        case "import":
            guard operands.count == 1 else { throw LibraryError.invalidRequest("usage: library import DIR") }
            guard FileSystem.isDirectory(FilePath(operands[0])) else {
                throw LibraryError.invalidRequest("library import: \(operands[0]) is not a directory")
            }
            try args.rejectUnknown(command: command)
            let report = try library.importFolder(FilePath(operands[0]))
            if json { return try LibraryJSON.encode(report) }
            var lines = [
                "imported \(report.imported.count), duplicates \(report.duplicates.count), "
                    + "failed \(report.failures.count)"
            ]
            lines += report.failures.sorted { $0.key < $1.key }.map { "failed: \($0.key): \($0.value)" }
            return lines.joined(separator: "\n")
        case "export":
            if let job = try args.integer("redo") {
                guard operands.isEmpty else {
                    throw LibraryError.invalidRequest("usage: library export --redo N")
                }
                try args.rejectUnknown(command: command)
                let report = try library.redoExport(Int64(job))
                if json { return try LibraryJSON.encode(report) }
                return "exported \(report.written.count) (\(report.replaced.count) torn files replaced), "
                    + "\(report.skipped.count) already whole, \(report.gone.count) photos no longer in the library"
            }
            if let job = try args.integer("forget") {
                guard operands.isEmpty else {
                    throw LibraryError.invalidRequest("usage: library export --forget N")
                }
                try args.rejectUnknown(command: command)
                try library.forgetExport(Int64(job))
                return json ? "{\"forgotten\":\(job)}" : "ok export \(job) forgotten"
            }
            guard operands.count == 1 else {
                throw LibraryError.invalidRequest(
                    "usage: library export DIR [--album ID] [--rendered] [filters of list]"
                        + " | library export --redo N | library export --forget N")
            }
            let query = try Self.query(&args, library: library)
            let version: ExportVersion = args.flag("rendered") ? .current : .original
            try args.rejectUnknown(command: command)
            let report = try library.export(query, to: FilePath(operands[0]), version: version)
            if json { return try LibraryJSON.encode(report) }
            return "exported \(report.written.count), skipped \(report.skipped.count) (already there)"
        case "exports":
            guard operands.isEmpty else { throw LibraryError.invalidRequest("usage: library exports") }
            let interrupted = try library.interruptedExports()
            if json { return try LibraryJSON.encode(interrupted) }
            return interrupted.isEmpty
                ? "no interrupted exports" : interrupted.map(\.line).joined(separator: "\n")
        case "edit":
            return try edit(operands, &args, json: json, library: library)
        case "thumbnail":
            return try thumbnail(operands, &args, json: json, library: library)
        default:
            throw LibraryError.invalidRequest("unknown library command '\(command)'; see `library help`")
        }
    }

    private static func edit(
        _ operands: [String], _ args: inout CommandArguments, json: Bool,
        library: PhotoLibrary
    ) throws -> String {
        let usage =
            "usage: library edit show|revert|rotate|crop|adjust ID [--degrees N] [--rect X,Y,W,H] "
            + "[--exposure EV] [--contrast C] [--vignette V]"
        guard operands.count == 2 else { throw LibraryError.invalidRequest(usage) }
        let asset = try resolve(operands[1], library: library)
        switch operands[0] {
        case "rotate", "crop", "adjust":
            guard var recipe = try library.adjustments(of: asset.id) else {
                throw LibraryError.invalidRequest(
                    "photo \(asset.id) was edited by another editor; revert it first")
            }
            if operands[0] == "adjust" {
                func number(_ name: String) throws -> Double? {
                    guard let text = args.option(name) else { return nil }
                    guard let value = Double(text), value.isFinite else {
                        throw LibraryError.invalidRequest("--\(name) needs a number, not '\(text)'")
                    }
                    return value
                }
                recipe.exposure = try number("exposure") ?? recipe.exposure
                recipe.contrast = try number("contrast") ?? recipe.contrast
                recipe.vignette = try number("vignette") ?? recipe.vignette
            } else if operands[0] == "rotate" {
                let degrees = try args.integer("degrees") ?? 90
                guard degrees % 90 == 0 else {
                    throw LibraryError.invalidRequest("--degrees must be 90, 180 or 270")
                }
                recipe.rotation = (recipe.rotation + degrees) % 360
            } else {
                guard let text = args.option("rect") else { throw LibraryError.invalidRequest(usage) }
                let numbers = text.split(separator: ",").compactMap { Int($0) }
                guard numbers.count == 4 else {
                    throw LibraryError.invalidRequest("--rect needs X,Y,W,H in pixels, not '\(text)'")
                }
                recipe.crop = PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            }
            try args.rejectUnknown(command: "edit")
            let edit = try library.applyAdjustments(recipe, to: asset.id)
            let file = library.directory.appending(edit.renderPath).string
            if json {
                return try LibraryJSON.encode(
                    EditAnswer(
                        id: asset.id, revision: edit.revision, file: file,
                        width: edit.renderSize.width, height: edit.renderSize.height))
            }
            return "revision \(edit.revision): \(file) (\(edit.renderSize.width)x\(edit.renderSize.height))"
        case "show":
            guard let edit = try library.edit(of: asset.id) else {
                throw LibraryError.notEdited(id: asset.id)
            }
            struct Answer: Encodable {
                var id: String, revision: Int, format: String, version: String, render: String, width: Int,
                    height: Int
            }
            let answer = Answer(
                id: asset.id, revision: edit.revision, format: edit.adjustment.formatIdentifier,
                version: edit.adjustment.formatVersion,
                render: library.directory.appending(edit.renderPath).string,
                width: edit.renderSize.width, height: edit.renderSize.height)
            if json { return try LibraryJSON.encode(answer) }
            return
                "revision \(answer.revision), \(answer.format) v\(answer.version), render \(answer.render) "
                + "(\(answer.width)x\(answer.height))"
        case "revert":
            try args.rejectUnknown(command: "edit")
            try library.revertEdit(of: asset.id)
            return json ? try LibraryJSON.encode(["ok": [asset.id]]) : "ok 1"
        default:
            throw LibraryError.invalidRequest(usage)
        }
    }

    private static func thumbnail(
        _ operands: [String], _ args: inout CommandArguments, json: Bool,
        library: PhotoLibrary
    ) throws -> String {
        let usage =
            "usage: library thumbnail ID --size WxH [--mode fit|fill] [--original] [--out FILE [--force]]"
        guard operands.count == 1, let sizeText = args.option("size") else {
            throw LibraryError.invalidRequest(usage)
        }
        let parts = sizeText.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else {
            throw LibraryError.invalidRequest("--size needs WIDTHxHEIGHT, not '\(sizeText)'")
        }
        let mode: ContentMode
        switch args.option("mode") ?? "fit" {
        case "fit": mode = .aspectFit
        case "fill": mode = .aspectFill
        case let other: throw LibraryError.invalidRequest("--mode must be fit or fill, not '\(other)'")
        }
        let asset = try resolve(operands[0], library: library)
        let version: ExportVersion = args.flag("original") ? .original : .current
        let quality = try args.integer("quality") ?? 85
        let force = args.flag("force")
        let out = args.option("out")
        // Nothing is rendered or written for a line with an option the command does not take.
        try args.rejectUnknown(command: "thumbnail")
        let thumbnail = try library.thumbnail(
            of: asset, size: PixelSize(width: parts[0], height: parts[1]), mode: mode, version: version,
            quality: quality)
        var file = thumbnail.file
        if let out {
            file = try library.writeOut(thumbnail.jpeg, to: FilePath(out), replace: force)
        }
        if json {
            struct Answer: Encodable { var file: String; var width: Int; var height: Int; var cached: Bool }
            return try LibraryJSON.encode(
                Answer(
                    file: file.string, width: thumbnail.size.width, height: thumbnail.size.height,
                    cached: thumbnail.fromCache))
        }
        return
            "\(file) \(thumbnail.size.width)x\(thumbnail.size.height)\(thumbnail.fromCache ? " (cached)" : "")"
    }
}

/// JSON answer of `library edit rotate|crop`.
struct EditAnswer: Encodable {
    var id: String
    var revision: Int
    var file: String
    var width: Int
    var height: Int
}
