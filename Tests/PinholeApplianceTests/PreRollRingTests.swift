// The pre-roll ring: starts at a keyframe, reaches back its span, stays within its bytes.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import XCTest

final class PreRollRingTests: XCTestCase {
    /// 10 fps, a keyframe every 10 frames, 100-byte packets (keyframes 400).
    func packet(_ index: Int) -> EncodedPacket {
        let key = index % 10 == 0
        return EncodedPacket(
            bytes: [UInt8](repeating: 0, count: key ? 400 : 100),
            presentationMicroseconds: Int64(index) * 100_000, isKeyframe: key)
    }

    func testTheRingStartsAtAKeyframeAndReachesBackItsSpan() {
        var ring = PreRollRing(spanMicroseconds: 2_000_000, byteLimit: 1_000_000)
        for index in 5..<75 { ring.append(packet(index)) }
        // Newest 7.4 s: it must hold from a keyframe at or before 5.4 s, so from 5.0 s.
        XCTAssertEqual(ring.oldestMicroseconds, 5_000_000)
        XCTAssertTrue(ring.packets(from: 0).first?.isKeyframe ?? false)
        let clip = ring.packets(from: 7_400_000 - 2_000_000)
        XCTAssertEqual(clip.first?.presentationMicroseconds, 5_000_000)
        XCTAssertEqual(clip.count, 25)
    }

    func testPacketsTheRingAlreadyHoldsAreNotTakenAgain() {
        var ring = PreRollRing(spanMicroseconds: 2_000_000, byteLimit: 1_000_000)
        for index in 0..<45 { ring.append(packet(index)) }
        let (held, bytes) = (ring.packets(from: 0), ring.byteCount)
        // A clip's pre-roll comes from the ring: handing it back must change nothing.
        for packet in ring.packets(from: 3_000_000) { ring.append(packet) }
        XCTAssertEqual(ring.packets(from: 0), held)
        XCTAssertEqual(ring.byteCount, bytes)
        ring.append(packet(45))
        XCTAssertEqual(ring.newestMicroseconds, 4_500_000)
    }

    func testAWindowStartsAtTheKeyframeBeforeItAndEndsAtItsEnd() {
        var ring = PreRollRing(spanMicroseconds: 2_000_000, byteLimit: 1_000_000)
        for index in 0..<60 { ring.append(packet(index)) }
        // 3.5 s … 4.5 s: from the keyframe at 3.0 s to the packet at 4.5 s.
        let window = ring.packets(from: 3_500_000, through: 4_500_000)
        XCTAssertEqual(window.first?.presentationMicroseconds, 3_000_000)
        XCTAssertTrue(window.first?.isKeyframe ?? false)
        XCTAssertEqual(window.last?.presentationMicroseconds, 4_500_000)
        XCTAssertEqual(window.count, 16)
        XCTAssertEqual(
            ring.packets(from: 500_000, through: 900_000), [], "the ring no longer reaches back to 0.5 s")
        XCTAssertEqual(ring.packets(from: 4_000_000, through: 3_000_000), [], "an empty window")
    }

    func testAHeldStartStaysPastTheSpanUntilReleasedWithinFourTimesTheBytes() {
        var ring = PreRollRing(spanMicroseconds: 2_000_000, byteLimit: 10_000)
        for index in 0..<35 { ring.append(packet(index)) }
        ring.keepFrom = 3_200_000  // held in the group from 3.0 s
        for index in 35..<80 { ring.append(packet(index)) }
        XCTAssertEqual(ring.oldestMicroseconds, 3_000_000, "held 5 s past its 2 s span")
        XCTAssertEqual(ring.packets(from: 3_200_000, through: 4_000_000).count, 11)
        ring.keepFrom = nil
        ring.append(packet(80))
        XCTAssertEqual(ring.oldestMicroseconds, 6_000_000, "released: back to its span")
        // Never more than four times its bytes, held or not.
        ring.keepFrom = 6_000_000
        for index in 81..<400 { ring.append(packet(index)) }
        XCTAssertLessThanOrEqual(ring.byteCount, 4 * 10_000 + 400)
    }

    func testPacketsBeforeTheFirstKeyframeAreNeverKept() {
        var ring = PreRollRing(spanMicroseconds: 2_000_000, byteLimit: 1_000_000)
        for index in 3..<9 { ring.append(packet(index)) }
        XCTAssertEqual(ring.packetCount, 0)
        XCTAssertEqual(ring.byteCount, 0)
    }

    func testTheByteLimitWinsOverTheSpan() {
        // One group is 1,300 bytes; a limit of 3,000 holds two groups, not the 5 s asked.
        var ring = PreRollRing(spanMicroseconds: 5_000_000, byteLimit: 3_000)
        for index in 0..<60 {
            ring.append(packet(index))
            XCTAssertLessThanOrEqual(ring.byteCount, 3_000)
        }
        XCTAssertEqual(ring.oldestMicroseconds, 4_000_000)
        XCTAssertEqual(ring.byteCount, 2_600)
    }

    func testTheSizeFollowsTheBitRate() {
        // 6 Mbps, 3 s: 1.2 × 6 Mbps × 3 s (issue 21), the group of pictures it starts in included.
        XCTAssertEqual(PreRollRing.byteLimit(bitRate: 6_000_000, seconds: 3), 2_700_000, accuracy: 1)
    }

    func testCuttingBelowTheSpanForBytesIsCounted() {
        // Groups of 1,300 bytes a second; 5 s asked but 3,000 bytes hold two groups.
        var ring = PreRollRing(spanMicroseconds: 5_000_000, byteLimit: 3_000)
        for index in 0..<40 { ring.append(packet(index)) }
        XCTAssertGreaterThan(ring.shortfalls, 0)
        var roomy = PreRollRing(spanMicroseconds: 2_000_000, byteLimit: 1_000_000)
        for index in 0..<60 { roomy.append(packet(index)) }
        XCTAssertEqual(roomy.shortfalls, 0, "trimming to the span is no shortfall")
    }
}
