import TourCore

/// Colours Swift code line by line: keywords, strings, comments and numbers, which is what a reader needs
/// to find their way in a page. The tokens are the page parser's own (`SwiftLexer`), so raw strings (`#"…"#`),
/// nested block comments and multi-line strings carried from line to line are read the same way in both.
struct SwiftHighlighter {
    private var lexer = SwiftLexer()

    static let keywords: Set<String> = [
        "actor", "any", "as", "associatedtype", "async", "await", "break", "case", "catch", "class", "continue",
        "convenience", "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
        "fileprivate", "final", "for", "func", "guard", "if", "import", "in", "indirect", "init", "inout", "internal",
        "is", "lazy", "let", "mutating", "nil", "nonisolated", "open", "operator", "override", "private", "protocol",
        "public", "repeat", "required", "rethrows", "return", "self", "Self", "some", "static", "struct", "subscript",
        "super", "switch", "throw", "throws", "true", "try", "typealias", "unowned", "var", "weak", "where", "while",
    ]

    /// The colour of each character of `line`, in order.
    mutating func colors(of line: String) -> [PaletteColor?] {
        let characters = Array(line)
        let tokens = lexer.tokens(in: line, number: 0)
        var colors = [PaletteColor?](repeating: nil, count: characters.count)
        func paint(_ columns: Range<Int>, _ color: PaletteColor) {
            for position in columns.clamped(to: 0..<characters.count) { colors[position] = color }
        }
        // Strings first: a keyword or number interpolated into one is then painted over it.
        for token in tokens {
            switch token.kind {
            case .string, .stringContinued: paint(token.columns, .string)
            default: break
            }
        }
        for (position, token) in tokens.enumerated() {
            switch token.kind {
            case .comment: paint(token.columns, .comment)
            case .number: paint(token.columns, .number)
            case .identifier:
                // The written text, so that an escaped name such as `default` is not taken for the keyword.
                if Self.keywords.contains(String(characters[token.columns])) { paint(token.columns, .keyword) }
            case .punctuation("@"), .punctuation("#"):
                // `@Sendable`, `#if`: the sign and the name right after it.
                guard position + 1 < tokens.count, case .identifier = tokens[position + 1].kind,
                      tokens[position + 1].columns.lowerBound == token.columns.upperBound else { break }
                paint(token.columns.lowerBound..<tokens[position + 1].columns.upperBound, .keyword)
            default: break
            }
        }
        return colors
    }
}
