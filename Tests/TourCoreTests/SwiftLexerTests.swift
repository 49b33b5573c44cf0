import Testing
@testable import TourCore

/// The one Swift lexer, read by the page parser (code tokens) and the interface's colouring (every token's columns).
@Suite("Swift lexer")
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
}
