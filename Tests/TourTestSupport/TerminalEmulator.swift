import Foundation

/// A small terminal screen for tests: it replays the subset of escape sequences tour's recordings and `tour notes`
/// write (`FrameEscapes`): cursor moves `ESC [ r ; c H` and `ESC [ H`, a clear `ESC [ 2 J`, SGR `ESC [ … m` (styles
/// are not kept), the alternate screen and cursor modes `ESC [ ? … h/l` (ignored), CR, LF, and printable characters,
/// a wide one taking two columns. Anything else is reported, so a recorder that starts sending more is noticed.
public struct TerminalEmulator {
    public let width: Int
    public let height: Int
    public private(set) var rows: [[Character]]
    public private(set) var unknownSequences: [String] = []
    private var x = 0
    private var y = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        rows = Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    /// The screen's text, one string a row, trailing spaces removed; the second column of a wide character is dropped.
    public var text: [String] {
        rows.map { row in
            var line = String(row.filter { $0 != "\u{0}" })
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    public mutating func feed(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\u{1B}":
                guard characters.first == "[" else {
                    unknownSequences.append("ESC " + String(characters.prefix(1)))
                    continue
                }
                characters.removeFirst()
                var parameters = ""
                while let next = characters.first, next.isNumber || next == ";" || next == "?" {
                    parameters.append(next)
                    characters.removeFirst()
                }
                guard let final = characters.popFirst() else { return }
                perform(final, parameters)
            case "\r":
                x = 0
            case "\n", "\r\n":
                if character == "\r\n" { x = 0 }
                lineFeed()
            default:
                put(character)
            }
        }
    }

    private mutating func perform(_ final: Character, _ parameters: String) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch final {
        case "H":
            y = min(height - 1, max(0, (numbers.first.flatMap { $0 } ?? 1) - 1))
            x = min(width - 1, max(0, (numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1))
        case "J" where parameters == "2":
            rows = Array(repeating: Array(repeating: " ", count: width), count: height)
        case "m":
            break
        case "h" where parameters.hasPrefix("?"), "l" where parameters.hasPrefix("?"):
            break
        default:
            unknownSequences.append("ESC [" + parameters + String(final))
        }
    }

    private mutating func put(_ character: Character) {
        let wide = character.unicodeScalars.first.map { $0.properties.isEmojiPresentation || (0x1100...0x115F).contains($0.value)
            || (0x2E80...0xA4CF).contains($0.value) || (0xAC00...0xD7A3).contains($0.value) || (0xFF00...0xFF60).contains($0.value) } ?? false
        if x >= width {
            x = 0
            lineFeed()
        }
        rows[y][x] = character
        if wide && x + 1 < width { rows[y][x + 1] = "\u{0}" }
        x += wide ? 2 : 1
    }

    private mutating func lineFeed() {
        if y < height - 1 {
            y += 1
        } else {
            rows.removeFirst()
            rows.append(Array(repeating: " ", count: width))
        }
    }
}
