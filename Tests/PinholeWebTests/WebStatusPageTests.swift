// The status page's sections from `status --json` and `log`, and the settings page's forms.

import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PinholeConsole
import XCTest

@testable import PinholeWeb

final class WebStatusPageTests: WebTestCase {
    /// `status --json` as the simulated appliance answers it, with a problem and a running timelapse.
    static let status = """
        {"access":"open","camera":{"id":"x","model":"imx477","position":"back","stillSize":"4056x3040",\
        "torch":true},"cameras":2,"clock":"not trusted: <unsynchronized>","clockTrust":"unsynchronized",\
        "ev":0,"exposure":"auto","flash":"off","gps":"off","photos":1234,"problems":["camera restarted"],\
        "storageFreeBytes":71427870720,"storageLow":false,"timelapse":{"count":5,"every":"3s","missed":1,\
        "next":"2026-11-26T17:20:03.000+00:00","running":true,"taken":2},"torch":false,\
        "triggers":[{"fired":4,"ignoredDebounce":1,"ignoredHoldOff":2,"line":"GPIO21","name":"pir","shots":3}],\
        "uptimeSeconds":42,"whenFull":"stop","afMode":"continuous"}
        """

    private func backend() -> FakeWebBackend {
        FakeWebBackend(library: library) { invocation in
            switch invocation.command {
            case is StatusCommand: return invocation.json ? Self.status : "ok camera imx477"
            case is LogCommand: return "ok 17:19 camera restarted"
            case is SettingsCommand:
                return "ok capture.quality=93 console.baud=board default console.pin=set camera.ev=0.0"
            default: return "error 64: ev 9 is outside -4...4"
            }
        }
    }

    func testTheStatusPageShowsEachPartAndItsSectionsAlone() async throws {
        try await app(backend()).test(.router) { client in
            let session = try await logIn(client)
            let page = String(
                buffer: try await client.execute(uri: "/status", method: .get, headers: session.headers).body)
            for expected in [
                "<h2>Problems</h2>", "<li>camera restarted</li>", "<h2>Storage</h2>",
                "<td>Free</td><td>\(StatusLine.bytes(71_427_870_720))</td>", "<td>1234</td>",
                "imx477 (back) 4056x3040", "every 3s, count 5", "<td>Missed</td><td>1</td>",
                "pir (GPIO21)", "fired 4, 3 shots, ignored 2 in hold-off, 1 in debounce",
                "not trusted: &lt;unsynchronized&gt;", "<td>Clock trust</td><td>unsynchronized</td>",
                "<h2>Log</h2><pre>ok 17:19 camera restarted</pre>", "id=\"log\"",
            ] {
                XCTAssertTrue(page.contains(expected), expected)
            }
            let sections = String(
                buffer: try await client.execute(
                    uri: "/status?sections=1", method: .get, headers: session.headers
                )
                .body)
            XCTAssertTrue(sections.hasPrefix("<h2>Problems</h2>"), String(sections.prefix(80)))
            XCTAssertFalse(sections.contains("<html"), "only the sections, for the page's script")
        }
    }

    func testTheSettingsPageHasAFormPerSettingWithItsValueAndShowsARefusal() async throws {
        XCTAssertEqual(
            SettingsPage.values(
                "ok capture.quality=93 console.baud=board default console.pin=set camera.ev=0.0"),
            [
                "capture.quality": "93", "console.baud": "board default", "console.pin": "set",
                "camera.ev": "0.0",
            ])
        try await app(backend()).test(.router) { client in
            let session = try await logIn(client)
            let page = String(
                buffer: try await client.execute(uri: "/settings", method: .get, headers: session.headers)
                    .body)
            XCTAssertEqual(
                page.components(separatedBy: "<form method=\"post\" action=\"/settings\">").count - 1,
                SetCommand.keys.count)
            XCTAssertTrue(page.contains("id=\"s-console.baud\" name=\"value\" value=\"board default\""))
            XCTAssertTrue(page.contains("PIN: set"))
            let refused = try await client.execute(
                uri: "/settings", method: .post, headers: session.postHeaders,
                body: session.form("key=camera.ev&value=9&confirm=save"))
            XCTAssertEqual(refused.status, .conflict)
            XCTAssertTrue(String(buffer: refused.body).contains("ev 9 is outside -4...4"))
        }
    }

    func testASettingThatIsNotOneOfTheConsolesIsRefusedBeforeAnyCommandRuns() async throws {
        let backend = FakeWebBackend(library: library) { _ in "ok saved" }
        try await app(backend).test(.router) { client in
            let session = try await logIn(client)
            // Confirmed as the console asks, so only the key check stands in the way.
            for key in ["capture.nonsense", "console.pin_hash", "web.open", "camera", "camera.ev.x"] {
                XCTAssertFalse(SetCommand.keys.contains(key))
                let answer = try await client.execute(
                    uri: "/settings", method: .post, headers: session.postHeaders,
                    body: session.form("key=\(key)&value=1&confirm=save"))
                XCTAssertEqual(answer.status, .badRequest, key)
                XCTAssertTrue(String(buffer: answer.body).contains("no setting '\(key)'"), key)
            }
            XCTAssertTrue(backend.ran.isEmpty, "ran \(backend.ran.map { "\($0.command)" })")
            let known = try await client.execute(
                uri: "/settings", method: .post, headers: session.postHeaders,
                body: session.form("key=camera.ev&value=1&confirm=save"))
            XCTAssertEqual(known.status, .seeOther)
            XCTAssertEqual(backend.ran.count, 1)
        }
    }
}
