// Serves a photo's original (or a Live Photo's motion clip) with HTTP Range (one range),
// If-Range and a strong ETag: clips seek and play in the browser's video element.

import HTTPTypes
import Hummingbird
import NIOCore
import SystemPackage
import _NIOFileSystem

/// The original of a photo as a download: whole, or the one byte range asked for.
enum OriginalResponse {
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
        var asked = ByteRangeRequest(header: request.headers[.range], size: size)
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
