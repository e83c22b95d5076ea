// A Motion Photo read from a file on a stick: the still without its XMP segment and video, and where the video lies.

extension MotionPhotoParts {
    /// Reads the JPEG at `path` (a regular file from outside the library, see
    /// `POSIXFiles.withRegularFile`). A Motion Photo (see `find(size:read:)`) gives its still
    /// (the JPEG without that segment and without the video, at most `limit` bytes) and its
    /// parts; the video is not read. Any other file is read whole (at most `limit` bytes),
    /// parts nil.
    static func read(_ path: String, limit: Int) throws -> (jpeg: [UInt8], motion: MotionPhotoParts?) {
        try POSIXFiles.withRegularFile(path) { fd, info in
            let read = { (offset: Int64, count: Int) in
                try POSIXFiles.read(fd, path: path, at: offset, count: count)
            }
            guard let (parts, segment) = try find(size: Int64(info.st_size), read: read) else {
                return (try POSIXFiles.readAll(fd, path: path, size: info.st_size, limit: limit), nil)
            }
            let stillSize = parts.videoOffset - Int64(segment.count)
            guard stillSize <= Int64(limit) else {
                throw LibraryError.invalidImage(
                    path: path,
                    reason: "a still of \(stillSize) bytes, more than the \(limit >> 20) MB a photo may have")
            }
            let still =
                try read(0, Int(segment.lowerBound))
                + read(segment.upperBound, Int(parts.videoOffset - segment.upperBound))
            return (still, parts)
        }
    }
}
