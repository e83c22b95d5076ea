// The systemd drop-in and the avahi service file that match `[web] listen`, made from it.

import SystemPackage

/// What the service needs opened for the configured gallery, and its mDNS announcement:
/// `pinhole web files` writes them, `pinhole doctor` compares the installed drop-in.
public enum WebUnitFiles {
    /// Where the service's drop-in goes.
    public static let dropInPath: FilePath = "/etc/systemd/system/pinhole.service.d/web.conf"
    /// Where avahi-daemon reads service files.
    public static let avahiPath: FilePath = "/etc/avahi/services/pinhole-web.service"
    /// The local networks a phone reaches the camera from (besides loopback).
    static let localNetworks = "link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"

    /// The host the server binds: loopback when no PIN is set and `open` is false.
    public static func boundHost(_ options: WebServerOptions, hasPIN: Bool) -> String {
        if hasPIN || options.open || WebServer.isLoopback(options.host) { return options.host }
        return options.host.contains(":") ? "::1" : "127.0.0.1"
    }

    /// The drop-in for `pinhole.service`: IP sockets, binding exactly the port, and answering
    /// loopback only for a loopback address, else loopback and the local networks.
    public static func dropIn(_ options: WebServerOptions, hasPIN: Bool) -> String {
        let host = boundHost(options, hasPIN: hasPIN)
        let loopback = WebServer.isLoopback(host)
        let families = host.contains(":") || host == "localhost" ? "AF_INET AF_INET6" : "AF_INET"
        return """
            # Made by `pinhole web files` from [web] listen = "\(options.host):\(options.port)" \
            (\(loopback ? "loopback only" : "local networks")): run it again after changing [web].
            [Service]
            RestrictAddressFamilies=AF_UNIX AF_NETLINK \(families)
            SocketBindDeny=any
            SocketBindAllow=tcp:\(options.port)
            IPAddressAllow=localhost\(loopback ? "" : " " + localNetworks)

            """
    }

    /// The avahi service file announcing the gallery (nil when it listens on loopback only:
    /// there is nothing to announce).
    public static func avahiService(_ options: WebServerOptions, hasPIN: Bool) -> String? {
        guard !WebServer.isLoopback(boundHost(options, hasPIN: hasPIN)) else { return nil }
        let type = options.certificate == nil ? "_http._tcp" : "_https._tcp"
        return """
            <?xml version="1.0" standalone='no'?>
            <!DOCTYPE service-group SYSTEM "avahi-service.dtd">
            <!-- Made by `pinhole web files` from [web] listen: the gallery at NAME.local. -->
            <service-group>
              <name replace-wildcards="yes">Pinhole camera on %h</name>
              <service>
                <type>\(type)</type>
                <port>\(options.port)</port>
                <txt-record>path=/</txt-record>
              </service>
            </service-group>

            """
    }
}
