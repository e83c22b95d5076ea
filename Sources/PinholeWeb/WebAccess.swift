// Access to the web gallery: a session cookie for every route but the login page, and a
// CSRF token on every state-changing request.

import HTTPTypes
import Hummingbird
import NIOCore
import PinholeCore

/// The paths anyone may ask for: the login page and its form.
enum PublicRoutes {
    static let paths: Set<String> = ["/login"]
}

/// Refuses requests without a live session (a redirect to the login page for a page, 401
/// for anything else), and state-changing requests whose CSRF token or Origin is wrong (403).
struct AccessMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let sessions: WebSessions
    /// The session cookie's name.
    static let cookie = "pinhole_session"
    /// The header a script sends its CSRF token in (forms send the `csrf` field).
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    func handle(
        _ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.session = Self.sessionToken(request.headers).flatMap { sessions.session(token: $0) }
        let changesState = request.method != .get && request.method != .head
        if changesState, !Self.sameOrigin(request) {
            throw HTTPError(.forbidden, message: "cross-site request refused")
        }
        guard !PublicRoutes.paths.contains(request.uri.path) else { return try await next(request, context) }
        guard let session = context.session else {
            if request.method == .get || request.method == .head {
                return Response(status: .seeOther, headers: [.location: "/login", .cacheControl: "no-store"])
            }
            throw HTTPError(.unauthorized, message: "log in first")
        }
        var request = request
        if changesState {
            // Scripts send the token as a header, forms as their `csrf` field.
            var sent = request.headers[Self.csrfHeader]
            if sent == nil {
                let body = try await request.collectBody(upTo: context.maxUploadSize)
                sent = WebForm(String(buffer: body))?["csrf"]
            }
            guard let sent, constantTimeEqual(sent, session.csrf) else {
                throw HTTPError(.forbidden, message: "missing or wrong CSRF token: reload the page")
            }
        }
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    /// The session cookie's value among a request's cookies (the first, as a browser sends the
    /// most specific first), without parsing the others.
    static func sessionToken(_ headers: HTTPFields) -> String? {
        for field in headers[values: .cookie] {
            for crumb in field.utf8.split(separator: UInt8(ascii: ";")) {
                let pair = crumb.drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
                guard pair.starts(with: cookiePrefix) else { continue }
                var value = pair.dropFirst(cookiePrefix.count)
                while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                    value.removeLast()
                }
                return String(decoding: value, as: UTF8.self)
            }
        }
        return nil
    }

    private static let cookiePrefix = Array("\(cookie)=".utf8)

    /// A browser names the page a request came from in Origin; when it does, it must be this
    /// server (a form on another site cannot post here even if SameSite were ignored).
    static func sameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let host = request.head.authority else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}

/// Headers every answer carries: no framing, no sniffing, scripts from this server only.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        SecurityHeaders.apply(to: &response.headers)
        return response
    }
}

/// The headers of `SecurityHeadersMiddleware`, also for answers made outside the router.
enum SecurityHeaders {
    private static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// Sets them on `headers`.
    static func apply(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
        headers[contentTypeOptions] = "nosniff"
        headers[referrerPolicy] = "same-origin"
    }
}
