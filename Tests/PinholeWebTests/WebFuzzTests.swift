// Hostile web requests: the committed corpus (fuzz/web/corpus.txt) and seeded mutations of every form.

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PinholeConsole
import Synchronization
import XCTest

@testable import PinholeWeb

final class WebFuzzTests: WebTestCase {
    /// The corpus: `METHOD URI [BODY]` lines, `ID` standing for a photo of the test library.
    private func corpus() throws -> [(method: HTTPRequest.Method, uri: String, body: String)] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let text = try String(contentsOf: root.appendingPathComponent("fuzz/web/corpus.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: " ", maxSplits: 2).map {
                $0.replacingOccurrences(of: "ID", with: library.ids[0])
            }
            return (HTTPRequest.Method(parts[0])!, parts[1], parts.count > 2 ? parts[2] : "")
        }
    }

    func testTheCorpusIsRefusedAndRunsNothing() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        let requests = try corpus()
        XCTAssertGreaterThan(requests.count, 50)
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            for (method, uri, body) in requests {
                let response = try await client.execute(
                    uri: uri, method: method, headers: session.postHeaders, body: session.form(body))
                XCTAssertTrue(
                    (400..<500).contains(Int(response.status.code)),
                    "\(method) \(uri) \(body): \(response.status)")
                XCTAssertFalse(String(buffer: response.body).contains("root:"), uri)
            }
        }
        XCTAssertEqual(backend.ran, [], "a refused request ran a command")
    }

    /// Every form with each field replaced by hostile text, seeded: nothing traps or answers
    /// 5xx, and a refused request runs nothing.
    func testMutatedFormsNeverTrapAndARefusalRunsNothing() async throws {
        let library = self.library!
        let backend = FakeWebBackend(library: library)
        let id = library.ids[0]
        let forms: [(String, [(String, String)])] = [
            (
                "/photo/\(id)/action",
                [("action", "album-add"), ("album", library.ids[1]), ("confirm", "delete")]
            ),
            ("/archive", [("ids", "\(id),\(library.ids[1])")]),
            ("/camera/command", [("command", "af-point"), ("x", "0.5"), ("y", "0.5")]),
            ("/camera/command", [("command", "exposure-manual"), ("time", "1000"), ("gain", "2")]),
            ("/settings", [("key", "camera.ev"), ("value", "1"), ("confirm", "yes")]),
        ]
        let hostile = [
            "", "%", "%zz", "%00", "%ff%fe", "..%2f..%2fetc%2fpasswd", "nan", "-inf", "1e999", "-0",
            String(repeating: "9", count: 400), String(repeating: "a%2c", count: 600), "%E2%80%AE", "a&b=c",
            "smart:all", "%0d%0acapture", "0x10", "+1", " 1", "1,2,3",
        ]
        var random = SeededRandom(seed: 23)
        let requests: [(uri: String, body: String)] = (0..<300).map { _ in
            let (uri, fields) = forms[random.next(below: forms.count)]
            var mutated = fields
            let field = random.next(below: mutated.count)
            mutated[field].1 = hostile[random.next(below: hostile.count)]
            if random.next(below: 4) == 0 { mutated.remove(at: random.next(below: mutated.count)) }
            return (uri, mutated.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
        }
        let sent = Atomic<Int>(0)
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            for (uri, body) in requests {
                let before = backend.ran.count
                let response = try await client.execute(
                    uri: uri, method: .post, headers: session.postHeaders, body: session.form(body))
                let status = Int(response.status.code)
                XCTAssertLessThan(status, 500, "\(uri) \(body)")
                if (400..<500).contains(status) && status != 409 {
                    XCTAssertEqual(backend.ran.count, before, "refused but ran: \(uri) \(body)")
                }
                sent.add(1, ordering: .relaxed)
            }
        }
        XCTAssertEqual(sent.load(ordering: .relaxed), 300)
    }
}

/// Deterministic pseudo-random numbers (SplitMix64) for the mutations.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
