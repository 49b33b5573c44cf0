import TourCore
import PageProtocol

/// One character of prose on its way to the screen, with its style and the link it belongs to.
struct StyledCharacter {
    var character: Character
    var style: CellStyle
    /// Spaces inside inline `code` do not break a line, so `trace("name")` stays in one piece where it fits.
    var breaksLine: Bool
    var link: String?
}

/// A laid-out line of prose: its cells and the columns of any link on it.
struct WrappedLine {
    var cells: [Cell] = []
    var links: [PageRow.Link] = []
}

/// Turns inline spans into styled characters and wraps them to a width, breaking at spaces.
enum InlineWrapper {
    /// The styled characters of `spans`, on top of `base` (the style of the block they are in). `showsKeys`: a page
    /// link is followed by the key that does the same (`(n)`); on stage the room is not taught the speaker's keys.
    static func characters(of spans: [InlineSpan], base: CellStyle, showsKeys: Bool = true) -> [StyledCharacter] {
        var result: [StyledCharacter] = []
        func append(_ text: String, _ style: CellStyle, breaks: Bool = true, link: String? = nil) {
            for character in TerminalText.sanitized(text) {
                result.append(StyledCharacter(character: character, style: style, breaksLine: breaks || character != " ", link: link))
            }
        }
        for span in spans {
            switch span {
            case .text(let text):
                append(text, base)
            case .code(let text):
                var style = base
                style.foreground = .inlineCode
                append(text, style, breaks: false)
            case .emphasis(let text):
                var style = base
                style.underline = true
                append(text, style)
            case .strong(let text):
                var style = base
                style.bold = true
                append(text, style)
            case .link(let text, let target):
                var style = base
                style.foreground = .link
                style.underline = true
                append(text, style, link: target)
                if showsKeys, let key = pageKey(for: target) {
                    var hint = base
                    hint.dim = true
                    append(" (\(key))", hint, breaks: false, link: target)
                }
            }
        }
        return result
    }

    /// The key that does what a page link does, taught beside the link.
    static func pageKey(for target: String) -> String? {
        switch target {
        case "@next": "n"
        case "@previous": "p"
        default: nil
        }
    }

    /// `characters` wrapped to `width` columns; the first line starts after `firstIndent` columns and
    /// the rest after `indent`, both left blank for the caller to fill (bullets, box borders).
    static func wrap(_ characters: [StyledCharacter], width: Int, firstIndent: Int = 0, indent: Int = 0) -> [WrappedLine] {
        let words = splitIntoWords(characters)
        var lines: [WrappedLine] = []
        var line = WrappedLine(cells: Array(repeating: .blank, count: firstIndent))
        var lineWidth = firstIndent
        var lineHasWords = false

        func startLine() {
            lines.append(line)
            line = WrappedLine(cells: Array(repeating: .blank, count: indent))
            lineWidth = indent
            lineHasWords = false
        }
        func place(_ word: ArraySlice<StyledCharacter>) {
            for character in word {
                let characterWidth = max(1, TextWidth.of(character.character))
                if lineWidth + characterWidth > width && lineHasWords { startLine() }
                let column = line.cells.count
                line.cells.append(Cell(character.character, character.style))
                if characterWidth == 2 { line.cells.append(.continuation) }
                lineWidth += characterWidth
                lineHasWords = true
                if let target = character.link { addLinkColumn(column, target: target, to: &line) }
            }
        }

        for word in words {
            let wordWidth = word.reduce(0) { $0 + max(1, TextWidth.of($1.character)) }
            let space = lineHasWords ? 1 : 0
            if lineHasWords && lineWidth + space + wordWidth > width {
                startLine()
            } else if lineHasWords {
                let before = word.first!
                line.cells.append(Cell(" ", before.link == nil ? before.style.withoutUnderline : before.style))
                if let target = before.link, line.links.last?.target == target { addLinkColumn(line.cells.count - 1, target: target, to: &line) }
                lineWidth += 1
            }
            place(word)
        }
        if lineHasWords || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Runs of characters between breaking spaces.
    private static func splitIntoWords(_ characters: [StyledCharacter]) -> [ArraySlice<StyledCharacter>] {
        var words: [ArraySlice<StyledCharacter>] = []
        var start: Int?
        for (index, character) in characters.enumerated() {
            if character.character == " " && character.breaksLine {
                if let wordStart = start { words.append(characters[wordStart..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let wordStart = start { words.append(characters[wordStart..<characters.count]) }
        return words
    }

    private static func addLinkColumn(_ column: Int, target: String, to line: inout WrappedLine) {
        if let last = line.links.indices.last, line.links[last].target == target, line.links[last].columns.upperBound >= column {
            line.links[last].columns = line.links[last].columns.lowerBound..<(column + 1)
        } else {
            line.links.append(PageRow.Link(columns: column..<(column + 1), target: target))
        }
    }
}

extension CellStyle {
    var withoutUnderline: CellStyle {
        var style = self
        style.underline = false
        return style
    }
}
