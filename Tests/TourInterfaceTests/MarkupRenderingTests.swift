import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

@Suite("Page markup", .bodiesBelowTheRunner)
struct MarkupRenderingTests {
    private func layout(_ source: String, width: Int, glyphs: Glyphs = .unicode) -> PageLayout {
        PageLayout(document: LiterateParser.parse(source), width: width, glyphs: glyphs)
    }

    @Test("Prose wraps at spaces to the width, and inline code keeps its spaces together")
    func wrapping() {
        let page = layout("//: The quick brown fox jumps over the lazy dog and calls `trace(\"a b\")` twice.", width: 30)
        #expect(page.rows.map(\.text) == [
            "The quick brown fox jumps over",
            "the lazy dog and calls",
            "trace(\"a b\") twice.",
        ])
    }

    @Test("A word longer than the width is cut rather than lost")
    func longWord() {
        let page = layout("//: a Supercalifragilisticexpialidocious word", width: 12)
        #expect(page.rows.map(\.text) == ["a", "Supercalifra", "gilisticexpi", "alidocious", "word"])
    }

    @Test("Headings are bold; the first level is underlined with a rule")
    func headings() {
        let page = layout("//: # Title\n//: ## Part", width: 40)
        #expect(page.rows.map(\.text) == ["Title", "─────", "", "Part"])
        #expect(page.rows[0].cells[0].style == CellStyle(foreground: .heading, bold: true))
        #expect(page.rows[3].cells[0].style.bold)
    }

    @Test("Inline code, emphasis, strong text and page links each get their style; a page link names its key")
    func inlineStyles() {
        let page = layout("//: Use `x` *now*, **really**: [Next page](@next)", width: 60)
        let row = page.rows[0]
        #expect(row.text == "Use x now, really: Next page (n)")
        #expect(row.cells[4].style.foreground == .inlineCode)
        #expect(row.cells[6].style.underline)
        #expect(row.cells[11].style.bold)
        #expect(row.cells[19].style == CellStyle(foreground: .link, underline: true))
        #expect(row.cells[29].style.dim)
        #expect(row.links == [PageRow.Link(columns: 19..<32, target: "@next")])
    }

    @Test("List items get a bullet or their number, and wrapped lines hang under the text")
    func lists() {
        let page = layout("/*:\n - first item that wraps around\n   - nested\n 1. one\n */", width: 20)
        #expect(page.rows.map(\.text) == [
            "• first item that",
            "  wraps around",
            "  • nested",
            "1. one",
        ])
    }

    @Test("Callouts are boxes labelled with their kind, in its colour")
    func callouts() {
        let page = layout("//: - experiment: Set the knob to 1 and run it again.", width: 30)
        #expect(page.rows.map(\.text) == [
            "┌─ Experiment ───────────────┐",
            "│ Set the knob to 1 and run  │",
            "│ it again.                  │",
            "└────────────────────────────┘",
        ])
        #expect(page.rows[0].cells[0].style.foreground == .experiment)
        #expect(page.rows[0].cells[3].style == CellStyle(foreground: .experiment, bold: true))
    }

    @Test("Callouts and rules fall back to ASCII outside a UTF-8 locale")
    func asciiCallout() {
        let page = layout("//: - note: Cheap.\n//: ---", width: 16, glyphs: .ascii)
        #expect(page.rows.map(\.text) == [
            "+- Note -------+",
            "| Cheap.       |",
            "+--------------+",
            "",
            "----------------",
        ])
    }

    @Test("A deep dive is one row until opened: its first sentence, and the key that opens it")
    func foldedDeepDive() {
        let source = "/*:\n - deep dive: Why a stop is kept. The loop checks a flag.\n\n   - more\n */\nlet a = 1"
        let page = layout(source, width: 50)
        #expect(page.rows.map(\.text) == [
            "▸ Deep dive: Why a stop is kept.           o opens",
            "",
            "6 let a = 1",
        ])
        #expect(page.rows[0].deepDive == 2)
        #expect(page.rows[0].togglesDeepDive)
        #expect(page.rows[0].cells[0].style == CellStyle(foreground: .deepDive, bold: true))
        #expect(page.rows[0].cells[13].style == .plain)
        #expect(page.rows[0].cells[45].style == CellStyle(foreground: .muted))
        #expect(page.rows[2].deepDive == nil)
        #expect(page.rows[2].sourceLine == 6)
    }

    @Test("A folded deep dive cuts a first sentence too long for its row")
    func foldedDeepDiveSummaryIsCut() {
        let page = layout("//: - Deep Dive: A first sentence far longer than the row has room for", width: 40)
        #expect(page.rows.map(\.text) == ["▸ Deep dive: A first sentence f… o opens"])
    }

    @Test("An open deep dive is a box of its paragraphs and items, with links where they fall, and says how to close it")
    func openDeepDive() {
        let source = "/*:\n - deep dive: Why it wakes.\n\n   Because:\n   - a [page](@next) link\n     - nested\n */"
        let page = PageLayout(document: LiterateParser.parse(source), width: 40, glyphs: .unicode, openDeepDives: [2])
        #expect(page.rows.map(\.text) == [
            "┌─ Deep dive ─────────────── o closes ─┐",
            "│ Why it wakes.                        │",
            "│                                      │",
            "│ Because:                             │",
            "│                                      │",
            "│ • a page (n) link                    │",
            "│   • nested                           │",
            "└──────────────────────────────────────┘",
        ])
        #expect(page.rows.map(\.deepDive) == Array(repeating: 2, count: 8))
        #expect(page.rows.map(\.togglesDeepDive) == [true] + Array(repeating: false, count: 7))
        #expect(page.rows[0].cells[0].style.foreground == .deepDive)
        #expect(page.rows[5].links == [PageRow.Link(columns: 6..<14, target: "@next")])
        #expect(page.rows[5].cells[6].style.foreground == .link)
    }

    @Test("Deep dives fall back to ASCII outside a UTF-8 locale")
    func asciiDeepDive() {
        let source = "//: - deep dive: One.\n//: - deep dive: Two."
        let page = PageLayout(document: LiterateParser.parse(source), width: 30, glyphs: .ascii, openDeepDives: [2])
        #expect(page.rows.map(\.text) == [
            "> Deep dive: One.      o opens",
            "",
            "+- Deep dive ----- o closes -+",
            "| Two.                       |",
            "+----------------------------+",
        ])
    }

    @Test("Code lines carry their number in main.swift and leave room for the results column")
    func codeNumbers() {
        let page = layout("//: Prose\nlet a = 1\n\nlet b = 2", width: 60)
        let code = page.rows.filter(\.isCode)
        #expect(code.map(\.sourceLine) == [2, 3, 4])
        #expect(code.map(\.text) == ["2 let a = 1", "3", "4 let b = 2"])
        #expect(page.resultsWidth == 14)
        #expect(page.resultsColumn == 2 + page.codeWidth + 1)
        #expect(page.codeWidth == 60 - 2 - 14 - 1)
    }

    @Test("A code line longer than the code column continues behind a marker, without a number")
    func codeContinuation() {
        let page = layout("let total = first + second + third + fourth", width: 30)
        #expect(page.rows.map(\.text) == ["1 let total = first + second", "↪ + third + fourth"])
        #expect(page.rows.map(\.sourceLine) == [1, nil])
    }

    @Test("Swift keywords, strings, comments and numbers are coloured; code sits on its shade")
    func syntaxColours() {
        let page = layout("let name = \"tour\" + 42 // why", width: 60)
        let cells = page.rows[0].cells
        func color(at text: String) -> PaletteColor? {
            let line = String(cells.map(\.character))
            let offset = line.distance(from: line.startIndex, to: line.range(of: text)!.lowerBound)
            return cells[offset].style.foreground
        }
        #expect(color(at: "let") == .keyword)
        #expect(color(at: "name") == nil)
        #expect(color(at: "\"tour\"") == .string)
        #expect(color(at: "42") == .number)
        #expect(color(at: "// why") == .comment)
        #expect(cells.allSatisfy { $0.style.background == .codeBackground })
    }

    @Test("Block comments carry over to the next line, and attributes count as keywords")
    func multiLineComment() {
        var highlighter = SwiftHighlighter()
        #expect(highlighter.colors(of: "/* start").allSatisfy { $0 == .comment })
        #expect(highlighter.colors(of: "end */ x").prefix(6).allSatisfy { $0 == .comment })
        #expect(highlighter.colors(of: "@Sendable func").first == .keyword)
    }

    @Test("Colouring reads code as the page parser does: raw strings, escaped names, interpolation, multi-line strings")
    func colouringSharesTheParsersLexer() {
        var highlighter = SwiftHighlighter()
        func colors(_ line: String, at text: String) -> [PaletteColor?] {
            let all = highlighter.colors(of: line)
            let start = line.distance(from: line.startIndex, to: line.range(of: text)!.lowerBound)
            return Array(all[start..<(start + text.count)])
        }
        // A raw string's inner quotes do not end it, and what follows it is code again.
        let raw = ##"let s = #"a "quoted" b"# + count"##
        #expect(colors(raw, at: ##"#"a "quoted" b"#"##).allSatisfy { $0 == .string })
        #expect(colors(raw, at: "count").allSatisfy { $0 == nil })
        // An escaped keyword is a name.
        #expect(colors("let `default` = 1", at: "default").allSatisfy { $0 == nil })
        #expect(colors("#if DEBUG", at: "#if").allSatisfy { $0 == .keyword })
        // A number interpolated into a string is a number; the rest of the literal is string.
        let interpolated = #"print("took \(42) ms")"#
        #expect(colors(interpolated, at: "42").allSatisfy { $0 == .number })
        #expect(colors(interpolated, at: " ms\"").allSatisfy { $0 == .string })
        // A raw multi-line string ends only at its closing quotes with their `#`.
        #expect(highlighter.colors(of: "let text = #\"\"\"").suffix(4).allSatisfy { $0 == .string })
        #expect(highlighter.colors(of: "a \"\"\" inside").allSatisfy { $0 == .string })
        let closing = highlighter.colors(of: "\"\"\"# + let")
        #expect(closing.prefix(4).allSatisfy { $0 == .string })
        #expect(closing.suffix(3).allSatisfy { $0 == .keyword })
    }
}
