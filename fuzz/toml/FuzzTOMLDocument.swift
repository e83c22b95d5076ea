// libFuzzer target: TOMLDocument.parse throws a ConfigurationError naming the file or succeeds on any bytes, never traps.

import PinholeCore

/// libFuzzer's entry point: one input a call. The bytes are read as the configuration reader
/// reads a file (UTF-8, invalid sequences replaced); a parsed table is walked to its leaves.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOMLDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let table = try TOMLDocument.parse(text, file: "fuzz.toml")
        _ = String(describing: table).utf8.count
    } catch let error as ConfigurationError {
        precondition(error.file == "fuzz.toml", "an error that does not name the file: \(error)")
    } catch {
        preconditionFailure("an error that is not a ConfigurationError: \(error)")
    }
    return 0
}
