extension CellBuffer {
    /// Draws a box around `rect` with `title` in its top border; the focused pane's box stands out.
    mutating func drawBox(_ rect: Rect, title: String, focused: Bool, glyphs: Glyphs) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let border = focused ? CellStyle(foreground: .accent, bold: true) : CellStyle(foreground: .muted)
        for x in (rect.x + 1)..<(rect.maxX - 1) {
            set(Cell(glyphs.horizontal, border), x: x, y: rect.y)
            set(Cell(glyphs.horizontal, border), x: x, y: rect.maxY - 1)
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            set(Cell(glyphs.vertical, border), x: rect.x, y: y)
            set(Cell(glyphs.vertical, border), x: rect.maxX - 1, y: y)
        }
        set(Cell(glyphs.topLeft, border), x: rect.x, y: rect.y)
        set(Cell(glyphs.topRight, border), x: rect.maxX - 1, y: rect.y)
        set(Cell(glyphs.bottomLeft, border), x: rect.x, y: rect.maxY - 1)
        set(Cell(glyphs.bottomRight, border), x: rect.maxX - 1, y: rect.maxY - 1)
        if !title.isEmpty {
            drawTitle(title, x: rect.x + 2, y: rect.y, focused: focused, limit: rect.maxX - 2, glyphs: glyphs)
        }
    }

    /// A label in a box's top border: reversed when its pane has the focus.
    @discardableResult
    mutating func drawTitle(_ title: String, x: Int, y: Int, focused: Bool, limit: Int, glyphs: Glyphs) -> Int {
        let style = focused ? CellStyle(foreground: .accent, bold: true, reverse: true) : CellStyle(bold: true)
        let text = TextWidth.truncated(" \(title) ", to: limit - x, ellipsis: glyphs.ellipsis)
        return write(text, x: x, y: y, style: style)
    }

    /// A note such as " 40% " at the right end of a box's bottom border, cut to fit inside its corners.
    mutating func writeInBottomBorder(_ note: String, of box: Rect, color: PaletteColor) {
        let text = TextWidth.truncated(note, to: box.width - 4)
        write(text, x: box.maxX - 2 - TextWidth.of(text), y: box.maxY - 1, style: CellStyle(foreground: color))
    }

    /// Writes `text` in `rect`, wrapped at spaces, and returns the number of rows used.
    @discardableResult
    mutating func writeWrapped(_ text: String, in rect: Rect, style: CellStyle = .plain) -> Int {
        let characters = text.map { StyledCharacter(character: $0, style: style, breaksLine: true, link: nil) }
        let lines = InlineWrapper.wrap(characters, width: rect.width)
        for (index, line) in lines.prefix(rect.height).enumerated() {
            write(line.cells, x: rect.x, y: rect.y + index, clip: rect)
        }
        return min(lines.count, rect.height)
    }
}
