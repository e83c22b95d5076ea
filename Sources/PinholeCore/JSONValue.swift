// A small, bounded JSON reader for untrusted lines (gpsd reports): values, no Foundation.

/// A parsed JSON value.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (duplicate keys: the last wins).
    case object([String: JSONValue])

    /// Why a text is not JSON.
    public struct ParseError: Error, Hashable, CustomStringConvertible {
        /// Byte offset of the problem.
        public var offset: Int
        /// What was wrong.
        public var reason: String

        /// The offset and reason, for messages.
        public var description: String { "not JSON at byte \(offset): \(reason)" }
    }

    /// Deepest nesting accepted (deeper input is rejected, never recursed into).
    public static let maxDepth = 16

    /// Parses one JSON text; anything but whitespace after the value is an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> JSONValue {
        var reader = Reader(bytes: Array(bytes))
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("text after the value") }
        return value
    }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The number, when this is a finite number.
    public var double: Double? {
        if case .number(let value) = self, value.isFinite { return value }
        return nil
    }

    /// The number as an integer, when it is one in Int's range.
    public var int: Int? {
        guard let value = double, value == value.rounded(), abs(value) < 9e15 else { return nil }
        return Int(value)
    }

    /// The string, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}

private struct Reader {
    let bytes: [UInt8]
    var index = 0

    func error(_ reason: String) -> JSONValue.ParseError {
        JSONValue.ParseError(offset: index, reason: reason)
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth < JSONValue.maxDepth else { throw error("nested deeper than \(JSONValue.maxDepth)") }
        skipSpace()
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(JSONValue.ParseError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected
        else { throw error("expected \(word)") }
        index += expected.count
    }

    mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key")
            }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            members[key] = try value(depth: depth + 1)
            skipSpace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var values: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            values.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            return .array(values)
        }
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard bytes.count - index >= 4,
                        let code = UInt32(
                            String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { throw error("bad \\u escape") }
                    index += 4
                    // Surrogates and controls become U+FFFD: nothing downstream needs them.
                    let scalar = Unicode.Scalar(code).flatMap { $0.value >= 0x20 ? $0 : nil } ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                default: throw error("bad escape")
                }
            case 0..<0x20:
                throw error("control character in a string")
            default:
                out.append(byte)
            }
        }
        throw error("unterminated string")
    }

    mutating func number() throws(JSONValue.ParseError) -> Double {
        let start = index
        while index < bytes.count, index - start < 40,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
                || [
                    UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
                    UInt8(ascii: "E"),
                ]
                .contains(bytes[index])
        {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !text.isEmpty, let first = text.first, first == "-" || first.isNumber,
            let value = Double(text), value.isFinite
        else {
            index = start
            throw error("expected a value")
        }
        return value
    }
}
