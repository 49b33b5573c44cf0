import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The one Swift lexer, read by the page parser (code tokens) and the interface's colouring (every token's columns).
@Suite("Swift lexer", .bodiesBelowTheRunner)
struct SwiftLexerTests {
    private func tokens(_ lines: [String]) -> [SwiftToken] {
        var lexer = SwiftLexer()
        return lines.enumerated().flatMap { lexer.tokens(in: $0.element, number: $0.offset + 1) }
    }

    @Test("Each token knows its columns; a raw string's covers its quotes and #s")
    func columns() {
        let line = ##"let s = #"a "b""# // note"##
        let found = tokens([line])
        #expect(found.map(\.kind) == [.identifier("let"), .identifier("s"), .operator("="), .string(#"a "b""#), .comment])
        let characters = Array(line)
        #expect(found.map { String(characters[$0.columns]) } == ["let", "s", "=", ##"#"a "b""#"##, "// note"])
    }

    @Test("Block comments and multi-line strings give a token on every line they cover, which the parser leaves out")
    func carriedOverLines() {
        let found = tokens(["x /* one", "two */ y", "let t = \"\"\"", "body", "\"\"\""])
        #expect(found.map(\.kind) == [.identifier("x"), .comment, .comment, .identifier("y"),
                                      .identifier("let"), .identifier("t"), .operator("="), .string(nil),
                                      .stringContinued, .stringContinued])
        #expect(found.filter(\.kind.isCode).count == 6)
        let source = "x /* knob(\"a\", default: 1, in: 0...2) */\nlet t = \"\"\"\nknob(\"b\", default: true)\n\"\"\""
        let codeTokens = PageSource(source).codeTokens
        #expect(codeTokens.allSatisfy { $0.kind.isCode })
        #expect(LiterateParser.knobs(in: source).isEmpty)
    }

    @Test("Columns count characters, not bytes, on a line with accents, symbols and an emoji built of several scalars")
    func columnsOnALineWithWideCharacters() async throws {
        let line = "let café = \"→ 👩‍💻 é\" + naïve × 2 // ✓ done"
        let found = tokens([line])
        #expect(found.map(\.kind) == [.identifier("let"), .identifier("café"), .operator("="), .string("→ 👩‍💻 é"),
                                      .operator("+"), .identifier("naïve"), .punctuation("×"), .number("2"), .comment])
        let characters = Array(line)
        #expect(found.map { String(characters[$0.columns]) }
                == ["let", "café", "=", "\"→ 👩‍💻 é\"", "+", "naïve", "×", "2", "// ✓ done"])
    }

    /// Found by `scripts/fuzz.sh` (LiterateParser): on a line holding "\r\n", an ASCII line to the byte test, the columns
    /// were counted in bytes and the last token ended past the line's last character.
    @Test("A carriage return and line feed inside a line are one character, and the columns after them count it once")
    func carriageReturnAndLineFeedInALine() async throws {
        let line = "a\r\n b"
        let found = tokens([line])
        #expect(found.map(\.kind) == [.identifier("a"), .identifier("b")])
        #expect(found.map(\.columns) == [0..<1, 3..<4])
        #expect(found.allSatisfy { $0.columns.upperBound <= line.count })
    }

    @Test("A character built on an ASCII sign is one character: a quote with a combining accent opens no string")
    func combiningMarkOnASign() async throws {
        let line = "x = \"\u{301}y"
        let found = tokens([line])
        #expect(found.map(\.kind) == [.identifier("x"), .operator("="), .punctuation("\"\u{301}"), .identifier("y")])
        #expect(found.map(\.columns) == [0..<1, 2..<3, 4..<5, 5..<6])
    }

    @Test("Escapes, raw strings, interpolation, numbers and escaped names")
    func stringsNumbersAndNames() async throws {
        let found = tokens([###"let `default` = "a\"b\\c" + ##"x"#y"## + "\(n + 1)" ; f(0x1F, 1_000.5, 1...8)"###])
        #expect(found.map(\.kind) == [
            .identifier("let"), .identifier("default"), .operator("="), .string(#"a"b\c"#), .operator("+"),
            .string(##"x"#y"##), .operator("+"), .identifier("n"), .operator("+"), .number("1"), .string(nil),
            .punctuation(";"), .identifier("f"), .punctuation("("), .number("0x1F"), .punctuation(","),
            .number("1_000.5"), .punctuation(","), .number("1"), .operator("..."), .number("8"), .punctuation(")"),
        ])
    }

    @Test("Block comments nest across lines and a raw multi-line string closes only with its #s")
    func nestingAcrossLines() async throws {
        let found = tokens(["a /* one /* two */", "still */ b", "let s = #\"\"\"", "\"\"\" not yet", "\"\"\"# c"])
        #expect(found.map(\.kind) == [.identifier("a"), .comment, .comment, .identifier("b"), .identifier("let"),
                                      .identifier("s"), .operator("="), .string(nil), .stringContinued,
                                      .stringContinued, .identifier("c")])
    }
}
