// The gallery's routes: login, and the pages and actions behind it, over one backend.

import HTTPTypes
import Hummingbird
import NIOCore
import PinholeConsole

/// Builds the router. Every route but `/login` needs a session (`AccessMiddleware`); every
/// state-changing one a CSRF token. Handlers turn a request into a typed console command or a
/// library read: no text is ever parsed as a command.
struct WebRoutes: Sendable {
    let backend: any WebBackend
    let sessions: WebSessions
    /// The live view's frame rate at most.
    let liveFPS: Int
    /// Whether sessions' cookies are marked Secure (HTTPS).
    let secure: Bool
    /// Thumbnails already sent, following the library's changes.
    let thumbnails: ThumbnailCache
    /// The deadline on each write of the live view, the event stream and the original and
    /// archive downloads.
    let stallGuard: StallGuard

    /// Routes over `backend`; thumbnails are kept in memory up to `thumbnailBytes`. A live view,
    /// event stream or download whose client takes no bytes for `stallLimit` on `clock` is
    /// disconnected.
    init(
        backend: any WebBackend, sessions: WebSessions, liveFPS: Int, secure: Bool,
        thumbnailBytes: Int = 8 << 20, stallLimit: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.backend = backend
        self.sessions = sessions
        self.liveFPS = liveFPS
        self.secure = secure
        stallGuard = StallGuard(limit: stallLimit, clock: clock)
        thumbnails = ThumbnailCache(capacity: thumbnailBytes)
        thumbnails.follow(backend.library)
    }

    /// Every route as (method, path), for the test that checks each refuses strangers.
    static let routes: [(HTTPRequest.Method, String)] = [
        (.get, "/"), (.get, "/app.js"), (.get, "/albums"), (.get, "/album/{id}"), (.get, "/grid"),
        (.get, "/photo/{id}"), (.get, "/photo/{id}/thumb"), (.get, "/photo/{id}/view"),
        (.get, "/photo/{id}/original"), (.get, "/photo/{id}/motion"), (.post, "/photo/{id}/action"),
        (.post, "/archive"),
        (.get, "/camera"), (.get, "/camera/live"), (.post, "/camera/command"), (.get, "/events"),
        (.get, "/status"), (.get, "/settings"), (.post, "/settings"), (.post, "/logout"),
    ]

    func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: AccessMiddleware(sessions: sessions))
        router.get("/login") { _, context in try await loginPage(context: context, message: nil) }
        router.post("/login") { request, context in try await login(request, context: context) }
        router.post("/logout") { request, context in logout(request, context: context) }
        router.get("/app.js") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/javascript; charset=utf-8", .cacheControl: "private, max-age=3600",
                ],
                body: .init(byteBuffer: ByteBuffer(string: WebAssets.javascript)))
        }
        addLibraryRoutes(to: router)
        addCameraRoutes(to: router)
        return router
    }

    // MARK: Login

    private func loginPage(context: WebContext, message: String?) async throws -> Response {
        if context.session != nil { return Response(status: .seeOther, headers: [.location: "/"]) }
        let pinned = await backend.hasPIN()
        var body = message.map { "<p class=\"error\">\(HTML.escape($0))</p>" } ?? ""
        body +=
            pinned
            ? """
            <form method="post" action="/login"><label>PIN <input name="pin" type="password" \
            inputmode="numeric" autocomplete="current-password" autofocus required></label>\
            <button>Log in</button></form>
            """
            : """
            <p class="note">No PIN is set on this camera: anyone who can reach it can use it. \
            Set one on the console (<code>pin set</code>).</p>\
            <form method="post" action="/login"><button>Enter</button></form>
            """
        return Self.html(
            HTML.page(title: "Log in", csrf: nil, body: body, script: false),
            status: message == nil ? .ok : .unauthorized)
    }

    private func login(_ request: Request, context: WebContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 4096)
        guard let form = WebForm(String(buffer: body)) else {
            throw HTTPError(.badRequest, message: "bad form")
        }
        let pin = form["pin"] ?? ""
        guard pin.utf8.count <= 64 else { return try await loginPage(context: context, message: "wrong PIN") }
        switch await backend.login(pin: pin) {
        case .accepted:
            let session = sessions.create()
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.setCookie(
                Cookie(
                    name: AccessMiddleware.cookie, value: session.token,
                    maxAge: sessions.secondsLeft(session),
                    path: "/", secure: secure, httpOnly: true, sameSite: .strict))
            return response
        case .wrong(let remaining):
            return try await loginPage(
                context: context, message: "wrong PIN: \(remaining) more tries before a lock-out")
        case .lockedOut(let seconds):
            return try await loginPage(
                context: context, message: "too many wrong PINs: locked out for \(seconds) s")
        }
    }

    private func logout(_ request: Request, context: WebContext) -> Response {
        if let session = context.session { sessions.end(token: session.token) }
        var response = Response(status: .seeOther, headers: [.location: "/login"])
        response.setCookie(
            Cookie(
                name: AccessMiddleware.cookie, value: "", maxAge: 0, path: "/", httpOnly: true,
                sameSite: .strict))
        return response
    }

    // MARK: Helpers

    /// An HTML answer.
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A plain-text answer.
    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// The session of a request that passed the access middleware.
    static func session(_ context: WebContext) throws -> WebSession {
        guard let session = context.session else { throw HTTPError(.unauthorized) }
        return session
    }

    /// Runs a typed command and answers with the console's answer line: 200 for `ok …` or
    /// JSON, 409 for an error the command reported. A command the menu confirms with a typed
    /// word runs only when the form's `confirm` field is that word, as on the console.
    func command(_ command: any ConsoleCommand, json: Bool = false, form: WebForm? = nil) async -> (
        ok: Bool, answer: String
    ) {
        if let question = command.confirmation, form?["confirm"] != question.word {
            return (false, "error 64: \(question.question) Type \(question.word) to confirm.")
        }
        let answer = await backend.run(ConsoleInvocation(command, json: json))
        let failed = answer.hasPrefix("error ") || answer.hasPrefix("{\"error\"")
        return (!failed, answer)
    }

    /// The form of a POST (the access middleware has checked its CSRF token).
    static func form(_ request: Request, context: WebContext) async throws -> WebForm {
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard let form = WebForm(String(buffer: body)) else {
            throw HTTPError(.badRequest, message: "bad form")
        }
        return form
    }
}
