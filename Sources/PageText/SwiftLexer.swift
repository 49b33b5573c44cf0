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
        var contiguous = line
        return contiguous.withUTF8 { bytes in
            var reader = LineReader(bytes: bytes, characterEnds: LineReader.characterEnds(of: line, bytes: bytes),
                                    number: number, lexer: self)
            reader.readCode(from: 0, endingAtUnmatchedParenthesis: false)
            self = reader.lexer
            return reader.tokensInCharacterColumns()
        }
    }
}

/// The tokenizer for one line, over its UTF-8 bytes; a separate value so the line and its tokens need not be passed around.
///
/// It steps a `Character` at a time, as Swift reads source, but an ASCII character is one byte whose class comes from
/// a table, so the common line never meets Unicode's grapheme or property tables. A line with other characters carries
/// where each of them ends, and only those are looked up as `Character`s.
private struct LineReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// For a line with non-ASCII bytes, the byte just past the character starting at each byte; nil for an ASCII line.
    let characterEnds: [Int]?
    let number: Int
    var lexer: SwiftLexer
    /// Tokens with their columns in bytes until `tokensInCharacterColumns` counts them in characters.
    private var tokens: [SwiftToken] = []

    private static let escapedCharacters: [UInt8: UInt8] = [UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "\""): UInt8(ascii: "\"")]

    init(bytes: UnsafeBufferPointer<UInt8>, characterEnds: [Int]?, number: Int, lexer: SwiftLexer) {
        self.bytes = bytes
        self.characterEnds = characterEnds
        self.number = number
        self.lexer = lexer
    }

    /// Where each character of `line` ends, by the byte it starts at; nil when every character is one ASCII byte.
    /// A carriage return counts as not: followed by a line feed it makes one character of two ASCII bytes (the page
    /// parser ends a line at either, but a caller may pass a line that holds them; the fuzzer did).
    static func characterEnds(of line: String, bytes: UnsafeBufferPointer<UInt8>) -> [Int]? {
        guard bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) else { return nil }
        var ends = [Int](repeating: 0, count: bytes.count)
        var start = 0
        for character in line {
            let end = start + character.utf8.count
            ends[start] = end
            start = end
        }
        return ends
    }

    /// The tokens read, their columns counted in characters as the interface draws them.
    func tokensInCharacterColumns() -> [SwiftToken] {
        guard let characterEnds else { return tokens }
        // The character index of every character boundary; a token starts and ends on one.
        var column = [Int](repeating: 0, count: bytes.count + 1)
        var start = 0
        var index = 0
        while start < bytes.count {
            column[start] = index
            start = characterEnds[start]
            index += 1
        }
        column[bytes.count] = index
        return tokens.map { token in
            var token = token
            token.columns = column[token.columns.lowerBound]..<column[token.columns.upperBound]
            return token
        }
    }

    // MARK: Characters by position

    /// The byte just past the character that starts at `index`.
    private func after(_ index: Int) -> Int {
        characterEnds?[index] ?? index + 1
    }

    /// Whether the character at `index` is the single ASCII byte `ascii`.
    private func isCharacter(_ ascii: Unicode.Scalar, at index: Int) -> Bool {
        index < bytes.count && bytes[index] == UInt8(ascii: ascii) && after(index) == index + 1
    }

    /// The character at `index` when it is more than one byte (never an ASCII one).
    private func wideCharacter(at index: Int) -> Character? {
        let end = after(index)
        guard end > index + 1 else { return nil }
        return Character(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self))
    }

    private func character(at index: Int) -> Character {
        wideCharacter(at: index) ?? Character(Unicode.Scalar(bytes[index]))
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func isWhitespace(at index: Int) -> Bool {
        if let wide = wideCharacter(at: index) { return wide.isWhitespace }
        return ASCIIClass.of(bytes[index]).contains(.whitespace)
    }

    private func startsName(at index: Int) -> Bool {
        if let wide = wideCharacter(at: index) { return wide.isLetter }
        return !ASCIIClass.of(bytes[index]).isDisjoint(with: [.letter, .nameSign])
    }

    private func continuesName(at index: Int) -> Bool {
        if let wide = wideCharacter(at: index) { return wide.isLetter || wide.isNumber }
        return !ASCIIClass.of(bytes[index]).isDisjoint(with: [.letter, .digit, .nameSign])
    }

    private func isNumber(at index: Int) -> Bool {
        if let wide = wideCharacter(at: index) { return wide.isNumber }
        return ASCIIClass.of(bytes[index]).contains(.digit)
    }

    /// A digit, a letter or `_`: what continues a number, as in `0x1F` or `1_000`.
    private func continuesNumber(at index: Int) -> Bool {
        if let wide = wideCharacter(at: index) { return wide.isNumber || wide.isLetter }
        return !ASCIIClass.of(bytes[index]).isDisjoint(with: [.letter, .digit]) || bytes[index] == UInt8(ascii: "_")
    }

    private func isOperator(at index: Int) -> Bool {
        index < bytes.count && after(index) == index + 1 && ASCIIClass.of(bytes[index]).contains(.operator)
    }

    // MARK: Reading

    /// Reads code from `start`; inside a string interpolation it stops after the parenthesis that closes it.
    @discardableResult
    mutating func readCode(from start: Int, endingAtUnmatchedParenthesis: Bool) -> Int {
        var index = start
        var openParentheses = 0
        while index < bytes.count {
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
            if isCharacter("/", at: index) && isCharacter("/", at: index + 1) {
                append(.comment, index..<bytes.count)
                return bytes.count
            } else if isCharacter("/", at: index) && isCharacter("*", at: index + 1) {
                lexer.commentDepth = 1
                let end = skipBlockComment(from: index + 2)
                append(.comment, index..<end)
                index = end
            } else if isWhitespace(at: index) {
                index = after(index)
            } else if isCharacter("\"", at: index) || isCharacter("#", at: index) {
                index = readStringOrHash(from: index)
            } else if startsName(at: index) {
                let end = end(of: index, while: continuesName)
                append(.identifier(text(index..<end)), index..<end)
                index = end
            } else if isCharacter("`", at: index) {
                var end = index + 1
                while end < bytes.count && !isCharacter("`", at: end) { end = after(end) }
                let past = min(end + 1, bytes.count)
                append(.identifier(text((index + 1)..<end)), index..<past)
                index = past
            } else if isNumber(at: index) {
                index = readNumber(from: index)
            } else if isOperator(at: index) {
                index = readOperator(from: index)
            } else {
                if isCharacter("(", at: index) {
                    openParentheses += 1
                } else if isCharacter(")", at: index) {
                    if endingAtUnmatchedParenthesis && openParentheses == 0 { return index + 1 }
                    openParentheses -= 1
                }
                let end = after(index)
                append(.punctuation(character(at: index)), index..<end)
                index = end
            }
        }
        return index
    }

    private mutating func append(_ kind: SwiftToken.Kind, _ columns: Range<Int>) {
        tokens.append(SwiftToken(kind: kind, line: number, columns: columns))
    }

    private func end(of start: Int, while belongs: (Int) -> Bool) -> Int {
        var index = start
        while index < bytes.count && belongs(index) { index = after(index) }
        return index
    }

    private func hashes(_ count: Int, at index: Int) -> Bool {
        (0..<count).allSatisfy { isCharacter("#", at: index + $0) }
    }

    private mutating func skipBlockComment(from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if isCharacter("/", at: index) && isCharacter("*", at: index + 1) {
                lexer.commentDepth += 1
                index += 2
            } else if isCharacter("*", at: index) && isCharacter("/", at: index + 1) {
                lexer.commentDepth -= 1
                index += 2
                if lexer.commentDepth == 0 { return index }
            } else {
                index = after(index)
            }
        }
        return index
    }

    private mutating func skipMultilineString(from start: Int, hashes count: Int) -> Int {
        var index = start
        while index < bytes.count {
            if (0..<3).allSatisfy({ isCharacter("\"", at: index + $0) }) && hashes(count, at: index + 3) {
                lexer.openMultilineStringHashes = nil
                return index + 3 + count
            }
            index = after(index)
        }
        return bytes.count
    }

    /// Reads a string literal, raw (`#"…"#`) or not, or a lone `#` as in `#if`.
    private mutating func readStringOrHash(from start: Int) -> Int {
        let quote = end(of: start) { isCharacter("#", at: $0) }
        let hashCount = quote - start
        guard isCharacter("\"", at: quote) else {
            append(.punctuation("#"), start..<(start + 1))
            return start + 1
        }
        if isCharacter("\"", at: quote + 1) && isCharacter("\"", at: quote + 2) {
            append(.string(nil), start..<(quote + 3))
            lexer.openMultilineStringHashes = hashCount
            return quote + 3
        }
        return readStringBody(of: start, from: quote + 1, hashes: hashCount)
    }

    /// Reads the literal that starts at `literalStart` (its first `#` or quote) from `start`, just after the quote.
    private mutating func readStringBody(of literalStart: Int, from start: Int, hashes count: Int) -> Int {
        var value: [UInt8]? = []
        var index = start
        while index < bytes.count {
            if isCharacter("\"", at: index) && hashes(count, at: index + 1) {
                append(.string(value.map { String(decoding: $0, as: UTF8.self) }), literalStart..<(index + 1 + count))
                return index + 1 + count
            }
            let escaped = index + 1 + count
            if isCharacter("\\", at: index) && hashes(count, at: index + 1) && escaped < bytes.count {
                if isCharacter("(", at: escaped) {
                    value = nil
                    index = readCode(from: escaped + 1, endingAtUnmatchedParenthesis: true)
                } else {
                    let plain = after(escaped) == escaped + 1 ? Self.escapedCharacters[bytes[escaped]] : nil
                    if let plain { value?.append(plain) } else { value = nil }
                    index = after(escaped)
                }
                continue
            }
            let end = after(index)
            value?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            index = end
        }
        // An unterminated string ends with its line, as in Swift.
        append(.string(nil), literalStart..<index)
        return index
    }

    private mutating func readNumber(from start: Int) -> Int {
        var index = end(of: start, while: continuesNumber)
        // A fraction continues the number, but `1...8` is a number and a range operator.
        while isCharacter(".", at: index) && index + 1 < bytes.count && isNumber(at: index + 1) {
            index = end(of: index + 1, while: continuesNumber)
        }
        append(.number(text(start..<index)), start..<index)
        return index
    }

    private mutating func readOperator(from start: Int) -> Int {
        var index = start + 1
        while isOperator(at: index) {
            let startsComment = isCharacter("/", at: index) && (isCharacter("/", at: index + 1) || isCharacter("*", at: index + 1))
            if startsComment { break }
            index += 1
        }
        append(.operator(text(start..<index)), start..<index)
        return index
    }
}

/// What an ASCII byte can be in Swift code, from a table of 128 entries; a byte from 0x80 up is in no class.
private struct ASCIIClass: OptionSet {
    let rawValue: UInt8

    static let whitespace = ASCIIClass(rawValue: 1)
    static let letter = ASCIIClass(rawValue: 2)
    static let digit = ASCIIClass(rawValue: 4)
    /// `_` and `$`, which start and continue names as letters do.
    static let nameSign = ASCIIClass(rawValue: 8)
    static let `operator` = ASCIIClass(rawValue: 16)

    private static let table: [ASCIIClass] = (0..<128).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        var found: ASCIIClass = []
        if Character(scalar).isWhitespace { found.insert(.whitespace) }
        if Character(scalar).isLetter { found.insert(.letter) }
        if Character(scalar).isNumber { found.insert(.digit) }
        if "_$".unicodeScalars.contains(scalar) { found.insert(.nameSign) }
        if "/=-+!*%<>&|^~?.".unicodeScalars.contains(scalar) { found.insert(.operator) }
        return found
    }

    static func of(_ byte: UInt8) -> ASCIIClass {
        byte < 0x80 ? table[Int(byte)] : []
    }
}
