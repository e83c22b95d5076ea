// The pre-roll ring: the last seconds of *encoded* video, bounded by bytes, always starting at a keyframe.

import PinholeCore

/// Encoded packets of the last `seconds`, whole groups of pictures only, so that a clip taken
/// from it starts at a keyframe. Memory is bounded by `byteLimit`: when the newest packets
/// need room, the oldest group goes, even if the ring then covers less than `seconds`.
public struct PreRollRing: Sendable {
    /// How far back the ring should reach, in microseconds.
    public let spanMicroseconds: Int64
    /// The most bytes it holds.
    public let byteLimit: Int
    /// Groups of pictures, oldest first; each starts with a keyframe.
    private var groups: [[EncodedPacket]] = []
    /// Bytes held.
    public private(set) var byteCount = 0
    /// The most bytes held at once since the ring was made (the pre-roll's memory figure).
    public private(set) var peakByteCount = 0
    /// While set, the group holding this time (µs) and those after it stay, past `seconds`
    /// and up to four times `byteLimit`: a Live Photo's window waits there while its still is
    /// saved, which may take longer than the ring's slack (a 12 MP JPEG under load).
    public var keepFrom: Int64?

    /// Creates an empty ring reaching back `spanMicroseconds`, holding at most `byteLimit` bytes.
    public init(spanMicroseconds: Int64, byteLimit: Int) {
        self.spanMicroseconds = max(0, spanMicroseconds)
        self.byteLimit = max(0, byteLimit)
    }

    /// Times the byte limit cut the ring below its span (the stream ran above the rate the
    /// limit was sized for): a clip started then would begin later than its pre-roll asks.
    public private(set) var shortfalls = 0

    /// The ring's size for a pre-roll of `seconds` at `bitRate`: 1.2 × bit rate × seconds (issue
    /// 21). The span plus the group of pictures it starts in fits only when the encoder keeps
    /// keyframes and its rate within the other 0.2 × seconds (`VideoSettings.encoderSettings(_:ringSeconds:)`).
    public static func byteLimit(bitRate: Int, seconds: Double) -> Int {
        Int(Double(bitRate) / 8 * seconds * (1 + VideoSettings.ringHeadroom))
    }

    /// Packets held.
    public var packetCount: Int { groups.reduce(0) { $0 + $1.count } }

    /// The oldest packet's presentation time, nil when empty.
    public var oldestMicroseconds: Int64? { groups.first?.first?.presentationMicroseconds }

    /// Adds the newest packet. A packet before the first keyframe is dropped (nothing could
    /// decode it), and so is one not newer than the newest held; then whole groups go from the front while the next group still reaches back
    /// far enough, or while the ring is over its byte limit.
    public mutating func append(_ packet: EncodedPacket) {
        // A packet decoded no later than the newest held is one the ring has (or one out of
        // order): taking it would hold it twice and push the oldest out.
        if let newest = groups.last?.last, packet.decodingMicroseconds <= newest.decodingMicroseconds {
            return
        }
        if packet.isKeyframe {
            groups.append([packet])
        } else if groups.isEmpty {
            return
        } else {
            groups[groups.count - 1].append(packet)
        }
        byteCount += packet.bytes.count
        let newest = packet.presentationMicroseconds
        var short = false
        while groups.count > 1 {
            let nextStart = groups[1][0].presentationMicroseconds
            let covered = nextStart <= newest - spanMicroseconds
            guard covered || byteCount > byteLimit else { break }
            if let keepFrom, nextStart > keepFrom, byteCount <= 4 * byteLimit { break }
            if !covered { short = true }
            byteCount -= groups.removeFirst().reduce(0) { $0 + $1.bytes.count }
        }
        if byteCount > byteLimit, groups.count == 1 {
            // One group larger than the whole limit: nothing useful can be kept.
            groups.removeAll()
            byteCount = 0
            short = true
        }
        if short { shortfalls += 1 }
        peakByteCount = max(peakByteCount, byteCount)
    }

    /// The packets from the last keyframe at or before `start` (the oldest keyframe when none is
    /// that early) to the newest.
    public func packets(from start: Int64) -> [EncodedPacket] {
        let index = groups.lastIndex { $0[0].presentationMicroseconds <= start } ?? 0
        return groups.dropFirst(index).flatMap { $0 }
    }

    /// The packets from the last keyframe at or before `start` to the last packet presented at
    /// or before `end` (a time window, e.g. around a Live Photo's still); empty when the ring
    /// holds nothing that early or `end` is before `start`.
    public func packets(from start: Int64, through end: Int64) -> [EncodedPacket] {
        guard end >= start, let first = groups.lastIndex(where: { $0[0].presentationMicroseconds <= start })
        else { return [] }
        return groups.dropFirst(first).flatMap { $0 }.filter { $0.presentationMicroseconds <= end }
    }

    /// The newest packet's presentation time, nil when empty.
    public var newestMicroseconds: Int64? { groups.last?.last?.presentationMicroseconds }

    /// Empties the ring (a new encoder starts a new stream).
    public mutating func removeAll() {
        groups.removeAll()
        byteCount = 0
    }
}
