/// A token of Swift code, as far as the page parser needs to know it.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        /// A name or keyword; backticks around an escaped name are removed.
        case identifier(String)
        case number(String)
        /// A string literal's value, or nil when it is interpolated, multi-line or uses escapes beyond `\\` and `\"`.
        case string(String?)
        /// A run of operator characters, such as `.`, `-`, `...` or `=`.
        case `operator`(String)
        case punctuation(Character)
    }

    var kind: Kind
    var line: Int
}

/// Reads Swift code one line at a time, carrying block comments and multi-line strings from line to line.
///
/// Knowing whether a line starts inside a comment or a string is what keeps `//:` in a commented-out
/// region, or in a multi-line string, from being taken for prose. Swift's block comments nest, so this does too.
struct SwiftLexer {
    fileprivate var commentDepth = 0
    /// The number of `#` around the multi-line string the previous line left open, if any.
    fileprivate var openMultilineStringHashes: Int?

    /// Whether the next line starts in code proper, outside any comment or string.
    var isAtCodeLevel: Bool {
        commentDepth == 0 && openMultilineStringHashes == nil
    }

    mutating func tokens(in line: String, number: Int) -> [SwiftToken] {
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
                index = skipBlockComment(from: index)
                continue
            }
            if let hashes = lexer.openMultilineStringHashes {
                index = skipMultilineString(from: index, hashes: hashes)
                continue
            }
            let current = characters[index]
            if current == "/", let next = character(after: index), next == "/" || next == "*" {
                if next == "/" { return characters.count }
                lexer.commentDepth = 1
                index += 2
            } else if current.isWhitespace {
                index += 1
            } else if current == "\"" || current == "#" {
                index = readStringOrHash(from: index)
            } else if current.isLetter || current == "_" || current == "$" {
                let end = end(of: index) { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                append(.identifier(String(characters[index..<end])))
                index = end
            } else if current == "`" {
                let end = characters[(index + 1)...].firstIndex(of: "`") ?? characters.count
                append(.identifier(String(characters[(index + 1)..<end])))
                index = min(end + 1, characters.count)
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
                append(.punctuation(current))
                index += 1
            }
        }
        return index
    }

    private mutating func append(_ kind: SwiftToken.Kind) {
        tokens.append(SwiftToken(kind: kind, line: number))
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
            append(.punctuation("#"))
            return start + 1
        }
        if quote + 2 < characters.count && characters[quote + 1] == "\"" && characters[quote + 2] == "\"" {
            append(.string(nil))
            lexer.openMultilineStringHashes = hashCount
            return quote + 3
        }
        return readStringBody(from: quote + 1, hashes: hashCount)
    }

    private mutating func readStringBody(from start: Int, hashes count: Int) -> Int {
        var value: String? = ""
        var index = start
        while index < characters.count {
            let current = characters[index]
            if current == "\"" && hashes(count, at: index + 1) {
                append(.string(value))
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
        append(.string(nil))
        return index
    }

    private mutating func readNumber(from start: Int) -> Int {
        var index = end(of: start) { $0.isNumber || $0.isLetter || $0 == "_" }
        // A fraction continues the number, but `1...8` is a number and a range operator.
        while index + 1 < characters.count && characters[index] == "." && characters[index + 1].isNumber {
            index = end(of: index + 1) { $0.isNumber || $0.isLetter || $0 == "_" }
        }
        append(.number(String(characters[start..<index])))
        return index
    }

    private mutating func readOperator(from start: Int) -> Int {
        var index = start + 1
        while index < characters.count && Self.operatorCharacters.contains(characters[index]) {
            let startsComment = characters[index] == "/" && (character(after: index) == "/" || character(after: index) == "*")
            if startsComment { break }
            index += 1
        }
        append(.operator(String(characters[start..<index])))
        return index
    }
}
