// libFuzzer entry point: feeds arbitrary bytes through the console's input decoder, line
// editor and line assembler, and checks their invariants.

/// Called by libFuzzer with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsoleInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Split the input at a data-chosen point, as two reads would.
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)

    var decoder = TerminalDecoder()
    var editor = LineEditor(maximumLength: 40, historyLimit: 5)
    var keys = decoder.feed(bytes[..<split])
    keys += decoder.feed(bytes[split...])
    keys += decoder.flush()
    precondition(!decoder.isPending, "flush must leave the decoder idle")
    for key in keys {
        _ = editor.handle(key)
        precondition(editor.characters.count <= 40, "the editor grew past its maximum")
        precondition(editor.cursor >= 0 && editor.cursor <= editor.characters.count, "cursor out of range")
        let (text, column) = editor.visible(width: 10)
        precondition(text.count <= 10 && column >= 0 && column <= 10, "visible part wider than asked")
    }
    precondition(editor.history.count <= 5, "history grew past its limit")

    var assembler = LineAssembler(maximumLength: 32)
    var pieces = assembler.feed(bytes[..<split])
    pieces += assembler.feed(bytes[split...])
    pieces += assembler.finish()
    for case .line(let line) in pieces {
        precondition(line.count <= 32, "a line longer than the maximum was kept")
    }
    return 0
}
