// Access levels: the PIN, lock-out after repeated failures, idle re-lock; in line mode and
// in the menu, all on the virtual clock.

import PinholeConsole
import PinholeCore
import XCTest

/// Stand-in hashing for tests (the real one is crypt(3), exercised end to end).
let testHashing = PINHashing(
    hash: { "$test$" + String($0.reversed()) + "$not-a-real-hash" },
    verify: { pin, hash in hash == "$test$" + String(pin.reversed()) + "$not-a-real-hash" })

final class AccessControlTests: XCTestCase {
    private let t0 = Instant(nanoseconds: 1_000_000_000)

    func testNoPINMeansOpen() {
        let access = AccessControl(pinHash: nil)
        XCTAssertTrue(access.isUnlocked(at: t0))
        XCTAssertEqual(access.summary(at: t0), .open)
        XCTAssertTrue(access.describe(at: t0).hasPrefix("open"))
    }

    func testIdleTimeoutRelocksAndActivityKeepsItOpen() {
        var access = AccessControl(pinHash: "h", idleTimeout: .seconds(60))
        XCTAssertFalse(access.isUnlocked(at: t0))
        XCTAssertEqual(access.record(correct: true, at: t0), .unlocked)
        access.touch(at: t0 + .seconds(50))
        XCTAssertTrue(access.isUnlocked(at: t0 + .seconds(109)))
        XCTAssertFalse(access.isUnlocked(at: t0 + .seconds(110)))
        access.touch(at: t0 + .seconds(111))
        XCTAssertFalse(
            access.isUnlocked(at: t0 + .seconds(111)), "activity after the timeout does not unlock")
    }

    func testLockoutAfterRepeatedFailuresDoublesEachTime() {
        var access = AccessControl(pinHash: "h", maximumFailures: 3, lockout: .seconds(30))
        XCTAssertEqual(access.record(correct: false, at: t0), .wrong(remaining: 2))
        XCTAssertEqual(access.record(correct: false, at: t0), .wrong(remaining: 1))
        XCTAssertEqual(access.record(correct: false, at: t0), .lockedOut(seconds: 30))
        XCTAssertFalse(access.mayTry(at: t0 + .seconds(29)))
        XCTAssertTrue(access.mayTry(at: t0 + .seconds(30)))
        let t1 = t0 + .seconds(30)
        _ = access.record(correct: false, at: t1)
        _ = access.record(correct: false, at: t1)
        XCTAssertEqual(access.record(correct: false, at: t1), .lockedOut(seconds: 60))
        XCTAssertEqual(access.record(correct: true, at: t1 + .seconds(60)), .unlocked)
        XCTAssertTrue(access.isUnlocked(at: t1 + .seconds(60)))
    }

    /// The record that survives a restart: wrong PINs count on, a lock-out starts again whole.
    func testWrongPINsAndALockOutSurviveARestartOfTheRecord() {
        var access = AccessControl(pinHash: "h", maximumFailures: 3, lockout: .seconds(60))
        _ = access.record(correct: false, at: t0)
        _ = access.record(correct: false, at: t0)
        XCTAssertEqual(access.persistent, AccessRecord(failures: 2, lockouts: 0, lockoutSeconds: 0))
        var restarted = AccessControl(pinHash: "h", maximumFailures: 3, lockout: .seconds(60))
        restarted.restore(AccessRecord(text: access.persistent.text), at: .zero)
        XCTAssertEqual(restarted.record(correct: false, at: .zero + .seconds(1)), .lockedOut(seconds: 60))
        XCTAssertEqual(restarted.persistent, AccessRecord(failures: 0, lockouts: 1, lockoutSeconds: 60))

        var again = AccessControl(pinHash: "h", maximumFailures: 3, lockout: .seconds(60))
        again.restore(AccessRecord(text: restarted.persistent.text), at: t0)
        XCTAssertEqual(again.lockoutRemaining(at: t0), 60, "a power cycle does not end the lock-out")
        XCTAssertFalse(again.mayTry(at: t0 + .seconds(59)))
        // Over, the first try clears it (a later restart does not lock out again); the next
        // lock-out doubles.
        XCTAssertEqual(again.record(correct: false, at: t0 + .seconds(61)), .wrong(remaining: 2))
        XCTAssertEqual(again.persistent.lockoutSeconds, 0)
        _ = again.record(correct: false, at: t0 + .seconds(62))
        XCTAssertEqual(again.record(correct: false, at: t0 + .seconds(63)), .lockedOut(seconds: 120))
        // A damaged file is never a fresh start.
        XCTAssertEqual(AccessRecord(text: "failures = x\nlockouts = ?\nlockout_s = ?\n").lockoutSeconds, 60)
    }

    /// The menu's command line shows `unlock 1234` and `pin set …` masked and keeps them out
    /// of its history.
    func testSecretsTypedAtTheCommandLineAreMaskedAndNotKept() {
        var editor = LineEditor()
        editor.secretStart = CommandCatalog.secretStart
        for line in ["unlock 1234", "  PIN  set 987654", "status"] {
            for character in line { _ = editor.handle(.character(character)) }
            let shown = editor.visible(width: 80).text
            XCTAssertFalse(shown.contains("1234") || shown.contains("987654"), shown)
            XCTAssertEqual(editor.handle(.enter), .submitted(line))
        }
        XCTAssertEqual(editor.history, ["status"])
        for character in "unlock 1234" { _ = editor.handle(.character(character)) }
        XCTAssertEqual(editor.visible(width: 80).text, "unlock ****")
        editor.clearHistory()
        XCTAssertEqual(editor.history, [])
    }

    func testLineModeGatesLibraryAndSettingsButNotCaptureOrStatus() throws {
        let harness = try ConsoleHarness(
            quietFocus: true,
            configure: { commands in
                commands.access = AccessControl(
                    pinHash: "$test$4321$not-a-real-hash", idleTimeout: .seconds(120), maximumFailures: 2,
                    lockout: .seconds(10))
                commands.pinHashing = testHashing
            })
        let ask = { (line: String) -> String in
            harness.commands.receive(line: line)
            harness.loop.advance(by: .seconds(1))
            return harness.lines.take().last ?? "(no answer)"
        }
        XCTAssertEqual(ask("library list"), "error 77: locked: unlock with the PIN first")
        XCTAssertTrue(ask("capture").hasPrefix("ok saved"))
        XCTAssertTrue(ask("status").hasSuffix("access locked (unlock PIN for library and settings)"))
        XCTAssertEqual(ask("unlock 9999"), "error 77: wrong PIN: 1 more tries before a lock-out")
        XCTAssertEqual(ask("unlock 9999"), "error 77: wrong PIN: locked out for 10 s")
        XCTAssertEqual(
            ask("unlock 1234"), "error 77: locked: too many wrong PINs, try again in 9 s",
            "even the right PIN is refused during the lock-out")
        harness.loop.advance(by: .seconds(10))
        XCTAssertEqual(ask("unlock 1234"), "ok unlocked (locks again after 2 min without input)")
        XCTAssertEqual(
            ask("library list"), "error 69: no library is open", "past the lock: the library itself")
        harness.loop.advance(by: .seconds(118))
        XCTAssertEqual(ask("library list"), "error 69: no library is open", "activity kept it unlocked")
        harness.loop.advance(by: .seconds(121))
        XCTAssertEqual(
            ask("library list --json"), #"{"error":"locked: unlock with the PIN first","status":"77"}"#)
        XCTAssertTrue(ask("unlock 1234").hasPrefix("ok unlocked"))
        XCTAssertEqual(ask("lock"), "ok locked")
        XCTAssertEqual(ask("library list"), "error 77: locked: unlock with the PIN first")
    }

    func testMenuAsksForThePINThenOpensTheLibraryAndLeavesItWhenIdle() throws {
        let harness = try ConsoleHarness(
            quietFocus: true,
            configure: { commands in
                commands.access = AccessControl(
                    pinHash: "$test$4321$not-a-real-hash", idleTimeout: .seconds(60))
                commands.pinHashing = testHashing
            })
        XCTAssertTrue(
            harness.terminal.line(0).hasSuffix("[sim] [locked]")
                || harness.terminal.line(0).hasSuffix("[locked]"))
        XCTAssertTrue(harness.terminal.text.contains("Library (PIN)"))
        harness.type("4")
        XCTAssertEqual(harness.terminal.line(23), "PIN to unlock:")
        harness.type("1234")
        XCTAssertEqual(harness.terminal.line(23), "PIN to unlock: ****", "the PIN is masked")
        harness.type("\r", settle: .seconds(1))
        XCTAssertTrue(harness.terminal.line(0).contains("Main menu > Library"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(0).hasSuffix("[unlocked]"))
        XCTAssertFalse(harness.terminal.text.contains("1234"), "the PIN never appears on screen")
        harness.wait(.seconds(61))
        XCTAssertTrue(harness.terminal.line(0).hasPrefix(" Pinhole  Main menu "), harness.terminal.line(0))
        XCTAssertTrue(harness.terminal.line(0).hasSuffix("[locked]"))
        XCTAssertEqual(
            harness.terminal.line(22), "locked after a while without input: unlock again with the PIN")
    }
}
