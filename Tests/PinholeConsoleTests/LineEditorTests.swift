// Line editing at a prompt: insertion, deletion, cursor movement, history, secrets.

import PinholeConsole
import XCTest

final class LineEditorTests: XCTestCase {
    private func type(_ text: String, into editor: inout LineEditor) {
        for character in text { _ = editor.handle(.character(character)) }
    }

    func testInsertMoveDeleteAndSubmit() {
        var editor = LineEditor()
        type("helo", into: &editor)
        _ = editor.handle(.left)
        type("l", into: &editor)
        XCTAssertEqual(editor.text, "hello")
        _ = editor.handle(.home)
        _ = editor.handle(.delete)
        type("H", into: &editor)
        _ = editor.handle(.end)
        _ = editor.handle(.backspace)
        XCTAssertEqual(editor.text, "Hell")
        XCTAssertEqual(editor.handle(.enter), .submitted("Hell"))
        XCTAssertEqual(editor.text, "")
    }

    func testCutKeysAndWordDelete() {
        var editor = LineEditor()
        type("album create Summer trip", into: &editor)
        _ = editor.handle(.control("w"))
        XCTAssertEqual(editor.text, "album create Summer ")
        for _ in 0..<7 { _ = editor.handle(.left) }
        _ = editor.handle(.control("k"))
        XCTAssertEqual(editor.text, "album create ")
        _ = editor.handle(.control("u"))
        XCTAssertEqual(editor.text, "")
        XCTAssertEqual(editor.handle(.backspace), .bell)
    }

    func testHistoryRecallsOlderLinesAndReturnsToTheDraft() {
        var editor = LineEditor()
        type("first", into: &editor)
        _ = editor.handle(.enter)
        type("second", into: &editor)
        _ = editor.handle(.enter)
        type("draft", into: &editor)
        _ = editor.handle(.up)
        XCTAssertEqual(editor.text, "second")
        _ = editor.handle(.up)
        XCTAssertEqual(editor.text, "first")
        XCTAssertEqual(editor.handle(.up), .bell)
        _ = editor.handle(.down)
        _ = editor.handle(.down)
        XCTAssertEqual(editor.text, "draft")
        XCTAssertEqual(editor.history, ["first", "second"])
    }

    func testSecretLinesAreMaskedAndNotKeptAndCancelClears() {
        var editor = LineEditor()
        editor.reset(secret: true)
        type("1234", into: &editor)
        XCTAssertEqual(editor.visible(width: 20).text, "****")
        XCTAssertEqual(editor.handle(.enter), .submitted("1234"))
        XCTAssertEqual(editor.history, [])
        type("99", into: &editor)
        XCTAssertEqual(editor.handle(.interrupt), .cancelled)
        XCTAssertEqual(editor.text, "")
    }

    func testOverlongInputIsRefusedAndTheVisiblePartFollowsTheCursor() {
        var editor = LineEditor(maximumLength: 10)
        type(String(repeating: "x", count: 9) + "yz", into: &editor)
        XCTAssertEqual(editor.text.count, 10)
        XCTAssertEqual(editor.handle(.character("q")), .bell)
        let (text, column) = editor.visible(width: 5)
        XCTAssertEqual(text, "xxxy", "the cursor sits after the last character")
        XCTAssertEqual(column, 4)
    }
}
