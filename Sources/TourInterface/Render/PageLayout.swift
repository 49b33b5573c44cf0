import TourCore
import PageProtocol

/// One row of a laid-out page.
public struct PageRow: Equatable, Sendable {
    /// A clickable page link, by the columns it covers on its row.
    public struct Link: Equatable, Sendable {
        public var columns: Range<Int>
        public var target: String
    }

    public var cells: [Cell]
    /// On the first row of a code line: its line number in `main.swift`, where its result belongs.
    public var sourceLine: Int?
    /// Code rows have the results column beside them.
    public var isCode = false
    public var links: [Link] = []
    /// On every row of a deep dive (one row while it is folded): the line of its `- deep dive:` marker, which names it.
    public var deepDive: Int?
    /// The row a click opens or closes its deep dive from: the folded row, or an open deep dive's top border.
    public var togglesDeepDive = false

    /// The row's characters, trailing spaces removed.
    public var text: String {
        var text = String(cells.filter { !$0.isContinuation }.map(\.character))
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// A page's document laid out for a width: prose wrapped, callouts boxed, deep dives folded unless opened,
/// code numbered and coloured, with room kept on the right of code for the results column.
public struct PageLayout: Sendable {
    public let width: Int
    public internal(set) var rows: [PageRow] = []
    /// Where the page's exercises are among the rows, when they are shown (`withExercises`).
    public internal(set) var exerciseRows: ExerciseRows?
    /// The row each of the document's blocks starts on, in block order (the presenter reveals rows block by block).
    public private(set) var blockStarts: [Int] = []
    /// Columns for a code line's number and the space after it.
    public let gutterWidth: Int
    /// Columns code takes before the results column.
    public let codeWidth: Int
    /// Where the results column starts (after a one-column separator), and how wide it is.
    public let resultsColumn: Int
    public let resultsWidth: Int

    private let glyphs: Glyphs
    /// The deep dives shown in full, by the line of their marker; the others take one row.
    private let openDeepDives: Set<Int>
    /// Whether `- speaker:` callouts are laid out; a learner never sees them (`tour --notes` shows them).
    private let showsSpeakerNotes: Bool
    /// Whether the keys that act on the page are taught in it (a page link's `(n)`, a deep dive's `o opens`): not on
    /// stage, where the room reads the page and only the speaker presses keys.
    private let showsKeys: Bool

    /// `showsResults`: keep room beside code for each line's result; a program that is only read (the reference
    /// solution) has none. `showsSpeakerNotes`: lay out the presenter's `- speaker:` callouts, left out otherwise.
    public init(document: PageDocument, width: Int, glyphs: Glyphs, openDeepDives: Set<Int> = [], showsResults: Bool = true,
                showsSpeakerNotes: Bool = false, showsKeys: Bool = true) {
        self.width = max(10, width)
        self.glyphs = glyphs
        self.openDeepDives = openDeepDives
        self.showsSpeakerNotes = showsSpeakerNotes
        self.showsKeys = showsKeys
        let lastLine = document.codeLines.last?.number ?? 99
        gutterWidth = String(lastLine).count + 1
        resultsWidth = showsResults && width >= 50 ? min(28, max(14, width / 5)) : 0
        codeWidth = max(8, self.width - gutterWidth - (resultsWidth > 0 ? resultsWidth + 1 : 0))
        resultsColumn = gutterWidth + codeWidth + 1
        layOut(document.blocks)
    }

    private mutating func layOut(_ blocks: [PageBlock]) {
        var previous: PageBlock?
        for block in blocks {
            if case .callout(.speaker, _, _) = block, !showsSpeakerNotes { continue }
            if let previous, needsBlankLine(between: previous, and: block) { rows.append(PageRow(cells: [])) }
            blockStarts.append(rows.count)
            switch block {
            case .heading(let level, let text, _):
                layOutHeading(level: level, text: text)
            case .paragraph(let text, _):
                appendProse(InlineWrapper.wrap(InlineWrapper.characters(of: text, base: .plain, showsKeys: showsKeys), width: width))
            case .listItem(let ordered, let number, let depth, let text, _):
                layOutListItem(ordered: ordered, number: number, depth: depth, text: text)
            case .callout(let kind, let body, _):
                layOutCallout(kind: kind, body: body)
            case .deepDive(let body, let line):
                if openDeepDives.contains(line) {
                    layOutOpenDeepDive(body, line: line)
                } else {
                    layOutFoldedDeepDive(body, line: line)
                }
            case .rule:
                rows.append(PageRow(cells: Array(repeating: Cell(glyphs.horizontal, CellStyle(foreground: .muted)), count: width)))
            case .code(let lines):
                layOutCode(lines)
            }
            previous = block
        }
    }

    private func needsBlankLine(between previous: PageBlock, and next: PageBlock) -> Bool {
        if case .listItem = previous, case .listItem = next { return false }
        return true
    }

    private mutating func appendProse(_ lines: [WrappedLine]) {
        rows += lines.map { PageRow(cells: $0.cells, links: $0.links) }
    }

    private mutating func layOutHeading(level: Int, text: [InlineSpan]) {
        let style = CellStyle(foreground: level <= 2 ? .heading : nil, bold: true)
        let lines = InlineWrapper.wrap(InlineWrapper.characters(of: text, base: style, showsKeys: showsKeys), width: width)
        appendProse(lines)
        if level == 1 {
            let length = min(width, lines.map(\.cells.count).max() ?? 0)
            rows.append(PageRow(cells: Array(repeating: Cell(glyphs.horizontal, CellStyle(foreground: .heading)), count: length)))
        }
    }

    private mutating func layOutListItem(ordered: Bool, number: Int?, depth: Int, text: [InlineSpan]) {
        let indent = min(depth * 2, width / 3)
        let marker = ordered ? "\(number ?? 1). " : "\(glyphs.bullet) "
        let lines = InlineWrapper.wrap(InlineWrapper.characters(of: text, base: .plain, showsKeys: showsKeys),
                                       width: width, firstIndent: indent + marker.count, indent: indent + marker.count)
        for (index, var line) in lines.enumerated() {
            if index == 0 {
                for (offset, character) in marker.enumerated() {
                    line.cells[indent + offset] = Cell(character, CellStyle(foreground: .accent))
                }
            }
            rows.append(PageRow(cells: line.cells, links: line.links))
        }
    }

    /// A callout as a box labelled with its kind, in the kind's colour.
    private mutating func layOutCallout(kind: CalloutKind, body: [InlineSpan]) {
        let color = Self.color(of: kind)
        let frame = CellStyle(foreground: color)
        let label = " " + kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst() + " "
        var top = [Cell(glyphs.topLeft, frame), Cell(glyphs.horizontal, frame)]
        top += label.map { Cell($0, CellStyle(foreground: color, bold: true)) }
        top += Array(repeating: Cell(glyphs.horizontal, frame), count: max(0, width - top.count - 1))
        top.append(Cell(glyphs.topRight, frame))
        rows.append(PageRow(cells: top))

        let lines = InlineWrapper.wrap(InlineWrapper.characters(of: body, base: .plain, showsKeys: showsKeys),
                                       width: width - 2, firstIndent: 2, indent: 2)
        for line in lines {
            var cells = line.cells
            cells[0] = Cell(glyphs.vertical, frame)
            cells += Array(repeating: .blank, count: max(0, width - 1 - cells.count))
            cells.append(Cell(glyphs.vertical, frame))
            rows.append(PageRow(cells: cells, links: line.links))
        }
        rows.append(PageRow(cells: bottomBorder(frame)))
    }

    /// The bottom edge of a box as wide as the page.
    private func bottomBorder(_ frame: CellStyle) -> [Cell] {
        [Cell(glyphs.bottomLeft, frame)] + Array(repeating: Cell(glyphs.horizontal, frame), count: max(0, width - 2))
            + [Cell(glyphs.bottomRight, frame)]
    }

    /// A folded deep dive: one row with its first sentence and the key that opens it.
    private mutating func layOutFoldedDeepDive(_ body: [PageBlock], line: Int) {
        let color = CellStyle(foreground: .deepDive, bold: true)
        let label = "\(glyphs.pointer) Deep dive: "
        let hint = showsKeys ? " o opens" : ""
        let room = max(0, width - label.count - hint.count)
        let summary = TextWidth.truncated(TerminalText.sanitized(Self.summary(of: body)), to: room, ellipsis: glyphs.ellipsis)
        var cells = label.map { Cell($0, color) }
        cells += InlineWrapper.wrap(InlineWrapper.characters(of: [.text(summary)], base: .plain), width: max(1, room)).first?.cells ?? []
        cells += Array(repeating: .blank, count: max(0, width - cells.count - hint.count))
        cells += hint.map { Cell($0, CellStyle(foreground: .muted)) }
        rows.append(PageRow(cells: cells, deepDive: line, togglesDeepDive: true))
    }

    /// An open deep dive: its paragraphs and items, laid out as a page of their own, in a box whose top border says how to close it.
    private mutating func layOutOpenDeepDive(_ body: [PageBlock], line: Int) {
        let frame = CellStyle(foreground: .deepDive)
        let label = " Deep dive "
        let hint = showsKeys ? " o closes " : ""
        var top = [Cell(glyphs.topLeft, frame), Cell(glyphs.horizontal, frame)]
        top += label.map { Cell($0, CellStyle(foreground: .deepDive, bold: true)) }
        top += Array(repeating: Cell(glyphs.horizontal, frame), count: max(0, width - top.count - hint.count - 2))
        top += hint.map { Cell($0, CellStyle(foreground: .muted)) }
        top += [Cell(glyphs.horizontal, frame), Cell(glyphs.topRight, frame)]
        rows.append(PageRow(cells: top, deepDive: line, togglesDeepDive: true))

        let inner = PageLayout(document: PageDocument(blocks: body), width: width - 4, glyphs: glyphs, showsKeys: showsKeys)
        for row in inner.rows {
            var cells = [Cell(glyphs.vertical, frame), .blank] + row.cells
            cells += Array(repeating: .blank, count: max(0, width - 1 - cells.count))
            cells.append(Cell(glyphs.vertical, frame))
            let links = row.links.map { PageRow.Link(columns: ($0.columns.lowerBound + 2)..<($0.columns.upperBound + 2), target: $0.target) }
            rows.append(PageRow(cells: cells, links: links, deepDive: line))
        }
        rows.append(PageRow(cells: bottomBorder(frame), deepDive: line))
    }

    /// What a folded deep dive says about itself: the first sentence of its first paragraph or item.
    static func summary(of body: [PageBlock]) -> String {
        let text: String
        switch body.first {
        case .paragraph(let spans, _)?, .listItem(_, _, _, let spans, _)?: text = spans.plainText
        default: text = ""
        }
        let ends = [". ", "? ", "! "].compactMap { text.range(of: $0)?.lowerBound }
        guard let end = ends.min() else { return text }
        return String(text[...end])
    }

    static func color(of kind: CalloutKind) -> PaletteColor {
        switch kind {
        case .note: .note
        case .important: .important
        case .experiment: .experiment
        case .example: .example
        case .speaker: .note
        }
    }

    /// Numbered, coloured code; a line longer than the code column continues on the next row behind a marker.
    private mutating func layOutCode(_ lines: [SourceLine]) {
        var highlighter = SwiftHighlighter()
        let shade = PaletteColor.codeBackground
        for line in lines {
            let text = TerminalText.sanitized(line.text)
            let colors = highlighter.colors(of: text)
            let characters = Array(text)
            var start = 0
            var first = true
            repeat {
                let end = Self.breakPoint(in: characters, from: start, width: codeWidth)
                var cells: [Cell]
                if first {
                    let number = String(line.number)
                    cells = (String(repeating: " ", count: gutterWidth - 1 - number.count) + number + " ")
                        .map { Cell($0, CellStyle(foreground: .muted, background: shade)) }
                } else {
                    cells = Array(repeating: Cell(" ", CellStyle(background: shade)), count: gutterWidth - 2)
                    cells += [Cell(glyphs.continuation, CellStyle(foreground: .muted, background: shade)), Cell(" ", CellStyle(background: shade))]
                }
                for index in start..<end {
                    cells.append(Cell(characters[index], CellStyle(foreground: colors[index], background: shade)))
                }
                cells += Array(repeating: Cell(" ", CellStyle(background: shade)), count: max(0, gutterWidth + codeWidth - cells.count))
                rows.append(PageRow(cells: cells, sourceLine: first ? line.number : nil, isCode: true))
                start = end
                first = false
            } while start < characters.count
        }
    }

    /// Where a row of code or output starting at `start` should end: at a space in its last third if there is one.
    static func breakPoint(in characters: [Character], from start: Int, width: Int) -> Int {
        guard characters.count - start > width else { return characters.count }
        let hardEnd = start + width
        if let space = characters[(start + width * 2 / 3)..<hardEnd].lastIndex(of: " ") { return space + 1 }
        return hardEnd
    }
}
