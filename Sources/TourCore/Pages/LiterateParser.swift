/// Reads a tutorial page, a `main.swift` in Xcode playground markup, into prose blocks and numbered code.
///
/// Prose is in `//:` lines and `/*: … */` blocks; everything else is code. `docs/page-format.md`
/// describes the markup for page authors.
public enum LiterateParser {
    public static func parse(_ source: String) -> PageDocument {
        var builder = BlockBuilder()
        for line in PageSource(source).lines {
            builder.add(line)
        }
        return PageDocument(blocks: builder.finish())
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

    init(_ source: String) {
        let sourceLines = Self.split(source)
        var lexer = SwiftLexer()
        var index = 0
        while index < sourceLines.count {
            let text = sourceLines[index]
            let trimmed = text.drop(while: \.isWhitespace)
            if lexer.isAtCodeLevel && trimmed.hasPrefix("//:") {
                lines.append(.prose(String(Self.droppingOneSpace(trimmed.dropFirst(3))), number: index + 1))
                index += 1
            } else if lexer.isAtCodeLevel && trimmed.hasPrefix("/*:") {
                index = readProseBlock(sourceLines, opening: index, lexer: &lexer)
            } else {
                addCode(text, number: index + 1, lexer: &lexer)
                index += 1
            }
        }
    }

    /// Lines as the compiler numbers them: `\n`, `\r\n` or `\r` ends a line, and a final line break adds no line.
    private static func split(_ source: String) -> [String] {
        // `\r\n` is a single `Character`, so splitting on `\n` alone would miss it.
        var lines = source.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    private static func droppingOneSpace(_ text: Substring) -> Substring {
        text.first == " " ? text.dropFirst() : text
    }

    private mutating func addCode(_ text: String, number: Int, lexer: inout SwiftLexer) {
        lines.append(.code(text, number: number))
        codeTokens += lexer.tokens(in: text, number: number).filter(\.kind.isCode)
    }

    /// Reads the `/*:` block opening at line `opening` and returns the index of the line after it.
    ///
    /// Block comments nest in Swift, so the block ends where the nesting does. An unclosed block
    /// runs to the end of the file, as the compiler would read it, and all of it stays prose.
    private mutating func readProseBlock(_ sourceLines: [String], opening: Int, lexer: inout SwiftLexer) -> Int {
        var depth = 1
        var pieces: [(text: Substring, number: Int)] = []
        var remainder: Substring = ""
        var index = opening
        var rest = sourceLines[opening].drop(while: \.isWhitespace).dropFirst(3)
        while true {
            if let close = Self.closingDelimiter(in: rest, depth: &depth) {
                pieces.append((rest[..<close.lowerBound], index + 1))
                remainder = rest[close.upperBound...]
                break
            }
            pieces.append((rest, index + 1))
            index += 1
            guard index < sourceLines.count else { break }
            rest = sourceLines[index][...]
        }
        lines.append(.proseBreak)
        for piece in Self.removingCommonIndentation(pieces) {
            lines.append(.prose(piece.text, number: piece.number))
        }
        lines.append(.proseBreak)
        // Code after `*/` on the closing line keeps that line's number.
        if !remainder.allSatisfy(\.isWhitespace) {
            addCode(String(remainder), number: index + 1, lexer: &lexer)
        }
        return index + 1
    }

    private static func closingDelimiter(in text: Substring, depth: inout Int) -> Range<Substring.Index>? {
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            guard next < text.endIndex else { break }
            if text[index] == "/" && text[next] == "*" {
                depth += 1
                index = text.index(after: next)
            } else if text[index] == "*" && text[next] == "/" {
                depth -= 1
                if depth == 0 { return index..<text.index(after: next) }
                index = text.index(after: next)
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

    private var blocks: [PageBlock] = []
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
        let digits = content.prefix(while: \.isASCII).prefix(while: \.isNumber)
        let afterDigits = content.dropFirst(digits.count)
        guard (1...9).contains(digits.count), afterDigits.hasPrefix(". "), let value = Int(digits) else { return nil }
        ordered = true
        number = value
        text = afterDigits.dropFirst(2).trimmingWhitespace()
    }
}
