/// A setting for a page run that cannot be honoured (`--set`, `--speed`, `TOUR_SET`, `TOUR_SPEED`), with the message
/// that names what was wrong and what would be right. The host shows it as a usage mistake; a page refuses to run with it.
public struct LaunchProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// The longest echo of the learner's own text in a message, in characters, `…` included.
    public static let echoLimit = 80

    /// `text` as a message quotes it back: in single quotes, cut to `echoLimit` characters ending in `…`, and with
    /// control characters written as escapes, so a pasted blob or an escape sequence cannot flood or upset the terminal.
    public static func echo(_ text: String) -> String {
        let pieces = text.map { character in
            character.unicodeScalars.contains(where: isControl) ? escaped(character) : String(character)
        }
        guard pieces.reduce(0, { $0 + $1.count }) > echoLimit else { return "'\(pieces.joined())'" }
        var shown = ""
        var count = 0
        for piece in pieces {
            guard count + piece.count < echoLimit else { break }
            shown += piece
            count += piece.count
        }
        return "'\(shown)…'"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func escaped(_ character: Character) -> String {
        character.unicodeScalars.map { scalar in
            switch scalar {
            case "\n": "\\n"
            case "\t": "\\t"
            case "\r": "\\r"
            default: isControl(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }
        }.joined()
    }
}
