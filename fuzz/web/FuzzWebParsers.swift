// libFuzzer target: the web's readers of request text (form bodies, Range headers) on any bytes, never trapping.

/// libFuzzer's entry point: one input a call, read as the text of a form body and of a Range
/// header (invalid UTF-8 repaired, as a request's body and header values are). A range read is
/// inside the file; a form holds no more fields than its `&`-separated pairs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let form = WebForm(text) {
        precondition(form.fields.count <= text.split(separator: "&").count, "more fields than pairs")
        _ = form["csrf"]
        _ = form.all("ids")
    }
    for fileSize in [0, 1, 4411, Int.max] {
        if case .part(let bytes) = ByteRangeRequest(header: text, size: fileSize) {
            precondition(bytes.lowerBound >= 0 && bytes.upperBound < fileSize, "a range outside the file")
        }
    }
    return 0
}
