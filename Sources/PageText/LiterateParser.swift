/// Reads a tutorial page, a `main.swift` in Xcode playground markup, into prose blocks and numbered code.
///
/// Prose is in `//:` lines and `/*: … */` blocks; everything else is code. `docs/page-format.md`
/// describes the markup for page authors.
public enum LiterateParser {
    public static func parse(_ source: String) -> PageDocument {
        document(of: PageSource(source))
    }

    private static func document(of source: PageSource) -> PageDocument {
        var builder = BlockBuilder()
        for line in source.lines {
            builder.add(line)
        }
        return PageDocument(blocks: builder.finish())
    }

    /// The document and the knobs of a page's files (its `main.swift` and its helper files' texts), from one reading
    /// of its `main.swift`.
    public static func parse(main: String, helpers: [String]) -> (document: PageDocument, knobs: [KnobDeclaration]) {
        let source = PageSource(main)
        return (document(of: source), knobs(in: source, helperSources: helpers))
    }

    /// The page's title, its first heading; the part it opens, if a paragraph such as `Part two: Swift Concurrency`
    /// comes before its first paragraph; and its first paragraph, reading only as far as the title and first paragraph
    /// go: the list of pages needs no more, and the code below a page's opening prose is most of its text. Each is what
    /// `parse` would give, since a finished block never changes as more lines are read.
    public static func header(_ source: String) -> (title: String?, part: PagePart?, firstParagraph: [InlineSpan]?) {
        var builder = BlockBuilder()
        var reader = PageSource(unread: source)
        var title: String?
        var part: PagePart?
        var firstParagraph: [InlineSpan]?
        var seen = 0
        func look(at blocks: [PageBlock]) {
            for block in blocks[seen...] {
                switch block {
                case .heading(_, let text, _) where title == nil: title = text.plainText
                case .paragraph(let spans, _) where firstParagraph == nil:
                    if part == nil, let opened = PagePart(line: spans.plainText) {
                        part = opened
                    } else {
                        firstParagraph = spans
                    }
                default: break
                }
            }
            seen = blocks.count
        }
        // A line at a time, so the paragraphs after the first in an opening block are not styled for nothing.
        reading: while let lines = reader.readNext() {
            for line in lines {
                builder.add(line)
                look(at: builder.blocks)
                if title != nil && firstParagraph != nil { break reading }
            }
        }
        if title == nil || firstParagraph == nil { look(at: builder.finish()) }
        return (title, part, firstParagraph)
    }
}

/// A page's lines sorted into prose and code, with the tokens of the code.
struct PageSource {
    enum Line: Equatable {
        case prose(String, number: Int)
        case code(String, number: Int)
        /// The edge of a `/*: … */` block, which ends whatever paragraph was open.
        case proseBreak
    }

    private(set) var lines: [Line] = []
    private(set) var codeTokens: [SwiftToken] = []
    private var sourceLines: SourceLines
    /// The 0-based number of the next source line to read.
    private var nextLine = 0
    private var lexer = SwiftLexer()

    /// Reads all of `source`.
    init(_ source: String) {
        self.init(unread: source)
        while readNext() != nil {}
    }

    /// Ready to read `source` a line at a time with `readNext`; nothing is split or read until then.
    init(unread source: String) {
        sourceLines = SourceLines(source)
    }

    /// Reads the next source line, or the whole `/*: … */` block opening on it, and returns the lines it added;
    /// nil at the end of the source.
    mutating func readNext() -> ArraySlice<Line>? {
        guard let text = sourceLines.next() else { return nil }
        let added = lines.count
        let trimmed = text.drop(while: \.isWhitespace)
        if lexer.isAtCodeLevel && trimmed.hasPrefix("//:") {
            lines.append(.prose(String(Self.droppingOneSpace(trimmed.dropFirst(3))), number: nextLine + 1))
            nextLine += 1
        } else if lexer.isAtCodeLevel && trimmed.hasPrefix("/*:") {
            nextLine = readProseBlock(opening: text, number: nextLine)
        } else {
            addCode(String(text), number: nextLine + 1)
            nextLine += 1
        }
        return lines[added...]
    }

    private static func droppingOneSpace(_ text: Substring) -> Substring {
        text.first == " " ? text.dropFirst() : text
    }

    private mutating func addCode(_ text: String, number: Int) {
        lines.append(.code(text, number: number))
        codeTokens += lexer.tokens(in: text, number: number).filter(\.kind.isCode)
    }

    /// Reads the `/*:` block opening on `openingLine`, line `opening` counted from 0, and returns the number of the
    /// line after it.
    ///
    /// Block comments nest in Swift, so the block ends where the nesting does. An unclosed block
    /// runs to the end of the file, as the compiler would read it, and all of it stays prose.
    private mutating func readProseBlock(opening openingLine: Substring, number opening: Int) -> Int {
        var depth = 1
        var pieces: [(text: Substring, number: Int)] = []
        var remainder: Substring = ""
        var index = opening
        var rest = openingLine.drop(while: \.isWhitespace).dropFirst(3)
        while true {
            if let close = Self.closingDelimiter(in: rest, depth: &depth) {
                pieces.append((rest[..<close.lowerBound], index + 1))
                remainder = rest[close.upperBound...]
                break
            }
            pieces.append((rest, index + 1))
            guard let next = sourceLines.next() else { break }
            index += 1
            rest = next
        }
        lines.append(.proseBreak)
        for piece in Self.removingCommonIndentation(pieces) {
            lines.append(.prose(piece.text, number: piece.number))
        }
        lines.append(.proseBreak)
        // Code after `*/` on the closing line keeps that line's number.
        if !remainder.allSatisfy(\.isWhitespace) {
            addCode(String(remainder), number: index + 1)
        }
        return index + 1
    }

    /// Where the `*/` that closes the block is in `text`, if it is. Read in UTF-8 bytes, as the compiler reads them.
    private static func closingDelimiter(in text: Substring, depth: inout Int) -> Range<Substring.Index>? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            guard next < utf8.endIndex else { break }
            if utf8[index] == UInt8(ascii: "/") && utf8[next] == UInt8(ascii: "*") {
                depth += 1
                index = utf8.index(after: next)
            } else if utf8[index] == UInt8(ascii: "*") && utf8[next] == UInt8(ascii: "/") {
                depth -= 1
                if depth == 0 { return index..<utf8.index(after: next) }
                index = utf8.index(after: next)
            } else {
                index = next
            }
        }
        return nil
    }

    /// The text on the `/*:` line loses its leading spaces; the other lines lose the indentation they share.
    private static func removingCommonIndentation(_ pieces: [(text: Substring, number: Int)]) -> [(text: String, number: Int)] {
        let indentedLines = pieces.dropFirst().filter { !$0.text.allSatisfy(\.isWhitespace) }
        let commonIndentation = indentedLines.map { $0.text.prefix(while: \.isWhitespace).count }.min() ?? 0
        return pieces.enumerated().map { offset, piece in
            if offset == 0 { return (String(piece.text.drop(while: \.isWhitespace)), piece.number) }
            if piece.text.allSatisfy(\.isWhitespace) { return ("", piece.number) }
            return (String(piece.text.dropFirst(commonIndentation)), piece.number)
        }
    }
}

/// The lines of a source one at a time, as the compiler numbers them: `\n`, `\r\n` or `\r` ends a line, and a final
/// line break adds no line.
///
/// Found in the UTF-8 bytes: a line break is always a character of its own (`\r\n` is one), so no byte of one is inside
/// another character, and reading bytes skips Unicode's grapheme rules for the whole page.
private struct SourceLines {
    private let source: String
    private let bytes: [UInt8]
    /// The byte the next line starts at.
    private var offset = 0

    init(_ source: String) {
        self.source = source
        bytes = Array(source.utf8)
    }

    mutating func next() -> Substring? {
        guard offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "\r") { end += 1 }
        let utf8 = source.utf8
        let line = source[utf8.index(utf8.startIndex, offsetBy: offset)..<utf8.index(utf8.startIndex, offsetBy: end)]
        let isCRLF = end + 1 < bytes.count && bytes[end] == UInt8(ascii: "\r") && bytes[end + 1] == UInt8(ascii: "\n")
        offset = end + (isCRLF ? 2 : 1)
        return line
    }
}

/// Turns prose lines into headings, paragraphs, list items and callouts, and code lines into runs.
private struct BlockBuilder {
    private enum OpenBlock {
        case paragraph(lines: [String], line: Int)
        case listItem(ordered: Bool, number: Int?, depth: Int, lines: [String], line: Int)
        case callout(kind: CalloutKind, lines: [String], line: Int)
    }

    /// A deep dive being read: the blocks of its body so far, and how far its marker is indented, since the lines
    /// after a blank line belong to it only when indented further.
    private struct OpenDeepDive {
        var markerIndentation: Int
        var line: Int
        var body: [PageBlock] = []
    }

    /// The blocks finished so far, in order; a finished block never changes.
    private(set) var blocks: [PageBlock] = []
    private var openBlock: OpenBlock?
    private var openDeepDive: OpenDeepDive?
    private var codeRun: [SourceLine] = []
    /// The indentation of each enclosing list item, outermost first, which gives a new item its depth.
    private var listIndentations: [Int] = []

    mutating func add(_ line: PageSource.Line) {
        switch line {
        case .code(let text, let number):
            closeDeepDive()
            codeRun.append(SourceLine(number: number, text: text))
        case .proseBreak:
            closeDeepDive()
        case .prose(let text, let number):
            closeCodeRun()
            addProse(text, number: number)
        }
    }

    mutating func finish() -> [PageBlock] {
        closeDeepDive()
        closeCodeRun()
        return blocks
    }

    private mutating func addProse(_ text: String, number: Int) {
        let content = text.trimmingWhitespace()
        let indentation = Self.indentation(of: text)
        if let deepDive = openDeepDive, !content.isEmpty, endsDeepDive(content, indentation: indentation, deepDive) {
            closeDeepDive()
        }
        if content.isEmpty {
            closeOpenBlock()
        } else if let (level, title) = Self.heading(content) {
            closeOpenBlock()
            listIndentations = []
            blocks.append(.heading(level: level, text: InlineMarkup.spans(in: title), line: number))
        } else if Self.isRule(content) {
            closeOpenBlock()
            listIndentations = []
            blocks.append(.rule(line: number))
        } else if let marker = listMarker(startingAt: content) {
            closeOpenBlock()
            startListItem(marker, indentation: indentation, number: number)
        } else if openBlock != nil {
            appendToOpenBlock(content, number: number)
        } else {
            listIndentations = []
            openBlock = .paragraph(lines: [content], line: number)
        }
    }

    /// A deep dive ends at a heading or a rule, and after a blank line or at a list item, at a line indented
    /// no further than its marker. Until a blank line, its text continues as a callout's does.
    private func endsDeepDive(_ content: String, indentation: Int, _ deepDive: OpenDeepDive) -> Bool {
        if Self.heading(content) != nil || Self.isRule(content) { return true }
        let startsBlock = openBlock == nil || listMarker(startingAt: content) != nil
        return startsBlock && indentation <= deepDive.markerIndentation
    }

    /// The list marker `content` starts with, unless it only looks like one: a wrapped sentence such as
    /// "…shipped in" / "2024. Since then…" must not turn into a list, so only `1.` may interrupt a paragraph.
    private func listMarker(startingAt content: String) -> ListMarker? {
        guard let marker = ListMarker(content) else { return nil }
        if case .paragraph = openBlock, marker.ordered, marker.number != 1 { return nil }
        return marker
    }

    private mutating func startListItem(_ marker: ListMarker, indentation: Int, number: Int) {
        // Callouts do not nest: inside a deep dive, `- note:` is an ordinary item.
        if !marker.ordered, openDeepDive == nil, let (kind, body) = Self.callout(marker.text) {
            listIndentations = []
            switch kind {
            case .callout(let kind):
                openBlock = .callout(kind: kind, lines: body.isEmpty ? [] : [body], line: number)
            case .deepDive:
                openDeepDive = OpenDeepDive(markerIndentation: indentation, line: number)
                // The body's first paragraph may start on the marker's line or on the next.
                openBlock = .paragraph(lines: body.isEmpty ? [] : [body], line: number)
            }
            return
        }
        while let last = listIndentations.last, last > indentation { listIndentations.removeLast() }
        if listIndentations.last != indentation { listIndentations.append(indentation) }
        openBlock = .listItem(ordered: marker.ordered, number: marker.number, depth: listIndentations.count - 1,
                              lines: [marker.text], line: number)
    }

    private mutating func appendToOpenBlock(_ content: String, number: Int) {
        switch openBlock {
        case .paragraph(let lines, let line):
            // A deep dive whose marker line has no text starts its first paragraph on this line.
            openBlock = .paragraph(lines: lines + [content], line: lines.isEmpty ? number : line)
        case .listItem(let ordered, let number, let depth, let lines, let line):
            openBlock = .listItem(ordered: ordered, number: number, depth: depth, lines: lines + [content], line: line)
        case .callout(let kind, let lines, let line):
            openBlock = .callout(kind: kind, lines: lines + [content], line: line)
        case nil:
            break
        }
    }

    private mutating func closeOpenBlock() {
        switch openBlock {
        case .paragraph(let lines, let line):
            if !lines.isEmpty { append(.paragraph(Self.spans(lines), line: line)) }
        case .listItem(let ordered, let number, let depth, let lines, let line):
            append(.listItem(ordered: ordered, number: number, depth: depth, text: Self.spans(lines), line: line))
        case .callout(let kind, let lines, let line):
            append(.callout(kind: kind, body: Self.spans(lines), line: line))
        case nil:
            break
        }
        openBlock = nil
    }

    /// A finished block goes into the open deep dive's body, or onto the page.
    private mutating func append(_ block: PageBlock) {
        if openDeepDive != nil {
            openDeepDive?.body.append(block)
        } else {
            blocks.append(block)
        }
    }

    private mutating func closeDeepDive() {
        closeOpenBlock()
        guard let deepDive = openDeepDive else { return }
        openDeepDive = nil
        listIndentations = []
        blocks.append(.deepDive(body: deepDive.body, line: deepDive.line))
    }

    private mutating func closeCodeRun() {
        let firstCode = codeRun.firstIndex { !$0.text.allSatisfy(\.isWhitespace) }
        let lastCode = codeRun.lastIndex { !$0.text.allSatisfy(\.isWhitespace) }
        if let firstCode, let lastCode {
            blocks.append(.code(Array(codeRun[firstCode...lastCode])))
        }
        codeRun = []
    }

    /// Soft-wrapped lines read as one line of text.
    private static func spans(_ lines: [String]) -> [InlineSpan] {
        InlineMarkup.spans(in: lines.joined(separator: " "))
    }

    private static func indentation(of text: String) -> Int {
        text.prefix(while: \.isWhitespace).reduce(0) { width, character in width + (character == "\t" ? 4 : 1) }
    }

    /// `# Title` to `###### Title`; closing hashes, as in `## Title ##`, are dropped.
    private static func heading(_ content: String) -> (level: Int, text: String)? {
        let level = content.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(level) else { return nil }
        let rest = content.dropFirst(level)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingWhitespace()
        let closingHashes = text.reversed().prefix(while: { $0 == "#" }).count
        if closingHashes == text.count {
            text = ""
        } else if closingHashes > 0, text.dropLast(closingHashes).last?.isWhitespace == true {
            text = text.dropLast(closingHashes).trimmingWhitespace()
        }
        return (level, text)
    }

    /// `---`, `***` or `___`, three or more of the same character.
    private static func isRule(_ content: String) -> Bool {
        guard let first = content.first, "-*_".contains(first) else { return false }
        return content.count >= 3 && content.allSatisfy { $0 == first }
    }

    private enum CalloutKeyword {
        case callout(CalloutKind)
        case deepDive
    }

    /// `note: text` or `deep dive: text`: a callout keyword, in any case, then a colon.
    private static func callout(_ itemText: String) -> (CalloutKeyword, String)? {
        guard let colon = itemText.firstIndex(of: ":") else { return nil }
        let keyword = itemText[..<colon].trimmingWhitespace().lowercased()
        let body = itemText[itemText.index(after: colon)...].trimmingWhitespace()
        if keyword == "deep dive" { return (.deepDive, body) }
        guard let kind = CalloutKind(rawValue: keyword) else { return nil }
        return (.callout(kind), body)
    }
}

/// The start of a list item: `- `, `* `, or a number and a dot such as `2. `.
private struct ListMarker {
    let ordered: Bool
    let number: Int?
    let text: String

    init?(_ content: String) {
        if let first = content.first, first == "-" || first == "*" {
            guard content.dropFirst().first == " " else { return nil }
            ordered = false
            number = nil
            text = content.dropFirst(2).trimmingWhitespace()
            return
        }
        let digits = content.prefix { $0.isASCII && $0.isNumber }
        let afterDigits = content.dropFirst(digits.count)
        guard (1...9).contains(digits.count), afterDigits.hasPrefix(". "), let value = Int(digits) else { return nil }
        ordered = true
        number = value
        text = afterDigits.dropFirst(2).trimmingWhitespace()
    }
}
