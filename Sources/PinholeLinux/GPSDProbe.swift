// Asks a gpsd for its VERSION banner over TCP (the doctor's gpsd item).

#if canImport(Glibc)
    import Glibc
#endif

/// Connects to gpsd and reads the `{"class":"VERSION",…,"release":"…"}` line it sends first.
enum GPSDProbe {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// gpsd's release, e.g. "3.22"; throws what went wrong. Waits at most two seconds.
    static func version(host: String, port: Int) throws -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            throw Failure(description: String(cString: strerror(errno)))
        }
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !text.contains("\n") {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 2000) > 0 else { throw Failure(description: "no VERSION line within 2 s") }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw Failure(description: "closed before its VERSION line") }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        guard text.contains("\"class\":\"VERSION\""),
            let range = text.range(of: "\"release\":\"")
        else { throw Failure(description: "not gpsd (no VERSION line)") }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}
