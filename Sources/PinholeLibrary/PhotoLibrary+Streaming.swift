// Copying files too large to hold (clips) through the library in bounded pieces, counted so tests see the bound.

/// What the library's streamed copies have read since it was opened: pieces, bytes and the
/// largest piece (never more than `LibraryOptions.streamChunkBytes`).
struct StreamedReads: Sendable, Hashable {
    /// Pieces read.
    var reads = 0
    /// Bytes read.
    var bytes: Int64 = 0
    /// The largest piece, in bytes.
    var largestRead = 0
}

/// Something that hands its writer a file's bytes, piece by piece (an export's file).
typealias ByteProducer = (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void

extension PhotoLibrary {
    /// Hands `write` the bytes of `path` (from `offset`, `count` bytes or to its end) in pieces
    /// of at most `options.streamChunkBytes`, one buffer of that size held throughout.
    func stream(
        _ path: String, from offset: Int64 = 0, count: Int64? = nil,
        to write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try POSIXFiles.forEachChunk(
            of: path, from: offset, count: count, chunkBytes: options.streamChunkBytes
        ) {
            piece in
            streamed.withLock {
                $0.reads += 1
                $0.bytes += Int64(piece.count)
                $0.largestRead = max($0.largestRead, piece.count)
            }
            try write(piece)
        }
    }

    /// Whether the file at `path` holds exactly what `produce` makes, compared piece by piece
    /// (a file left torn by a power cut does not); false when it cannot be read.
    func fileHolds(_ path: String, _ produce: ByteProducer) throws -> Bool {
        guard let size = POSIXFiles.fileSize(path) else { return false }
        struct Differs: Error {}
        var offset: Int64 = 0
        do {
            try produce { piece in
                guard offset + Int64(piece.count) <= size,
                    let held = try? POSIXFiles.read(path, at: offset, count: piece.count),
                    held.elementsEqual(piece)
                else { throw Differs() }
                offset += Int64(piece.count)
            }
        } catch is Differs {
            return false
        }
        return offset == size
    }
}
