// Library routes: the grid with keyset paging, albums, a photo's page, thumbnails, the
// original with Range, changes through the console's `library` command, and archives.

import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix
import PinholeConsole

extension WebRoutes {
    /// Photos on one grid page.
    static let pageSize = 60
    /// The grid's thumbnail size (square, fitted) and the photo page's picture size.
    static let thumbnailSize = 256
    static let viewSize = 1280

    func addLibraryRoutes(to router: Router<WebContext>) {
        router.get("/") { request, context in
            try await grid(source: "smart:all", title: "All Photos", context: context)
        }
        router.get("/album/{id}") { request, context in
            let id = try Self.source(context.parameters.require("id"))
            return try await grid(source: id, title: albumTitle(id), context: context)
        }
        router.get("/grid") { request, context in
            let source = try Self.source(
                request.uri.queryParameters["source"].map(String.init) ?? "smart:all")
            let after = try request.uri.queryParameters["after"].map { try Self.photoID(String($0)) }
            let (rows, next) = try await read {
                try $0.photos(in: source, after: after, limit: Self.pageSize)
            }
            return Self.html(Self.tiles(rows) + Self.nextMarker(source: source, next: next, id: "next"))
        }
        router.get("/albums") { _, context in
            let session = try Self.session(context)
            let albums = try await read { try $0.albums() }
            let items = albums.map {
                "<li><a href=\"/album/\(HTML.urlComponent($0.id))\">\(HTML.escape($0.title))</a> (\($0.count))</li>"
            }
            return Self.html(
                HTML.page(title: "Albums", csrf: session.csrf, body: "<ul>\(items.joined())</ul>"))
        }
        router.get("/photo/{id}") { _, context in
            let session = try Self.session(context)
            let id = try Self.photoID(context.parameters.require("id"))
            guard let detail = try await read({ try $0.photo(id: id) }) else { throw HTTPError(.notFound) }
            let albums = try await read { try $0.albums() }.filter { !$0.id.hasPrefix("smart:") }
            return Self.html(
                HTML.page(
                    title: "Photo", csrf: session.csrf,
                    body: PhotoPage.render(detail, albums: albums, csrf: session.csrf)))
        }
        router.get("/photo/{id}/thumb") { request, context in
            try await thumbnail(context.parameters.require("id"), size: Self.thumbnailSize, request: request)
        }
        router.get("/photo/{id}/view") { request, context in
            try await thumbnail(context.parameters.require("id"), size: Self.viewSize, request: request)
        }
        router.get("/photo/{id}/original") { request, context in
            try await original(context.parameters.require("id"), request: request)
        }
        router.get("/photo/{id}/motion") { request, context in
            try await original(context.parameters.require("id"), request: request, motion: true)
        }
        router.post("/photo/{id}/action") { request, context in
            let id = try Self.photoID(context.parameters.require("id"))
            let form = try await Self.form(request, context: context)
            let words = try Self.libraryWords(form, id: id)
            let (ok, answer) = await command(LibraryWordsCommand(words), form: form)
            guard ok else { return Self.text(answer, status: .conflict) }
            return Response(status: .seeOther, headers: [.location: "/photo/\(id)"])
        }
        router.post("/archive") { request, context in
            let form = try await Self.form(request, context: context)
            let ids = (form["ids"] ?? "").split(separator: ",").map(String.init)
            return try await archive(ids: ids)
        }
    }

    /// A photo's original (or, with `motion`, a Live Photo's motion clip), whole or the range
    /// asked for; each write waits for the client at most `stallGuard.limit`.
    func original(_ text: String, request: Request, motion: Bool = false) async throws -> Response {
        let id = try Self.photoID(text)
        guard let file = try await read({ try motion ? $0.motionFile(id: id) : $0.originalFile(id: id) })
        else {
            throw HTTPError(.notFound)
        }
        return OriginalResponse.respond(
            to: request, file: file, id: motion ? id + "-motion" : id, stallGuard: stallGuard)
    }

    /// The originals of `ids` (1 to 2000) as one streamed ZIP archive; each write waits for the
    /// client at most `stallGuard.limit`.
    func archive(ids texts: [String]) async throws -> Response {
        let ids = try texts.map { try Self.photoID($0) }
        guard (1...2000).contains(ids.count) else {
            throw HTTPError(.badRequest, message: "choose 1 to 2000 photos")
        }
        let files = try await read { library in try ids.compactMap { try library.originalFile(id: $0) } }
        return try ZipResponse.respond(files: files, stallGuard: stallGuard)
    }

    /// A grid page: the first page of photos and a marker the script follows for the next.
    private func grid(source: String, title: String, context: WebContext) async throws -> Response {
        let session = try Self.session(context)
        let (rows, next) = try await read { try $0.photos(in: source, after: nil, limit: Self.pageSize) }
        let body = """
            <p><button id="select" type="button">Select</button></p>\
            <form id="selected" method="post" action="/archive" hidden>\(HTML.csrfField(session.csrf))\
            <input type="hidden" name="ids"><button>Download selected (.zip)</button></form>\
            <div id="grid" class="grid"\(source == "smart:all" ? " data-live=\"1\"" : "")>\(Self.tiles(rows))</div>\
            \(Self.nextMarker(source: source, next: next, id: "more"))\
            \(rows.isEmpty ? "<p>No photos.</p>" : "")<pre id="log" hidden></pre>
            """
        return Self.html(HTML.page(title: title, csrf: session.csrf, body: body))
    }

    private func albumTitle(_ id: String) async throws -> String {
        try await read { try $0.albums() }.first { $0.id == id }?.title ?? "Album"
    }

    /// A thumbnail: from memory when it was sent before and the photo has not changed since
    /// (no library read, no file read), else read from the library's cache on a worker.
    /// Answers 304 when the browser already has these bytes (`If-None-Match`); browsers
    /// revalidate each time (`no-cache`), so an edit shows at once.
    private func thumbnail(_ text: String, size: Int, request: Request) async throws -> Response {
        let id = try Self.photoID(text)
        let entry: ThumbnailCache.Entry
        if let kept = thumbnails.entry(id: id, size: size) {
            entry = kept
        } else {
            let generation = thumbnails.generation()
            guard let jpeg = try await read({ try $0.thumbnailJPEG(id: id, size: size) }) else {
                throw HTTPError(.notFound)
            }
            entry = thumbnails.keep(jpeg, id: id, size: size, readAt: generation)
        }
        let answer = entry.answer(ifNoneMatch: request.headers[.ifNoneMatch])
        return Response(
            status: answer.head.status, headers: answer.head.headerFields,
            body: answer.body.map { .init(byteBuffer: $0) } ?? .init())
    }

    /// Reads the library on a worker thread (never on the server's event loops).
    func read<T: Sendable>(_ work: @escaping @Sendable (any WebLibraryReading) throws -> T) async throws -> T
    {
        let library = backend.library
        do {
            return try await NIOThreadPool.singleton.runIfActive { try work(library) }
        } catch let error as HTTPResponseError {
            throw error
        } catch {
            throw HTTPError(.notFound, message: "\(error)")
        }
    }

    static func tiles(_ rows: [LibraryPhotoRow]) -> String {
        rows.map { row in
            """
            <a class="tile" href="/photo/\(row.id)"><img loading="lazy" alt="" src="/photo/\(row.id)/thumb">\
            <input type="checkbox" value="\(row.id)" onclick="event.stopPropagation()">\
            \(row.favorite ? "<span class=\"fav\">♥</span>" : "")\(clipBadge(row))</a>
            """
        }.joined()
    }

    /// A clip's or Live Photo's badge on its tile: its kind and length (`▶ 3.0 s`, `LIVE 2.5 s`).
    static func clipBadge(_ row: LibraryPhotoRow) -> String {
        guard let kind = row.clipKind else { return "" }
        let label = kind == "live" ? "LIVE" : "▶"
        let length = row.clipLength.map { " " + HTML.escape($0) } ?? ""
        return "<span class=\"clip\">\(label)\(length)</span>"
    }

    static func nextMarker(source: String, next: String?, id: String) -> String {
        guard let next else { return "<div id=\"\(id)\"></div>" }
        return
            "<div id=\"\(id)\" data-href=\"/grid?source=\(HTML.urlComponent(source))&amp;after=\(next)\"></div>"
    }

    /// A photo id as the library makes them (36 characters, lowercase hex and dashes), or 404.
    static func photoID(_ text: String) throws -> String {
        let bytes = Array(text.utf8)
        guard bytes.count == 36,
            bytes.enumerated().allSatisfy({ index, byte in
                [8, 13, 18, 23].contains(index)
                    ? byte == UInt8(ascii: "-")
                    : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            })
        else { throw HTTPError(.notFound) }
        return text
    }

    /// An album's id: a smart album (`smart:NAME`, `smart:camera:ID`) or a user album's id.
    static func source(_ text: String) throws -> String {
        if text.hasPrefix("smart:") {
            let rest = text.dropFirst(6)
            guard !rest.isEmpty, rest.utf8.count <= 64,
                rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
            else { throw HTTPError(.notFound) }
            return text
        }
        return try photoID(text)
    }

    /// A user album's id from a form (400 when it is not one).
    private static func albumID(_ text: String?) throws -> String {
        guard let text, (try? photoID(text)) != nil else {
            throw HTTPError(.badRequest, message: "choose an album")
        }
        return text
    }

    /// The `library` command words of a photo action form (values checked, never split).
    static func libraryWords(_ form: WebForm, id: String) throws -> [String] {
        switch form["action"] ?? "" {
        case "favorite": return ["favorite", id]
        case "unfavorite": return ["favorite", id, "--off"]
        case "hide": return ["hide", id]
        case "unhide": return ["hide", id, "--off"]
        case "delete": return ["delete", id]
        case "restore": return ["restore", id]
        case "album-add": return ["album", "add", try albumID(form["album"]), id]
        case "album-remove": return ["album", "remove", try albumID(form["album"]), id]
        default: throw HTTPError(.badRequest, message: "unknown action")
        }
    }
}
