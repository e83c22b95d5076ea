// Router tests of the web gallery (HummingbirdTesting): access, CSRF, hostile requests.

import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PinholeConsole
import PinholeCore
import Synchronization
import XCTest

@testable import PinholeWeb

/// A route's path with its parameter filled in.
func routeURI(_ path: String, library: FakeLibrary) -> String {
    path.replacingOccurrences(of: "/album/{id}", with: "/album/smart:all")
        .replacingOccurrences(of: "{id}", with: library.ids[0])
}

/// A clock the tests move.
final class TestClock: Sendable {
    private let instant = Mutex(Instant(nanoseconds: 1_000_000_000))
    var now: Instant { instant.withLock { $0 } }
    func advance(_ duration: Duration) { instant.withLock { $0 = $0 + duration } }
}

/// Router tests need a logged-in client: these helpers log in and keep the cookie and token.
struct LoggedIn {
    var cookie: String
    var csrf: String

    var headers: HTTPFields { [.cookie: "pinhole_session=\(cookie)"] }
    var postHeaders: HTTPFields {
        [.cookie: "pinhole_session=\(cookie)", .contentType: "application/x-www-form-urlencoded"]
    }
    func form(_ text: String) -> ByteBuffer { ByteBuffer(string: "csrf=\(csrf)&" + text) }
}

class WebTestCase: XCTestCase {
    var library: FakeLibrary!
    let clock = TestClock()

    override func setUp() {
        library = FakeLibrary(count: 130)
    }

    override func tearDown() {
        library.remove()
    }

    func app(_ backend: FakeWebBackend, lifetime: Duration = .seconds(3600)) -> some ApplicationProtocol {
        let clock = self.clock
        let sessions = WebSessions(lifetime: lifetime, now: { clock.now })
        return Application(
            router: WebRoutes(backend: backend, sessions: sessions, liveFPS: 5, secure: false).router())
    }

}

func logIn(_ client: some TestClientProtocol, pin: String = "2468") async throws -> LoggedIn {
    try await client.execute(
        uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: "pin=\(pin)")
    ) { response in
        XCTAssertEqual(response.status, .seeOther)
        let setCookie = try XCTUnwrap(response.headers[.setCookie])
        let cookie = String(setCookie.split(separator: ";")[0].dropFirst("pinhole_session=".count))
        let page = try await client.execute(
            uri: "/albums", method: .get, headers: [.cookie: "pinhole_session=\(cookie)"])
        let html = String(buffer: page.body)
        let csrf = try XCTUnwrap(html.firstMatch(of: /name="csrf" content="([0-9a-f]{64})"/)?.1)
        return LoggedIn(cookie: cookie, csrf: String(csrf))
    }
}

final class WebAccessTests: WebTestCase {
    func testEveryRouteRefusesAnUnauthenticatedRequest() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        // The router's own list of what it serves, so that no route can be added unchecked;
        // only the login page and its form are open.
        let router = WebRoutes(
            backend: backend, sessions: WebSessions(lifetime: .seconds(60), now: { .zero }), liveFPS: 5,
            secure: false
        ).router()
        let served = router.routes.map { ($0.method, "\($0.path)") }.filter { $0.1 != "/login" }
        XCTAssertEqual(
            Set(served.map { "\($0.0) \($0.1)" }), Set(WebRoutes.routes.map { "\($0.0) \($0.1)" }),
            "WebRoutes.routes lists what the router serves")
        XCTAssertEqual(router.routes.count - served.count, 2, "GET and POST /login are the only open routes")
        try await app(backend).test(.router) { client in
            XCTAssertGreaterThanOrEqual(served.count, 19)
            for (method, path) in served {
                let uri = routeURI(path, library: library)
                for cookie in [
                    nil, "pinhole_session=" + String(repeating: "a", count: 64), "pinhole_session=../x",
                ] {
                    let headers: HTTPFields = cookie.map { [.cookie: $0] } ?? [:]
                    try await client.execute(
                        uri: uri, method: method, headers: headers, body: ByteBuffer(string: "csrf=x")
                    ) { response in
                        if method == .get {
                            XCTAssertEqual(response.status, .seeOther, "\(method) \(uri)")
                            XCTAssertEqual(response.headers[.location], "/login", "\(method) \(uri)")
                        } else {
                            XCTAssertEqual(response.status, .unauthorized, "\(method) \(uri)")
                        }
                        XCTAssertFalse(String(buffer: response.body).contains(library.ids[0]), uri)
                    }
                }
            }
        }
        XCTAssertTrue(backend.ran.isEmpty, "no command ran for a stranger")
    }

    func testEveryRouteIsListed() async throws {
        // A route the list forgets would escape the test above: every listed route must answer
        // something other than 404 once logged in, and an unlisted path 404s. The first photo
        // is a Live Photo, so that its motion clip is there.
        let library = FakeLibrary(count: 3, clips: [0: "live"])
        defer { library.remove() }
        let backend = FakeWebBackend(library: library, frame: nil)
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            for (method, path) in WebRoutes.routes
            where method == .get && path != "/camera/live" && path != "/events" {
                let uri = routeURI(path, library: library)
                let response = try await client.execute(uri: uri, method: method, headers: session.headers)
                XCTAssertNotEqual(response.status, .notFound, uri)
            }
            let unknown = try await client.execute(
                uri: "/nothing-here", method: .get, headers: session.headers)
            XCTAssertEqual(unknown.status, .notFound)
        }
    }

    func testLoginSetsAStrictHttpOnlyCookieWithAnExpiry() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            try await client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "pin=2468")
            ) { response in
                XCTAssertEqual(response.status, .seeOther)
                let cookie = try XCTUnwrap(response.headers[.setCookie])
                XCTAssertTrue(cookie.contains("HttpOnly"), cookie)
                XCTAssertTrue(cookie.contains("SameSite=Strict"), cookie)
                XCTAssertTrue(cookie.contains("Max-Age=3600"), cookie)
            }
        }
    }

    func testASessionExpires() async throws {
        let library = self.library!
        let clock = self.clock
        try await app(FakeWebBackend(library: library), lifetime: .seconds(60)).test(.router) { client in
            let session = try await logIn(client)
            let early = try await client.execute(uri: "/", method: .get, headers: session.headers)
            XCTAssertEqual(early.status, .ok)
            clock.advance(.seconds(61))
            let late = try await client.execute(uri: "/", method: .get, headers: session.headers)
            XCTAssertEqual(late.status, .seeOther)
        }
    }

    func testWrongPINsShareTheConsolesLockout() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        try await app(backend).test(.router) { client in
            for (attempt, expected) in ["wrong PIN: 2 more", "wrong PIN: 1 more", "locked out for 60 s"]
                .enumerated()
            {
                try await client.execute(
                    uri: "/login", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "pin=000\(attempt)")
                ) { response in
                    XCTAssertEqual(response.status, .unauthorized)
                    XCTAssertNil(response.headers[.setCookie])
                    XCTAssertTrue(
                        String(buffer: response.body).contains(expected), String(buffer: response.body))
                }
            }
            // Locked out: even the right PIN is refused now.
            let right = try await client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "pin=2468"))
            XCTAssertEqual(right.status, .unauthorized)
        }
        XCTAssertEqual(backend.pins.withLock { $0 }, ["0000", "0001", "0002", "2468"])
    }

    func testStateChangesNeedTheSessionsCSRFToken() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            let id = library.ids[0]
            for body in [
                "action=favorite", "csrf=\(String(repeating: "0", count: 64))&action=favorite",
                "csrf=&action=favorite",
            ] {
                let refused = try await client.execute(
                    uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                    body: ByteBuffer(string: body))
                XCTAssertEqual(refused.status, .forbidden, body)
            }
            var crossSite = session.postHeaders
            crossSite[.origin] = "http://evil.example"
            let cross = try await client.execute(
                uri: "/photo/\(id)/action", method: .post, headers: crossSite,
                body: session.form("action=favorite"))
            XCTAssertEqual(cross.status, .forbidden)
            XCTAssertTrue(backend.ran.isEmpty)
            let ok = try await client.execute(
                uri: "/photo/\(id)/action", method: .post, headers: session.postHeaders,
                body: session.form("action=favorite"))
            XCTAssertEqual(ok.status, .seeOther)
            var header = session.headers
            header[AccessMiddleware.csrfHeader] = session.csrf
            let script = try await client.execute(
                uri: "/camera/command", method: .post, headers: header,
                body: ByteBuffer(string: "command=shutter"))
            XCTAssertEqual(script.status, .ok)
        }
        XCTAssertEqual(
            backend.ran,
            [
                ConsoleInvocation(LibraryWordsCommand(["favorite", library.ids[0]])),
                ConsoleInvocation(CaptureCommand.now),
            ])
    }

    func testLogoutEndsTheSession() async throws {
        let library = self.library!
        try await app(FakeWebBackend(library: library)).test(.router) { client in
            let session = try await logIn(client)
            let out = try await client.execute(
                uri: "/logout", method: .post, headers: session.postHeaders, body: session.form(""))
            XCTAssertEqual(out.status, .seeOther)
            let after = try await client.execute(uri: "/", method: .get, headers: session.headers)
            XCTAssertEqual(after.status, .seeOther)
        }
    }

    func testNoPINMeansALoginWithoutOne() async throws {
        let library = self.library!
        try await app(FakeWebBackend(pin: nil, library: library)).test(.router) { client in
            let page = try await client.execute(uri: "/login", method: .get)
            XCTAssertTrue(String(buffer: page.body).contains("No PIN is set"))
            _ = try await logIn(client, pin: "")
        }
    }
}
