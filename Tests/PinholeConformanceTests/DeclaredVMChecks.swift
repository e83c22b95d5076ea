// The check names the VM harness declares (tools/vm/guest/hil.checks), for the suites that report them.

import Foundation

/// The names in tools/vm/guest/hil.checks that start with `prefix` (e.g. "gpio "), in order:
/// `tools/hil` fails a run in which any of them did not report, so the contract suites must
/// report exactly these names.
func declaredVMChecks(prefix: String, file: StaticString = #filePath) throws -> [String] {
    let repository = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
        contentsOf: repository.appendingPathComponent("tools/vm/guest/hil.checks"), encoding: .utf8)
    return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
}

/// The check names of `ok NAME: …` and `FAIL NAME: …` report lines.
func reportedCheckNames(_ report: [String]) -> [String] {
    report.compactMap { line in
        guard let space = line.firstIndex(of: " "), let colon = line.range(of: ": ") else { return nil }
        return String(line[line.index(after: space)..<colon.lowerBound])
    }
}
