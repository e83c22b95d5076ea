// The input gate on virtual time: bursts judged whole, quiet wait, Enter twice, PARMRK marks.

import PinholeConsole
import PinholeCore
import XCTest

final class NoiseGateTests: XCTestCase {
    private let loop = EventLoop.virtual()
    private var passed: [[UInt8]] = []
    private var notices: [String] = []
    private var spells: [NoiseGuard.Spell] = []

    private func gate(menu: Bool, marked: Bool = false) -> ConsoleInputGate {
        let gate = ConsoleInputGate(loop: loop, quietPeriod: .seconds(3), marked: marked)
        gate.menuMode = menu
        gate.deliver = { [unowned self] in passed.append($0) }
        gate.onQuiet = { [unowned self] in notices.append("quiet: " + $0) }
        gate.onSpell = { [unowned self] in spells.append($0) }
        gate.onWoke = { [unowned self] spells, bytes in notices.append("woke \(spells) \(bytes)") }
        gate.onSecondEnterDue = { [unowned self] in notices.append("enter once more at \(loop.now)") }
        return gate
    }

    private func send(_ gate: ConsoleInputGate, _ text: String, wait: Duration = .milliseconds(100)) {
        gate.receive(Array(text.utf8))
        loop.advance(by: wait)
    }

    func testMenuKeysPassOneAtATimeAfterTheBurstEnds() {
        let gate = gate(menu: true)
        gate.receive(Array("1".utf8))
        loop.advance(by: .milliseconds(10))
        XCTAssertEqual(passed, [], "a key waits until its burst is over")
        loop.advance(by: .milliseconds(30))
        XCTAssertEqual(passed, [Array("1".utf8)])
        send(gate, "\u{1B}[B")  // one arrow key: one sequence
        send(gate, "\r\n")  // CRLF is one Enter
        send(gate, "é")
        XCTAssertEqual(passed.count, 4)
        XCTAssertFalse(gate.isQuiet)
    }

    func testANoiseBurstStartingWithAKeyActsNotAtAllAndWaitsForQuietAndEnterTwice() {
        let gate = gate(menu: true)
        gate.receive(Array("1".utf8))  // looks like a key …
        loop.advance(by: .milliseconds(2))
        gate.receive([0x9F, 0x32, 0x0D])  // … but the burst goes on
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(passed, [])
        XCTAssertTrue(gate.isQuiet)
        XCTAssertEqual(notices, ["quiet: 1 bytes that are not text (invalid UTF-8 or controls)"])
        // Keys while noisy are ignored; Enter before the quiet period does not count.
        send(gate, "\r", wait: .seconds(1))
        send(gate, "\r", wait: .seconds(1))
        XCTAssertEqual(passed, [])
        loop.advance(by: .seconds(3))
        XCTAssertEqual(spells.count, 1, "one log entry for the spell")
        XCTAssertEqual(spells.first?.bytes, 6)
        XCTAssertEqual(spells.first?.bursts, 3)
        XCTAssertTrue(
            spells[0].logLine.hasPrefix("console noise for 1.1 s: 6 bytes in 3 bursts ignored"),
            spells[0].logLine)
        // A single Enter and a key do not wake it; Enter twice within 2 s does.
        send(gate, "\r", wait: .seconds(3))
        send(gate, "x", wait: .seconds(4))
        XCTAssertTrue(gate.isQuiet)
        XCTAssertEqual(spells.count, 2, "the key was noise again: a second spell")
        send(gate, "\r", wait: .milliseconds(500))
        send(gate, "\r")
        XCTAssertFalse(gate.isQuiet)
        XCTAssertEqual(notices.last, "woke 2 10")
        XCTAssertEqual(passed, [], "the Enters that woke it do not act")
        send(gate, "2")
        XCTAssertEqual(passed, [Array("2".utf8)])
    }

    /// The first Enter after the quiet period is answered, once the second may come, with a
    /// prompt for it (a person sees the first counted; a test waits for it instead of sleeping).
    func testAFirstEnterThatCountsIsAnsweredWhenTheSecondMayCome() {
        let gate = gate(menu: true)
        send(gate, "\u{1B}[99x", wait: .seconds(4))  // noise, then quiet
        notices = []
        gate.receive(Array("\r".utf8))
        let first = loop.now
        loop.advance(by: NoiseGuard.minimumEnterGap - .milliseconds(1))
        XCTAssertEqual(notices, [], "not before the second Enter would count")
        loop.advance(by: .milliseconds(1))
        XCTAssertEqual(notices, ["enter once more at \(first + NoiseGuard.minimumEnterGap)"])
        send(gate, "\r")
        XCTAssertFalse(gate.isQuiet)
        XCTAssertEqual(notices.count, 2)

        // A first Enter too early (before the quiet period) or followed by noise gets no prompt.
        send(gate, "\u{1B}[99x", wait: .seconds(1))
        notices = []
        send(gate, "\r", wait: .seconds(1))
        XCTAssertEqual(notices, [], "an Enter during the quiet period does not count")
        loop.advance(by: .seconds(3))
        gate.receive(Array("\r".utf8))
        loop.advance(by: .milliseconds(30))
        gate.receive(Array("x".utf8))
        loop.advance(by: .seconds(1))
        XCTAssertEqual(
            notices, ["quiet: input while waiting for Enter"], "noise after the first Enter: no prompt")
    }

    func testTwoEntersInOneBurstOrTooFarApartDoNotWake() {
        let gate = gate(menu: true)
        send(gate, "\u{1B}[99x", wait: .seconds(4))  // an unknown sequence
        XCTAssertEqual(gate.state, .waiting(firstEnter: nil))
        send(gate, "\r\r", wait: .seconds(4))
        XCTAssertTrue(gate.isQuiet)
        send(gate, "\r", wait: .milliseconds(2500))
        send(gate, "\r", wait: .seconds(1))
        XCTAssertTrue(gate.isQuiet, "2.5 s apart is not Enter twice")
        loop.advance(by: .seconds(3))
        send(gate, "\r", wait: .seconds(1))
        send(gate, "\r")
        XCTAssertFalse(gate.isQuiet)
    }

    /// The loop is late: bytes are handed to the gate long after the reader stamped them.
    /// Bursts are cut by those stamps, not by when the loop looks at the bytes.
    func testBurstsAreJudgedByWhenTheBytesArrivedNotWhenALateLoopHandlesThem() {
        let gate = gate(menu: true)
        // Two keys a person typed 150 ms apart, handled together 400 ms later: two keys.
        let typed = loop.now
        loop.advance(by: .milliseconds(400))
        gate.receive(Array("1".utf8), at: typed)
        gate.receive(Array("2".utf8), at: typed + .milliseconds(150))
        loop.advance(by: .milliseconds(30))
        XCTAssertEqual(passed, [Array("1".utf8), Array("2".utf8)])
        XCTAssertFalse(gate.isQuiet)

        // A key-like byte and noise 2 ms behind it, handed over 100 ms late: one burst, noise
        // (the reader had both, so both are handed over before the burst's timer runs).
        let noisy = loop.now
        loop.advance(by: .milliseconds(100))
        gate.receive(Array("3".utf8), at: noisy)
        gate.receive([0x9F, 0x0D], at: noisy + .milliseconds(2))
        loop.advance(by: .milliseconds(30))
        XCTAssertEqual(passed.count, 2, "the key-like byte did not act")
        XCTAssertTrue(gate.isQuiet)

        // After the quiet period, Enter and Enter 300 ms apart wake it, though a late loop
        // hands both over at once; the silence and the gap are measured between arrivals.
        loop.advance(by: .seconds(4))
        let first = loop.now
        loop.advance(by: .milliseconds(700))
        gate.receive(Array("\r".utf8), at: first)
        gate.receive(Array("\r".utf8), at: first + .milliseconds(300))
        loop.advance(by: .milliseconds(30))
        XCTAssertFalse(gate.isQuiet)
        XCTAssertEqual(notices.last, "woke 1 5")

        // Two Enters 30 ms apart are not a person pressing twice, however late they are seen.
        send(gate, "\u{1B}[99x", wait: .seconds(4))
        let close = loop.now
        loop.advance(by: .milliseconds(500))
        gate.receive(Array("\r".utf8), at: close)
        gate.receive(Array("\r".utf8), at: close + .milliseconds(30))
        loop.advance(by: .seconds(1))
        XCTAssertTrue(gate.isQuiet)
    }

    func testLineModePassesTextAtOnceAndAnyNoiseByteStartsTheQuietWait() {
        let gate = gate(menu: false)
        gate.receive(Array("status\ncapture\n".utf8))
        XCTAssertEqual(passed.count, 1, "line mode waits for nothing")
        gate.receive(Array("\u{1B}[A sta".utf8))  // an arrow key and a partial line
        gate.receive([0xC3])  // half a UTF-8 character …
        gate.receive([0xA9, 0x0A])  // … completed in the next read
        XCTAssertEqual(passed.count, 4)
        gate.receive(Array("status\n".utf8) + [0x02])  // Ctrl-B: nobody types that here
        XCTAssertEqual(passed.count, 4, "the whole chunk is dropped")
        XCTAssertTrue(gate.isQuiet)
        XCTAssertEqual(notices, ["quiet: control character Ctrl-B"])
        send(gate, "status\n", wait: .seconds(4))
        XCTAssertEqual(passed.count, 4)
        send(gate, "\n", wait: .seconds(1))
        send(gate, "\n")
        XCTAssertFalse(gate.isQuiet)
        gate.receive(Array("status\n".utf8))
        XCTAssertEqual(passed.count, 5)
    }

    func testUnparseableLinesStartTheQuietWaitInLineMode() {
        let gate = gate(menu: false)
        gate.unparseableLines(3)
        XCTAssertTrue(gate.isQuiet)
        XCTAssertEqual(notices, ["quiet: 3 unparseable lines in a row"])
    }

    func testFramingErrorsMarkedByTheUARTAreNoiseAndRealFFBytesAreData() {
        var decoder = MarkedInputDecoder()
        XCTAssertEqual(decoder.feed([0x41, 0xFF, 0xFF, 0x42]).data, [0x41, 0xFF, 0x42])
        let marked = decoder.feed([0x31, 0xFF, 0x00, 0x37, 0xFF, 0x00, 0x00, 0x32])
        XCTAssertEqual(marked.data, [0x31, 0x32])
        XCTAssertEqual(marked.lineErrors, 2)
        XCTAssertEqual(decoder.feed([0x33, 0xFF]).data, [0x33], "a mark cut between reads …")
        XCTAssertEqual(decoder.feed([0x00]).lineErrors, 0)
        XCTAssertEqual(decoder.feed([0x55, 0x34]).data, [0x34], "… is completed by the next")

        let gate = gate(menu: true, marked: true)
        send(gate, "1")
        XCTAssertEqual(passed, [Array("1".utf8)])
        gate.receive([0x32, 0xFF, 0x00, 0x32])  // a "2" and a byte with a framing error
        loop.advance(by: .seconds(5))
        XCTAssertEqual(passed.count, 1)
        XCTAssertEqual(spells.first?.lineErrors, 1)
        XCTAssertTrue(spells[0].logLine.contains("1 framing/parity errors"), spells[0].logLine)
    }

    func testAFloodIsJudgedAsItComesNotHeldInMemory() {
        let gate = gate(menu: true)
        var generator = SplitMix(seed: 7)
        for _ in 0..<200 {
            gate.receive((0..<512).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            loop.advance(by: .milliseconds(5))
        }
        XCTAssertEqual(passed, [])
        XCTAssertTrue(gate.isQuiet)
        loop.advance(by: .seconds(3))
        XCTAssertEqual(spells.count, 1)
        XCTAssertEqual(spells.first?.bytes, 200 * 512)
    }
}

/// A small seeded generator (SplitMix64), so noise is the same on every run.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
