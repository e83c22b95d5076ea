// The service drop-in and the avahi file follow [web] listen: port, address family, networks.

import XCTest

@testable import PinholeWeb

final class WebUnitFilesTests: XCTestCase {
    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    func testTheDropInOpensExactlyTheListenPortToTheLocalNetworks() {
        let text = WebUnitFiles.dropIn(WebServerOptions(host: "0.0.0.0", port: 8443), hasPIN: true)
        XCTAssertTrue(lines(text).contains("SocketBindAllow=tcp:8443"), text)
        XCTAssertTrue(lines(text).contains("SocketBindDeny=any"), text)
        XCTAssertTrue(lines(text).contains("RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET"), text)
        XCTAssertTrue(
            lines(text).contains(
                "IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"), text)
        let six = WebUnitFiles.dropIn(WebServerOptions(host: "::", port: 80), hasPIN: true)
        XCTAssertTrue(lines(six).contains("RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6"), six)
        XCTAssertTrue(lines(six).contains("SocketBindAllow=tcp:80"), six)
    }

    func testLoopbackListenOrNoPINOpensLoopbackOnlyAndAnnouncesNothing() {
        for (host, hasPIN, open) in [
            ("127.0.0.1", true, false), ("0.0.0.0", false, false), ("::", false, false),
        ] {
            var options = WebServerOptions(host: host, port: 8080)
            options.open = open
            let text = WebUnitFiles.dropIn(options, hasPIN: hasPIN)
            XCTAssertTrue(lines(text).contains("IPAddressAllow=localhost"), "\(host): \(text)")
            XCTAssertNil(WebUnitFiles.avahiService(options, hasPIN: hasPIN), host)
        }
        var open = WebServerOptions(host: "0.0.0.0", port: 8080)
        open.open = true
        XCTAssertFalse(lines(WebUnitFiles.dropIn(open, hasPIN: false)).contains("IPAddressAllow=localhost"))
    }

    func testTheAvahiFileAnnouncesThePortAndTheScheme() throws {
        var options = WebServerOptions(host: "0.0.0.0", port: 8443)
        let plain = try XCTUnwrap(WebUnitFiles.avahiService(options, hasPIN: true))
        XCTAssertTrue(plain.contains("<type>_http._tcp</type>") && plain.contains("<port>8443</port>"), plain)
        options.certificate = "/etc/pinhole/web.crt"
        options.key = "/etc/pinhole/web.key"
        let tls = try XCTUnwrap(WebUnitFiles.avahiService(options, hasPIN: true))
        XCTAssertTrue(tls.contains("<type>_https._tcp</type>"), tls)
    }
}
