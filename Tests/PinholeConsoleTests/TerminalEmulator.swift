// A minimal VT100 emulator: enough of the protocol to read back what the console drew.

import PinholeConsole

/// Interprets printable characters, CR, LF, BS, BEL, CUP, ED, EL and SGR into a grid, and
/// records anything it does not understand (so tests notice unexpected sequences).
final class TerminalEmulator {
    let width: Int
    let height: Int
    private(set) var grid: [[Character]]
    private(set) var reverse: [[Bool]]
    private(set) var row = 0
    private(set) var column = 0
    private(set) var bells = 0
    private(set) var unknown: [String] = []
    private(set) var scrolled = 0
    private(set) var cursorVisible = true
    private var inReverse = false
    private var pending: [UInt8] = []

    init(width: Int = 80, height: Int = 24) {
        self.width = width
        self.height = height
        grid = Array(repeating: Array(repeating: " ", count: width), count: height)
        reverse = Array(repeating: Array(repeating: false, count: width), count: height)
    }

    var text: String {
        grid.map { line -> String in
            var text = String(line)
            while text.last == " " { text.removeLast() }
            return text
        }.joined(separator: "\n")
    }

    func line(_ row: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[row]
    }

    func feed(_ bytes: [UInt8]) {
        let all = pending + bytes
        pending = []
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            for character in String(decoding: text, as: UTF8.self) { put(character) }
            text = []
        }
        while index < all.count {
            let byte = all[index]
            if byte == 0x1B {
                flushText()
                guard index + 1 < all.count else {
                    pending = Array(all[index...])
                    return
                }
                guard all[index + 1] == UInt8(ascii: "[") else {
                    unknown.append("ESC \(all[index + 1])")
                    index += 2
                    continue
                }
                var end = index + 2
                while end < all.count, !(0x40...0x7E).contains(all[end]) { end += 1 }
                guard end < all.count else {
                    pending = Array(all[index...])
                    return
                }
                csi(String(decoding: all[(index + 2)..<end], as: UTF8.self), final: all[end])
                index = end + 1
                continue
            }
            switch byte {
            case 0x0D: flushText(); column = 0
            case 0x0A: flushText(); lineFeed()
            case 0x07: flushText(); bells += 1
            case 0x08: flushText(); column = max(0, column - 1)
            default: text.append(byte)
            }
            index += 1
        }
        flushText()
    }

    private func put(_ character: Character) {
        if column >= width {
            column = 0
            lineFeed()
        }
        grid[row][column] = character
        reverse[row][column] = inReverse
        column += 1
    }

    private func lineFeed() {
        if row == height - 1 {
            grid.removeFirst()
            grid.append(Array(repeating: " ", count: width))
            reverse.removeFirst()
            reverse.append(Array(repeating: false, count: width))
            scrolled += 1
        } else {
            row += 1
        }
    }

    private func csi(_ parameters: String, final: UInt8) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        switch (parameters, final) {
        case ("?25", UInt8(ascii: "l")): cursorVisible = false
        case ("?25", UInt8(ascii: "h")): cursorVisible = true
        case (_, UInt8(ascii: "H")):
            row = min(height - 1, max(1, numbers.first ?? 1) - 1)
            column = min(width - 1, max(1, numbers.count > 1 ? numbers[1] : 1) - 1)
        case ("2", UInt8(ascii: "J")):
            grid = Array(repeating: Array(repeating: " ", count: width), count: height)
            reverse = Array(repeating: Array(repeating: false, count: width), count: height)
        case (_, UInt8(ascii: "K")):
            for x in column..<width { grid[row][x] = " " }
        case (_, UInt8(ascii: "m")):
            for number in numbers {
                if number == 0 { inReverse = false }
                if number == 7 { inReverse = true }
            }
        default:
            unknown.append("CSI \(parameters) \(Character(Unicode.Scalar(final)))")
        }
    }
}
