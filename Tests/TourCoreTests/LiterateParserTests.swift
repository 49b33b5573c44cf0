import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// Joins lines with line breaks, so each test's page reads as it would in `main.swift`.
private func page(_ lines: String...) -> String {
    lines.joined(separator: "\n") + "\n"
}

private func code(_ lines: (Int, String)...) -> PageBlock {
    .code(lines.map { SourceLine(number: $0.0, text: $0.1) })
}

@Suite("Prose and code", .bodiesBelowTheRunner)
struct ProseAndCodeTests {
    @Test func proseLinesAndCodeKeepTheirFileLineNumbers() {
        let source = page(
            "//: # Queue",                 // 1
            "import LessonKit",            // 2
            "",                            // 3
            "let queue = OperationQueue()", // 4
            "//: Adding work.",            // 5
            "    //:Indented prose.",      // 6
            "queue.addOperation {}",       // 7
            "",                            // 8
        )
        #expect(LiterateParser.parse(source).blocks == [
            .heading(level: 1, text: [.text("Queue")], line: 1),
            code((2, "import LessonKit"), (3, ""), (4, "let queue = OperationQueue()")),
            .paragraph([.text("Adding work. Indented prose.")], line: 5),
            code((7, "queue.addOperation {}")),
        ])
    }

    @Test func blankCodeLinesAtTheEdgesOfARunAreDropped() {
        let source = page("//: Text", "", "", "let a = 1", "", "//: More", "", "")
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("Text")], line: 1),
            code((4, "let a = 1")),
            .paragraph([.text("More")], line: 6),
        ])
    }

    @Test func windowsLineEndingsCountOneLineEach() {
        let document = LiterateParser.parse("//: Hi\r\nlet a = 1\r\nlet b = 2\r\n")
        #expect(document.codeLines == [SourceLine(number: 2, text: "let a = 1"), SourceLine(number: 3, text: "let b = 2")])
    }

    @Test func blockCommentLosesItsCommonIndentation() {
        let source = page(
            "/*:",                      // 1
            "   # Title",               // 2
            "",                         // 3
            "   First line",            // 4
            "   continues here.",       // 5
            "     - nested item",       // 6
            "   */",                    // 7
            "let a = 1",                // 8
        )
        #expect(LiterateParser.parse(source).blocks == [
            .heading(level: 1, text: [.text("Title")], line: 2),
            .paragraph([.text("First line continues here.")], line: 4),
            .listItem(ordered: false, number: nil, depth: 0, text: [.text("nested item")], line: 6),
            code((8, "let a = 1")),
        ])
    }

    @Test func textOnTheOpeningAndClosingLinesOfABlockIsProse() {
        let source = page(
            "/*: Opening words",  // 1
            "  middle",           // 2
            "  closing words */", // 3
            "/*: One line. */",   // 4
        )
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("Opening words middle closing words")], line: 1),
            .paragraph([.text("One line.")], line: 4),
        ])
    }

    @Test func codeAfterTheClosingDelimiterKeepsItsLine() {
        let source = page("/*: Note", "*/ let a = 1")
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("Note")], line: 1),
            code((2, " let a = 1")),
        ])
    }

    @Test func ordinaryCommentsStayCode() {
        let source = page(
            "// A comment",           // 1
            "/* A block",             // 2
            "//: inside a comment",   // 3
            "*/",                     // 4
            "let a = 1 /* inline */", // 5
            "/** Doc */",             // 6
        )
        #expect(LiterateParser.parse(source).blocks == [
            code((1, "// A comment"), (2, "/* A block"), (3, "//: inside a comment"), (4, "*/"),
                 (5, "let a = 1 /* inline */"), (6, "/** Doc */")),
        ])
    }

    @Test func proseMarkersInsideAMultilineStringStayCode() {
        let source = page("let text = \"\"\"", "//: not prose", "\"\"\"", "//: prose")
        #expect(LiterateParser.parse(source).blocks == [
            code((1, "let text = \"\"\""), (2, "//: not prose"), (3, "\"\"\"")),
            .paragraph([.text("prose")], line: 4),
        ])
    }

    @Test func nestedBlockCommentsCloseWhereSwiftClosesThem() {
        let source = page("/*: Outer /* inner */", "still prose */", "let a = 1")
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("Outer /* inner */ still prose")], line: 1),
            code((3, "let a = 1")),
        ])
    }

    @Test func unclosedBlockKeepsAllItsTextAsProse() {
        let source = page("let a = 1", "/*: Never", "closed", "let b = 2")
        #expect(LiterateParser.parse(source).blocks == [
            code((1, "let a = 1")),
            .paragraph([.text("Never closed let b = 2")], line: 2),
        ])
    }

    @Test func separateBlockCommentsAreSeparateParagraphs() {
        let source = page("//: One", "/*: Two */", "//: Three")
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("One")], line: 1),
            .paragraph([.text("Two")], line: 2),
            .paragraph([.text("Three")], line: 3),
        ])
    }

    @Test func titleAndCodeLinesSummariseTheDocument() {
        let document = LiterateParser.parse(page("//: Intro", "//: ## The `main` queue", "let a = 1", "//: # Later"))
        #expect(document.title == "The main queue")
        #expect(document.codeLines == [SourceLine(number: 3, text: "let a = 1")])
        #expect(LiterateParser.parse("let a = 1").title == nil)
    }

    @Test func emptySourceHasNoBlocks() {
        #expect(LiterateParser.parse("").blocks == [])
    }
}

@Suite("Block markup", .bodiesBelowTheRunner)
struct BlockMarkupTests {
    @Test func headingsOfEveryLevel() {
        let source = page("//: # One", "//: ###### Six ##", "//: ####### Seven", "//: #NoSpace", "//: ## C#")
        #expect(LiterateParser.parse(source).blocks == [
            .heading(level: 1, text: [.text("One")], line: 1),
            .heading(level: 6, text: [.text("Six")], line: 2),
            .paragraph([.text("####### Seven #NoSpace")], line: 3),
            .heading(level: 2, text: [.text("C#")], line: 5),
        ])
    }

    @Test func headingEndsAParagraphWithoutABlankLine() {
        let source = page("//: Text", "//: ## Next")
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("Text")], line: 1),
            .heading(level: 2, text: [.text("Next")], line: 2),
        ])
    }

    @Test func unorderedOrderedAndNestedListItems() {
        let source = page(
            "//: - first",           // 1
            "//:   wrapped",         // 2
            "//:   * nested",        // 3
            "//:       deeper? no: continuation", // 4
            "//: * second",          // 5
            "//:",                   // 6
            "//: 1. one",            // 7
            "//: 12. twelve",        // 8
        )
        #expect(LiterateParser.parse(source).blocks == [
            .listItem(ordered: false, number: nil, depth: 0, text: [.text("first wrapped")], line: 1),
            .listItem(ordered: false, number: nil, depth: 1, text: [.text("nested deeper? no: continuation")], line: 3),
            .listItem(ordered: false, number: nil, depth: 0, text: [.text("second")], line: 5),
            .listItem(ordered: true, number: 1, depth: 0, text: [.text("one")], line: 7),
            .listItem(ordered: true, number: 12, depth: 0, text: [.text("twelve")], line: 8),
        ])
    }

    @Test func onlyOneCanStartAListInsideAParagraph() {
        let source = page("//: Shipped in", "//: 2024. Since then", "//: 1. first")
        #expect(LiterateParser.parse(source).blocks == [
            .paragraph([.text("Shipped in 2024. Since then")], line: 1),
            .listItem(ordered: true, number: 1, depth: 0, text: [.text("first")], line: 3),
        ])
    }

    @Test func rules() {
        let source = page("//: ---", "//: *****", "//: --")
        #expect(LiterateParser.parse(source).blocks == [
            .rule(line: 1),
            .rule(line: 2),
            .paragraph([.text("--")], line: 3),
        ])
    }

    @Test(arguments: CalloutKind.allCases)
    func eachCalloutKind(kind: CalloutKind) {
        let source = page("//: - \(kind.rawValue): Try it.")
        #expect(LiterateParser.parse(source).blocks == [.callout(kind: kind, body: [.text("Try it.")], line: 1)])
    }

    @Test func calloutBodyRunsOverContinuationLinesUntilABlankLine() {
        let source = page(
            "/*:",                                        // 1
            " - Experiment: Set `maxConcurrentOperationCount`", // 2
            "   to 1 and run again.",                    // 3
            " the queue is now *serial*.",               // 4
            "",                                           // 5
            " After.",                                    // 6
            " */",                                        // 7
        )
        #expect(LiterateParser.parse(source).blocks == [
            .callout(kind: .experiment, body: [
                .text("Set "), .code("maxConcurrentOperationCount"),
                .text(" to 1 and run again. the queue is now "), .emphasis("serial"), .text("."),
            ], line: 2),
            .paragraph([.text("After.")], line: 6),
        ])
    }

    @Test func calloutEndsAtTheNextListItemOrHeading() {
        let source = page("//: - note:", "//:   Body on the next line.", "//: - Item", "//: - important: Careful", "//: # Heading")
        #expect(LiterateParser.parse(source).blocks == [
            .callout(kind: .note, body: [.text("Body on the next line.")], line: 1),
            .listItem(ordered: false, number: nil, depth: 0, text: [.text("Item")], line: 3),
            .callout(kind: .important, body: [.text("Careful")], line: 4),
            .heading(level: 1, text: [.text("Heading")], line: 5),
        ])
    }

    @Test func unknownCalloutKeywordsAndNumberedItemsAreListItems() {
        let source = page("//: - warning: Hot", "//: 1. note: Not a callout")
        #expect(LiterateParser.parse(source).blocks == [
            .listItem(ordered: false, number: nil, depth: 0, text: [.text("warning: Hot")], line: 1),
            .listItem(ordered: true, number: 1, depth: 0, text: [.text("note: Not a callout")], line: 2),
        ])
    }
}

@Suite("Deep dive markup", .bodiesBelowTheRunner)
struct DeepDiveParsingTests {
    private func paragraph(_ text: String, line: Int) -> PageBlock {
        .paragraph([.text(text)], line: line)
    }

    private func item(_ text: String, depth: Int = 0, line: Int) -> PageBlock {
        .listItem(ordered: false, number: nil, depth: depth, text: [.text(text)], line: line)
    }

    @Test(arguments: ["deep dive", "Deep dive", "DEEP DIVE", "Deep Dive"])
    func keywordInAnyLetterCase(keyword: String) {
        let source = page("//: - \(keyword): Internals.")
        #expect(LiterateParser.parse(source).blocks == [.deepDive(body: [paragraph("Internals.", line: 1)], line: 1)])
    }

    @Test func firstParagraphFollowsTheRulesOfOtherCallouts() {
        let source = page(
            "//: - deep dive:",          // 1
            "//: Why the first line",    // 2
            "//:   may be the next.",    // 3
            "//: - Item",                // 4
        )
        #expect(LiterateParser.parse(source).blocks == [
            .deepDive(body: [paragraph("Why the first line may be the next.", line: 2)], line: 1),
            item("Item", line: 4),
        ])
    }

    @Test func indentedParagraphsAndItemsAfterBlankLinesBelongToTheDeepDive() {
        let source = page(
            "/*:",                                             // 1
            " Before.",                                        // 2
            "",                                                // 3
            " - Deep dive: What `o` opens.",                   // 4
            "   The first paragraph goes on",                  // 5
            " lazily, as a callout's does.",                   // 6
            "",                                                // 7
            "   Two things follow:",                           // 8
            "   - an *emphasised* item",                       // 9
            "     - nested detail",                            // 10
            "   1. numbered",                                  // 11
            "   - note: not a callout here",                   // 12
            "",                                                // 13
            "",                                                // 14
            "   Last paragraph.",                              // 15
            "",                                                // 16
            " After, at the marker's indentation.",            // 17
            " */",                                             // 18
        )
        #expect(LiterateParser.parse(source).blocks == [
            paragraph("Before.", line: 2),
            .deepDive(body: [
                .paragraph([.text("What "), .code("o"), .text(" opens. The first paragraph goes on lazily, as a callout's does.")],
                           line: 4),
                paragraph("Two things follow:", line: 8),
                .listItem(ordered: false, number: nil, depth: 0, text: [.text("an "), .emphasis("emphasised"), .text(" item")], line: 9),
                item("nested detail", depth: 1, line: 10),
                .listItem(ordered: true, number: 1, depth: 0, text: [.text("numbered")], line: 11),
                item("note: not a callout here", line: 12),
                paragraph("Last paragraph.", line: 15),
            ], line: 4),
            paragraph("After, at the marker's indentation.", line: 17),
        ])
    }

    @Test func anItemAtTheMarkersIndentationEndsTheDeepDive() {
        let source = page("//: - deep dive: One.", "//:   - inside", "//: - outside", "//: - note: a callout again")
        #expect(LiterateParser.parse(source).blocks == [
            .deepDive(body: [paragraph("One.", line: 1), item("inside", line: 2)], line: 1),
            item("outside", line: 3),
            .callout(kind: .note, body: [.text("a callout again")], line: 4),
        ])
    }

    @Test func headingsRulesCodeAndTheEndOfABlockEndTheDeepDive() {
        let source = page(
            "//: - deep dive: A.",   // 1
            "//:   ## Heading",      // 2
            "//: - deep dive: B.",   // 3
            "//:   ---",             // 4
            "//: - deep dive: C.",   // 5
            "let c = 1",             // 6
            "/*: - deep dive: D.",   // 7
            "    Still D. */",       // 8
            "//:   Not D: a new paragraph.", // 9
        )
        #expect(LiterateParser.parse(source).blocks == [
            .deepDive(body: [paragraph("A.", line: 1)], line: 1),
            .heading(level: 2, text: [.text("Heading")], line: 2),
            .deepDive(body: [paragraph("B.", line: 3)], line: 3),
            .rule(line: 4),
            .deepDive(body: [paragraph("C.", line: 5)], line: 5),
            code((6, "let c = 1")),
            .deepDive(body: [paragraph("D. Still D.", line: 7)], line: 7),
            paragraph("Not D: a new paragraph.", line: 9),
        ])
    }

    @Test func aDeepDiveWithoutTextIsKeptEmptyAndListedByTheDocument() {
        let document = LiterateParser.parse(page("//: - deep dive:", "//:", "//: Text.", "//: - deep dive: Second."))
        #expect(document.blocks == [
            .deepDive(body: [], line: 1),
            paragraph("Text.", line: 3),
            .deepDive(body: [paragraph("Second.", line: 4)], line: 4),
        ])
        #expect(document.deepDives.map(\.line) == [1, 4])
    }

    @Test func otherSpellingsAreOrdinaryItems() {
        let source = page("//: - deep-dive: no", "//: - deepdive: no", "//: 1. deep dive: no")
        #expect(LiterateParser.parse(source).blocks == [
            item("deep-dive: no", line: 1),
            item("deepdive: no", line: 2),
            .listItem(ordered: true, number: 1, depth: 0, text: [.text("deep dive: no")], line: 3),
        ])
    }
}

@Suite("Inline markup", .bodiesBelowTheRunner)
struct InlineMarkupTests {
    private func spans(_ prose: String) -> [InlineSpan] {
        guard case .paragraph(let spans, _)? = LiterateParser.parse("//: " + prose).blocks.first else { return [] }
        return spans
    }

    @Test func codeEmphasisAndStrong() {
        #expect(spans("Call `start()` *once* or _twice_, **never** __thrice__.") == [
            .text("Call "), .code("start()"), .text(" "), .emphasis("once"), .text(" or "), .emphasis("twice"),
            .text(", "), .strong("never"), .text(" "), .strong("thrice"), .text("."),
        ])
    }

    @Test func codeSpanContentIsLiteral() {
        #expect(spans("`a*b*c` and `` x`y ``") == [.code("a*b*c"), .text(" and "), .code("x`y")])
    }

    @Test func emphasisSpansASoftLineBreak() {
        let document = LiterateParser.parse(page("//: An *important", "//: point*."))
        #expect(document.blocks == [.paragraph([.text("An "), .emphasis("important point"), .text(".")], line: 1)])
    }

    @Test func nestedMarkupIsFlattenedToItsText() {
        #expect(spans("**the `main` queue** and [`Operation`](https://example.com)") == [
            .strong("the main queue"), .text(" and "), .link(text: "Operation", target: "https://example.com"),
        ])
    }

    @Test func linksAndPageLinks() {
        #expect(spans("[Previous](@previous) | [Next](@next)") == [
            .link(text: "Previous", target: "@previous"), .text(" | "), .link(text: "Next", target: "@next"),
        ])
    }

    @Test func underscoresInsideWordsAndSpacedAsterisksAreText() {
        #expect(spans("max_concurrent_count is 2 * 3 * 4") == [.text("max_concurrent_count is 2 * 3 * 4")])
    }

    @Test func backslashEscapesMarkup() {
        #expect(spans(#"\*not emphasis\* and \`tick"#) == [.text("*not emphasis* and `tick")])
    }

    @Test func unbalancedMarkupKeepsEveryCharacter() {
        #expect(spans("a `b and *c and **d and _e and [f](g") == [.text("a `b and *c and **d and _e and [f](g")])
        #expect(spans("[text] (x) [](y) [z]()") == [.text("[text] (x) [](y) [z]()")])
        #expect(spans("**word***") == [.strong("word"), .text("*")])
        #expect(spans("``") == [.text("``")])
    }
}

@Suite("Knob declarations", .bodiesBelowTheRunner)
struct KnobScanningTests {
    @Test func integerKnobWithRangeAndHelp() {
        let source = page(
            "import LessonKit",
            #"let width = knob("maxConcurrentOperationCount", default: 2, in: 1...8, "how many at once")"#,
            #"let offset = knob("offset", default: -3, in: -10 ... -1)"#,
        )
        #expect(LiterateParser.knobs(in: source) == [
            KnobDeclaration(name: "maxConcurrentOperationCount", kind: .integer(default: 2, range: 1...8), line: 2),
            KnobDeclaration(name: "offset", kind: .integer(default: -3, range: -10...(-1)), line: 3),
        ])
    }

    @Test func booleanKnob() {
        let source = page(#"let again = knob("reAddFinishedOperation", default: false)"#,
                          #"let on = LessonKit.knob("verbose", default: true, "say more")"#)
        #expect(LiterateParser.knobs(in: source) == [
            KnobDeclaration(name: "reAddFinishedOperation", kind: .boolean(default: false), line: 1),
            KnobDeclaration(name: "verbose", kind: .boolean(default: true), line: 2),
        ])
    }

    @Test func choiceKnobListsTheCasesOfAnEnumerationInTheSameFile() {
        let source = page(
            "enum Priority: String, CaseIterable, Sendable {", // 1
            "    case veryLow, low",                           // 2
            "    case normal = \"usual\"",                     // 3
            "    var label: String {",                        // 4
            "        switch self { case .low: \"l\"; default: \"x\" }", // 5
            "    }",                                           // 6
            "    case high",                                   // 7
            "}",                                               // 8
            #"let a = knob("explicit", default: Priority.normal, "help")"#, // 9
            #"let b: Priority = knob("annotated", default: .high)"#,         // 10
            #"let c = knob("unknown", default: Elsewhere.fast)"#,            // 11
            "let d = knob(",                                                 // 12
            #"    "wrapped","#,                                              // 13
            "    default: .veryLow",                                         // 14
            ")",                                                             // 15
        )
        let cases = ["veryLow", "low", "usual", "high"]
        #expect(LiterateParser.knobs(in: source) == [
            KnobDeclaration(name: "explicit", kind: .choice(default: "usual", choices: cases), line: 9),
            KnobDeclaration(name: "annotated", kind: .choice(default: "high", choices: cases), line: 10),
            KnobDeclaration(name: "unknown", kind: .choice(default: "fast", choices: nil), line: 11),
            KnobDeclaration(name: "wrapped", kind: .choice(default: "veryLow", choices: cases), line: 12),
        ])
    }

    @Test func choiceEnumerationMayLiveInAHelperFile() {
        let helper = page("enum ScrollScript: String, CaseIterable {", "    case downAndBack, flick, still", "}")
        let source = page("import LessonKit", #"let script = knob("script", default: ScrollScript.flick, "which scroll")"#)
        #expect(LiterateParser.knobs(in: source, helperSources: [helper]) == [
            KnobDeclaration(name: "script", kind: .choice(default: "flick", choices: ["downAndBack", "flick", "still"]), line: 2),
        ])
        #expect(LiterateParser.knobs(in: source) == [
            KnobDeclaration(name: "script", kind: .choice(default: "flick", choices: nil), line: 2),
        ])
    }

    @Test func enumerationWithoutStringRawValuesGivesNoChoices() {
        let source = page("enum Mode: Int, CaseIterable { case a, b }", #"let m = knob("mode", default: Mode.a)"#)
        #expect(LiterateParser.knobs(in: source) == [KnobDeclaration(name: "mode", kind: .choice(default: "a", choices: nil), line: 2)])
    }

    @Test func knobsInProseCommentsAndStringsDoNotCount() {
        let source = page(
            #"//: Try `knob("prose", default: 1, in: 1...2)`."#,
            #"// let a = knob("lineComment", default: true)"#,
            #"/* knob("blockComment", default: true) */"#,
            #"print("knob(\"string\", default: true)")"#,
            #"func knob(_ name: String, default value: Bool) -> Bool { value }"#,
            #"let b = settings.knob("member", default: true)"#,
            #"let c = knob("real", default: true) // knob("after", default: true)"#,
        )
        #expect(LiterateParser.knobs(in: source) == [KnobDeclaration(name: "real", kind: .boolean(default: true), line: 7)])
    }

    @Test func malformedDeclarationsAreSkipped() {
        let source = page(
            #"let a = knob(name, default: 1, in: 1...3)"#,        // name is not a literal
            #"let b = knob("noRange", default: 2)"#,              // integer without a range
            #"let c = knob("reversed", default: 2, in: 8...1)"#,  // empty range
            #"let d = knob("halfOpen", default: 2, in: 1..<8)"#,  // not a closed range
            #"let e = knob("computed", default: Bool.random())"#, // not a literal
            #"let f = knob("float", default: 1.5, in: 1...2)"#,
            #"let g = knob("interpolated\(x)", default: true)"#,
            #"let h = knob("unfinished", default:"#,
            #"let i = knob("#,
            #"let ok = knob("ok", default: 1_000, in: 0...2_000)"#,
        )
        #expect(LiterateParser.knobs(in: source) == [
            KnobDeclaration(name: "ok", kind: .integer(default: 1000, range: 0...2000), line: 10),
        ])
    }

    @Test func knobsOfAWholePageInOrder() {
        let source = page(
            "/*:", " # Queue", " */",
            "import LessonKit",
            "enum Workload: String, CaseIterable {", "    case sleeping, computing", "}",
            #"let maxConcurrent = knob("maxConcurrentOperationCount", default: 2, in: 1...8, "how many")"#,
            #"let workload = knob("workload", default: Workload.sleeping, "what the jobs do")"#,
            #"let serial = knob("serialQoSQueue", default: false, "one at a time")"#,
        )
        #expect(LiterateParser.knobs(in: source) == [
            KnobDeclaration(name: "maxConcurrentOperationCount", kind: .integer(default: 2, range: 1...8), line: 8),
            KnobDeclaration(name: "workload", kind: .choice(default: "sleeping", choices: ["sleeping", "computing"]), line: 9),
            KnobDeclaration(name: "serialQoSQueue", kind: .boolean(default: false), line: 10),
        ])
    }
}

/// The page list reads only each page's opening prose; what it finds there must be what the whole parse finds.
@Suite("Page header", .bodiesBelowTheRunner)
struct PageHeaderTests {
    /// The title, part and first paragraph as the full parse gives them, for comparison: a part's line is the first
    /// paragraph only when it opens a part, and the summary is the paragraph after it.
    private static func fromFullParse(_ source: String) -> (title: String?, part: PagePart?, firstParagraph: [InlineSpan]?) {
        let document = LiterateParser.parse(source)
        let paragraphs = document.blocks.compactMap { block -> [InlineSpan]? in
            if case .paragraph(let spans, _) = block { return spans }
            return nil
        }
        if let first = paragraphs.first, let part = PagePart(line: first.plainText) {
            return (document.title, part, paragraphs.dropFirst().first)
        }
        return (document.title, nil, paragraphs.first)
    }

    @Test("Each of the checkout's pages: the header read alone is the full parse's title and first paragraph")
    func realPages() async throws {
        let catalog = try PageCatalog.load()
        try #require(catalog.pages.count >= 8)
        for page in catalog.pages {
            let source = try String(contentsOf: page.source, encoding: .utf8)
            let header = LiterateParser.header(source)
            let full = Self.fromFullParse(source)
            #expect(header.title == full.title, "page \(page.number)")
            #expect(header.part == full.part, "page \(page.number)")
            #expect(header.firstParagraph == full.firstParagraph, "page \(page.number)")
            #expect(page.title == full.title, "page \(page.number)")
        }
    }

    @Test("A title after the first paragraph, a paragraph after code, none at all, or a paragraph inside a deep dive",
          arguments: [
              page("//: Opening words.", "", "//: # Late title", "let a = 1"),
              page("import Foundation", "let a = 1", "//: # Title", "//:", "//: After the code."),
              page("let a = 1", "// an ordinary comment"),
              page("//: # Title", "//: - deep dive: Not the summary.", "//:", "//: The summary."),
              page("/* //: # Hidden in a comment", "*/", "//: # Shown", "/*:", " Summary *in* a block.", " */"),
              page("//: # Title ##", "//: 1. An item", "//: Not a paragraph yet", "//:", "//: The summary."),
              page("/*:", " # Tasks", "", " Part two: Swift Concurrency", "", " The summary.", " */"),
              page("//: # Title", "//: The summary.", "//:", "//: Part two: Too late to open one"),
          ])
    func sameAsTheFullParse(source: String) async throws {
        let header = LiterateParser.header(source)
        let full = Self.fromFullParse(source)
        #expect(header.title == full.title)
        #expect(header.part == full.part)
        #expect(header.firstParagraph == full.firstParagraph)
    }

    @Test func aPartsLineOpensThePartAndTheParagraphAfterItIsTheSummary() async throws {
        let header = LiterateParser.header(page("/*:", " # Tasks", "", " Part two: Swift Concurrency", "", " What a task is. More.", " */"))
        #expect(header.title == "Tasks")
        #expect(header.part == PagePart(label: "Part two", title: "Swift Concurrency"))
        #expect(header.firstParagraph?.plainText == "What a task is. More.")
        let late = LiterateParser.header(page("//: # Title", "//: The summary.", "//:", "//: Part two: Too late"))
        #expect(late.part == nil, "a part's line after the first paragraph is an ordinary paragraph")
        #expect(late.firstParagraph?.plainText == "The summary.")
    }

    @Test(arguments: [
        ("Part two: Swift Concurrency", PagePart(label: "Part two", title: "Swift Concurrency")),
        ("Part 3: Distributed actors", PagePart(label: "Part 3", title: "Distributed actors")),
        ("Part one:   Operations and Dispatch  ", PagePart(label: "Part one", title: "Operations and Dispatch")),
        ("Part: no number", nil), ("Parts two: plural", nil), ("Part two and three: two words", nil),
        ("Part two:", nil), ("Part two:   ", nil), ("part two: lower case", nil), ("Part two, Swift", nil),
        ("A paragraph that says Part two: inside", nil), ("Part tw-o: punctuation", nil),
    ] as [(String, PagePart?)])
    func aPartsLineIsPartOneWordAColonAndATitle(line: String, part: PagePart?) async throws {
        #expect(PagePart(line: line) == part)
    }

    @Test("A page draws in the live view when main.swift or a helper names `LiveView.`, wherever in the file, and not otherwise")
    func drawsLiveViewFindsTheWordInAnyFile() async throws {
        let longPrefix = String(repeating: "é let x = 1 // ☕️\n", count: 2_000)
        #expect(Page.SourceTexts(main: "import LessonKit\nLiveView.rows([])\n").drawsLiveView)
        #expect(Page.SourceTexts(main: longPrefix + "LiveView.").drawsLiveView, "at the very end, after multi-byte text")
        #expect(Page.SourceTexts(main: "print(1)\n", helpers: ["", "func show() { LiveView.picture(p) }"]).drawsLiveView)
        #expect(!Page.SourceTexts(main: longPrefix + "LiveView").drawsLiveView, "the name without its dot")
        #expect(!Page.SourceTexts(main: "let liveView. = 1\nLiveVie.w", helpers: ["iveView."]).drawsLiveView)
        #expect(!Page.SourceTexts(main: "").drawsLiveView)
        #expect(Page.SourceTexts.holds("", in: ""), "an empty word is in every text")
    }
}
