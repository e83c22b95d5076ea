// Serves a photo's original (or a Live Photo's motion clip) with HTTP Range (one range),
// If-Range and a strong ETag: clips seek and play in the browser's video element.

import HTTPTypes
import Hummingbird
import NIOCore
import SystemPackage
import _NIOFileSystem

/// The original of a photo as a download: whole, or the one byte range asked for.
enum OriginalResponse {
    /// A byte range request's outcome against a file of `size` bytes.
    enum RangeRequest: Equatable {
        /// No usable Range header: the whole file (a malformed or multi-range header is
        /// ignored, as RFC 9110 allows).
        case whole
        /// These bytes.
        case part(ClosedRange<Int>)
        /// The range starts past the end: 416.
        case unsatisfiable
    }

    /// Reads `bytes=A-B`, `bytes=A-` or `bytes=-N` against `size`.
    static func range(_ header: String?, size: Int) -> RangeRequest {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 18, parts[1].utf8.count <= 18,
            parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII)
        else { return .whole }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix >= 0 else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        guard let first = Int(parts[0]), first >= 0 else { return .whole }
        let last: Int
        if parts[1].isEmpty {
            last = size - 1
        } else {
            guard let value = Int(parts[1]), value >= first else { return .whole }
            last = min(value, size - 1)
        }
        guard first < size else { return .unsatisfiable }
        return .part(first...last)
    }

    /// The answer to `request` for `file`: its bytes are read in 128 KiB pieces as they are
    /// sent, each written within `stallGuard`'s limit.
    static func respond(
        to request: Request, file: (path: FilePath, size: Int64, name: String), id: String,
        stallGuard: StallGuard
    ) -> Response {
        let size = Int(file.size)
        let etag = "\"\(id)-\(size)\""
        var headers: HTTPFields = [
            .contentType: file.name.hasSuffix(".mp4") ? "video/mp4" : "image/jpeg", .acceptRanges: "bytes",
            .eTag: etag,
            .contentDisposition:
                "attachment; filename=\"\(file.name.filter { $0.isASCII && $0 != "\"" && $0 != "\\" })\"",
            .cacheControl: "private, max-age=86400",
        ]
        var asked = range(request.headers[.range], size: size)
        if let ifRange = request.headers[.ifRange], ifRange != etag { asked = .whole }
        switch asked {
        case .whole:
            headers[.contentLength] = "\(size)"
            if request.method == .head { return Response(status: .ok, headers: headers) }
            return Response(
                status: .ok, headers: headers, body: body(file.path, bytes: 0..<size, stallGuard: stallGuard))
        case .part(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
            headers[.contentLength] = "\(bytes.count)"
            if request.method == .head { return Response(status: .partialContent, headers: headers) }
            return Response(
                status: .partialContent, headers: headers,
                body: body(
                    file.path, bytes: bytes.lowerBound..<(bytes.upperBound + 1), stallGuard: stallGuard))
        case .unsatisfiable:
            return Response(
                status: .rangeNotSatisfiable,
                headers: [.contentRange: "bytes */\(size)", .contentLength: "0"])
        }
    }

    /// `bytes` of the file at `path`, read as they are sent.
    private static func body(_ path: FilePath, bytes: Range<Int>, stallGuard: StallGuard) -> ResponseBody {
        ResponseBody(contentLength: bytes.count) { writer in
            try await FileSystem.shared.withFileHandle(forReadingAt: path) { handle in
                let range = Int64(bytes.lowerBound)..<Int64(bytes.upperBound)
                for try await chunk in handle.readChunks(in: range, chunkLength: .kibibytes(128)) {
                    try await stallGuard.write(chunk, to: &writer)
                }
            }
            try await writer.finish(nil)
        }
    }
}
