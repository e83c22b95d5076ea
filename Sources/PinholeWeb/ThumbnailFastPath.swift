// Thumbnails already in memory, answered in the connection's pipeline before Hummingbird's router.

import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes
import PinholeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Answers `GET /photo/ID/thumb` in the channel pipeline (one of Hummingbird's
/// `additionalChannelHandlers`) when the request carries a live session and the thumbnail is
/// in the server's memory: no task, router or middleware per request, which were most of a
/// cached thumbnail's cost. Anything else goes on to Hummingbird unchanged, which answers it,
/// and refuses strangers, as before: no session (the router's redirect or 401), a thumbnail
/// not read yet, another method or path, a body, a `Connection` header, or a request behind
/// one whose answer is still being written on this connection (answers keep their order), or
/// the first after `Shared.routeEvery` without one through the router: Hummingbird's idle timer
/// sees only those, and would close a connection busy with cached thumbnails alone. The answer
/// is the route's, header for header.
final class ThumbnailFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection's handler shares: the server's sessions and thumbnails.
    final class Shared: Sendable {
        let sessions: WebSessions
        let thumbnails: ThumbnailCache
        /// The `Server` header Hummingbird sets on its answers.
        let serverName: String
        /// A connection sends a request through the router at least this often while it asks
        /// for thumbnails (half the server's idle timeout).
        let routeEvery: Duration
        /// The server's clock (the appliance's, or a test's).
        let now: @Sendable () -> Instant
        /// Requests answered here so far.
        let answered = Atomic<Int>(0)

        init(
            sessions: WebSessions, thumbnails: ThumbnailCache, serverName: String, routeEvery: Duration,
            now: @escaping @Sendable () -> Instant
        ) {
            self.sessions = sessions
            self.thumbnails = thumbnails
            self.serverName = serverName
            self.routeEvery = routeEvery
            self.now = now
        }
    }

    private let shared: Shared
    /// Requests passed on to Hummingbird whose answer has not been written to its end.
    private var pending = 0
    /// Dropping the rest of a request answered here, up to its end.
    private var skipping = false
    /// When the last request went through the router (or the connection opened).
    private var routed: Instant
    /// The `Date` header and the second it names.
    private var date = (second: -1, text: "")

    init(shared: Shared) {
        self.shared = shared
        routed = shared.now()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if skipping {
            if case .end = part { skipping = false }
            return
        }
        guard case .head(let request) = part else {
            context.fireChannelRead(data)
            return
        }
        let now = shared.now()
        guard pending == 0, now - routed < shared.routeEvery, var answer = answer(request) else {
            pending += 1
            routed = now
            context.fireChannelRead(data)
            return
        }
        skipping = true
        shared.answered.add(1, ordering: .relaxed)
        answer.head.headerFields[.date] = httpDate()
        answer.head.headerFields[.server] = shared.serverName
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), pending > 0 { pending -= 1 }
        context.write(data, promise: promise)
    }

    /// The route's answer to `request` when it is a logged-in GET of a thumbnail in memory.
    private func answer(_ request: HTTPRequest) -> (head: HTTPResponse, body: ByteBuffer?)? {
        let fields = request.headerFields
        guard request.method == .get, let path = request.path, let id = Self.thumbnailID(path),
            fields[.connection] == nil, fields[.contentLength] == nil, fields[.transferEncoding] == nil,
            let token = AccessMiddleware.sessionToken(fields), shared.sessions.session(token: token) != nil,
            let entry = shared.thumbnails.entry(id: id, size: WebRoutes.thumbnailSize)
        else { return nil }
        var answer = entry.answer(ifNoneMatch: fields[.ifNoneMatch])
        answer.head.headerFields[.contentLength] = String(answer.body?.readableBytes ?? 0)
        SecurityHeaders.apply(to: &answer.head.headerFields)
        return answer
    }

    /// The photo id of `/photo/ID/thumb` exactly (nil for any other path, or a query).
    static func thumbnailID(_ path: String) -> String? {
        let prefix = "/photo/"
        let suffix = "/thumb"
        guard path.utf8.count == prefix.utf8.count + 36 + suffix.utf8.count, path.hasPrefix(prefix),
            path.hasSuffix(suffix)
        else { return nil }
        return try? WebRoutes.photoID(String(path.dropFirst(prefix.count).dropLast(suffix.count)))
    }

    /// Now as an HTTP date (RFC 9110's IMF-fixdate), made once a second.
    private func httpDate() -> String {
        let now = time(nil)
        guard now != date.second else { return date.text }
        var parts = tm()
        var seconds = now
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        date = (now, text)
        return text
    }
}
