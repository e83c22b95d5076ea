// libFuzzer target: GPSDReport.parse (and the JSON reader under it) throws or succeeds on any bytes, never traps.

import PinholeCore

/// libFuzzer's entry point: one input a call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let report = try? GPSDReport.parse(bytes), case .position(let position) = report {
        // What a report yields must be usable as a fix without trapping.
        _ = position.hasFix
        _ = position.time?.iso8601
    }
    _ = try? JSONValue.parse(bytes)
    return 0
}
