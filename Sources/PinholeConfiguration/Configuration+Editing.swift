// Changes one key of the configuration file, keeping its comments and layout, validating the
// result like a start would, and replacing the file atomically.

import PinholeCore
import PinholeSystem
import SystemPackage

extension Configuration {
    /// `text` with `key = literal` set in `[section]`: the key's line is replaced where it
    /// exists, else added at the end of the section, else a new section is appended. Other
    /// lines (comments included) are kept. `literal` is a TOML value (`93`, `true`, `"text"`);
    /// nil removes the key.
    public static func setting(_ section: String, _ key: String, to literal: String?, in text: String)
        -> String
    {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var start: Int?
        var end = lines.count
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingSpaces()
            guard trimmed.hasPrefix("[") else { continue }
            if start != nil {
                end = index
                break
            }
            if trimmed.hasPrefix("[\(section)]") { start = index }
        }
        let newLine = literal.map { "\(key) = \($0)" }
        guard let start else {
            guard let newLine else { return lines.joined(separator: "\n") + "\n" }
            if !lines.isEmpty, lines.last?.trimmingSpaces().isEmpty == false { lines.append("") }
            lines += ["[\(section)]", newLine]
            return lines.joined(separator: "\n") + "\n"
        }
        if let index = (start + 1..<end).first(where: { Self.lineSetsKey(lines[$0], key) }) {
            if let newLine { lines[index] = newLine } else { lines.remove(at: index) }
        } else if let newLine {
            var insert = end
            while insert > start + 1, lines[insert - 1].trimmingSpaces().isEmpty { insert -= 1 }
            lines.insert(newLine, at: insert)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A TOML basic string literal.
    public static func literal(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Sets (or with nil removes) one key in `file` (created when missing). The edited text
    /// must parse as a configuration, or nothing is written and the parse error (file, line,
    /// reason) is thrown. Written to a temporary file, flushed, renamed over the old one, and
    /// the directory flushed, so an answered save survives power loss.
    @discardableResult
    public static func save(_ section: String, _ key: String, literal: String?, file: FilePath) throws
        -> Configuration
    {
        // Only a file that is not there starts empty: a save never proceeds from a failed read
        // (it would replace the owner's settings and PIN with this one key).
        let old = try readExisting(file) ?? ""
        let text = setting(section, key, to: literal, in: old)
        let configuration = try parse(text, file: file)
        // Temporary files a power cut left behind (a minute old: not another writer's own).
        removeStaleTemporaries(of: file, olderThanSeconds: 60)
        try writeAtomically(text, to: file)
        return configuration
    }

    private static func lineSetsKey(_ line: String, _ key: String) -> Bool {
        let trimmed = line.trimmingSpaces()
        guard trimmed.hasPrefix(key) else { return false }
        let rest = trimmed.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
        return rest.first == "="
    }

    /// Writes the new text durably (`DurableFiles.write`: a new temporary file, fsync,
    /// rename over the old file, fsync of the directory, so an answered save survives power
    /// loss; without the directory's fsync `make powercut` found an acknowledged setting
    /// lost); the error names the file and what to do.
    private static func writeAtomically(_ text: String, to file: FilePath) throws {
        do {
            try DurableFiles.write(Array(text.utf8), to: file, replace: true)
        } catch let failure as SystemFailure {
            let directory = failure.path == DurableFiles.parentDirectory(of: file)
            let what =
                switch failure.operation {
                case "open" where directory: "cannot open its directory to flush it"
                case "fsync" where directory: "cannot flush its directory"
                case "open": "cannot create a file next to it"
                case "write": "cannot write"
                case "fsync": "cannot flush"
                default: "cannot replace"
                }
            throw writeError(file, what, failure.errno)
        }
    }

    private static func writeError(_ file: FilePath, _ what: String, _ code: Errno) -> ConfigurationError {
        let advice =
            code == .permissionDenied || code == .readOnlyFileSystem
            ? ": run as a user who may write it, or use --config FILE" : ""
        return ConfigurationError(file: file, line: 0, reason: "\(what) (\(code))\(advice)")
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" || text.last == "\r" { text.removeLast() }
        return text
    }
}
