// The request context of the web gallery: Hummingbird's core storage plus the session.

import Hummingbird

/// A request's context: the logged-in session, once the access middleware has found it.
public struct WebContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The session the request's cookie names (nil: not logged in).
    public var session: WebSession?

    /// Creates a context for a request.
    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Forms are small: a PIN, a command, a list of photo ids.
    public var maxUploadSize: Int { 64 * 1024 }
}
