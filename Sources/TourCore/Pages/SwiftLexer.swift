/// A token of Swift code, as far as the page parser and the interface's colouring need to know it.
public struct SwiftToken: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A name or keyword; backticks around an escaped name are removed.
        case identifier(String)
        case number(String)
        /// A string literal's value, or nil when it is interpolated, multi-line or uses escapes beyond `\\` and `\"`.
        case string(String?)
        /// A run of operator characters, such as `.`, `-`, `...` or `=`.
        case `operator`(String)
        case punctuation(Character)
        /// A comment, or the part of a block comment on this line.
        case comment
        /// The part of a multi-line string on a line after the one where its `.string` token opened it.
        case stringContinued

        /// Whether the token is code a parser reads, not a comment or the rest of a string already given.
        public var isCode: Bool {
            self != .comment && self != .stringContinued
        }
    }

    public var kind: Kind
    public var line: Int
    /// Where the token is in its line, counted in characters; a string's columns include its quotes and `#`s.
    public var columns: Range<Int>
}

/// Reads Swift code one line at a time, carrying block comments and multi-line strings from line to line.
///
/// Knowing whether a line starts inside a comment or a string is what keeps `//:` in a commented-out
/// region, or in a multi-line string, from being taken for prose. Swift's block comments nest, so this does too.
public struct SwiftLexer: Sendable {
    fileprivate var commentDepth = 0
    /// The number of `#` around the multi-line string the previous line left open, if any.
    fileprivate var openMultilineStringHashes: Int?

    /// Whether the next line starts in code proper, outside any comment or string.
    public var isAtCodeLevel: Bool {
        commentDepth == 0 && openMultilineStringHashes == nil
    }

    public init() {}

    /// The tokens of `line`, comments included, the state it leaves carried on to the next line.
    public mutating func tokens(in line: String, number: Int) -> [SwiftToken] {
        var reader = LineReader(characters: Array(line), number: number, lexer: self)
        reader.readCode(from: 0, endingAtUnmatchedParenthesis: false)
        self = reader.lexer
        return reader.tokens
    }
}

/// The tokenizer for one line; a separate value so the line's characters and tokens need not be passed around.
private struct LineReader {
    let characters: [Character]
    let number: Int
    var lexer: SwiftLexer
    var tokens: [SwiftToken] = []

    private static let operatorCharacters = Set("/=-+!*%<>&|^~?.")
    private static let escapedCharacters: [Character: Character] = ["\\": "\\", "\"": "\""]

    init(characters: [Character], number: Int, lexer: SwiftLexer) {
        self.characters = characters
        self.number = number
        self.lexer = lexer
    }

    /// Reads code from `start`; inside a string interpolation it stops after the parenthesis that closes it.
    @discardableResult
    mutating func readCode(from start: Int, endingAtUnmatchedParenthesis: Bool) -> Int {
        var index = start
        var openParentheses = 0
        while index < characters.count {
            if lexer.commentDepth > 0 {
                let end = skipBlockComment(from: index)
                append(.comment, index..<end)
                index = end
                continue
            }
            if let hashes = lexer.openMultilineStringHashes {
                let end = skipMultilineString(from: index, hashes: hashes)
                append(.stringContinued, index..<end)
                index = end
                continue
            }
            let current = characters[index]
            if current == "/", let next = character(after: index), next == "/" || next == "*" {
                if next == "/" {
                    append(.comment, index..<characters.count)
                    return characters.count
                }
                lexer.commentDepth = 1
                let end = skipBlockComment(from: index + 2)
                append(.comment, index..<end)
                index = end
            } else if current.isWhitespace {
                index += 1
            } else if current == "\"" || current == "#" {
                index = readStringOrHash(from: index)
            } else if current.isLetter || current == "_" || current == "$" {
                let end = end(of: index) { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                append(.identifier(String(characters[index..<end])), index..<end)
                index = end
            } else if current == "`" {
                let end = characters[(index + 1)...].firstIndex(of: "`") ?? characters.count
                let after = min(end + 1, characters.count)
                append(.identifier(String(characters[(index + 1)..<end])), index..<after)
                index = after
            } else if current.isNumber {
                index = readNumber(from: index)
            } else if Self.operatorCharacters.contains(current) {
                index = readOperator(from: index)
            } else {
                if current == "(" {
                    openParentheses += 1
                } else if current == ")" {
                    if endingAtUnmatchedParenthesis && openParentheses == 0 { return index + 1 }
                    openParentheses -= 1
                }
                append(.punctuation(current), index..<(index + 1))
                index += 1
            }
        }
        return index
    }

    private mutating func append(_ kind: SwiftToken.Kind, _ columns: Range<Int>) {
        tokens.append(SwiftToken(kind: kind, line: number, columns: columns))
    }

    private func character(after index: Int) -> Character? {
        index + 1 < characters.count ? characters[index + 1] : nil
    }

    private func end(of start: Int, while belongs: (Character) -> Bool) -> Int {
        var index = start
        while index < characters.count && belongs(characters[index]) { index += 1 }
        return index
    }

    private func hashes(_ count: Int, at index: Int) -> Bool {
        index + count <= characters.count && characters[index..<(index + count)].allSatisfy { $0 == "#" }
    }

    private mutating func skipBlockComment(from start: Int) -> Int {
        var index = start
        while index < characters.count {
            let next = character(after: index)
            if characters[index] == "/" && next == "*" {
                lexer.commentDepth += 1
                index += 2
            } else if characters[index] == "*" && next == "/" {
                lexer.commentDepth -= 1
                index += 2
                if lexer.commentDepth == 0 { return index }
            } else {
                index += 1
            }
        }
        return index
    }

    private mutating func skipMultilineString(from start: Int, hashes count: Int) -> Int {
        var index = start
        while index + 2 < characters.count {
            if characters[index..<(index + 3)].allSatisfy({ $0 == "\"" }) && hashes(count, at: index + 3) {
                lexer.openMultilineStringHashes = nil
                return index + 3 + count
            }
            index += 1
        }
        return characters.count
    }

    /// Reads a string literal, raw (`#"…"#`) or not, or a lone `#` as in `#if`.
    private mutating func readStringOrHash(from start: Int) -> Int {
        let quote = end(of: start) { $0 == "#" }
        let hashCount = quote - start
        guard quote < characters.count, characters[quote] == "\"" else {
            append(.punctuation("#"), start..<(start + 1))
            return start + 1
        }
        if quote + 2 < characters.count && characters[quote + 1] == "\"" && characters[quote + 2] == "\"" {
            append(.string(nil), start..<(quote + 3))
            lexer.openMultilineStringHashes = hashCount
            return quote + 3
        }
        return readStringBody(of: start, from: quote + 1, hashes: hashCount)
    }

    /// Reads the literal that starts at `literalStart` (its first `#` or quote) from `start`, just after the quote.
    private mutating func readStringBody(of literalStart: Int, from start: Int, hashes count: Int) -> Int {
        var value: String? = ""
        var index = start
        while index < characters.count {
            let current = characters[index]
            if current == "\"" && hashes(count, at: index + 1) {
                append(.string(value), literalStart..<(index + 1 + count))
                return index + 1 + count
            }
            let escaped = index + 1 + count
            if current == "\\" && hashes(count, at: index + 1) && escaped < characters.count {
                if characters[escaped] == "(" {
                    value = nil
                    index = readCode(from: escaped + 1, endingAtUnmatchedParenthesis: true)
                } else {
                    if let plain = Self.escapedCharacters[characters[escaped]] { value?.append(plain) } else { value = nil }
                    index = escaped + 1
                }
                continue
            }
            value?.append(current)
            index += 1
        }
        // An unterminated string ends with its line, as in Swift.
        append(.string(nil), literalStart..<index)
        return index
    }

    private mutating func readNumber(from start: Int) -> Int {
        var index = end(of: start) { $0.isNumber || $0.isLetter || $0 == "_" }
        // A fraction continues the number, but `1...8` is a number and a range operator.
        while index + 1 < characters.count && characters[index] == "." && characters[index + 1].isNumber {
            index = end(of: index + 1) { $0.isNumber || $0.isLetter || $0 == "_" }
        }
        append(.number(String(characters[start..<index])), start..<index)
        return index
    }

    private mutating func readOperator(from start: Int) -> Int {
        var index = start + 1
        while index < characters.count && Self.operatorCharacters.contains(characters[index]) {
            let startsComment = characters[index] == "/" && (character(after: index) == "/" || character(after: index) == "*")
            if startsComment { break }
            index += 1
        }
        append(.operator(String(characters[start..<index])), start..<index)
        return index
    }
}
