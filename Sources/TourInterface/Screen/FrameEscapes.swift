/// Turns frames of cells into the bytes a terminal draws them from: ANSI cursor moves (`ESC [ row ; col H`), a
/// clear (`ESC [ H ESC [ 2 J`) when the size changes, SGR styles (`ESC [ 0 ; 1 ; 2 ; 4 ; 7 ; 38;5;N ; 48;5;N m`) and
/// the characters, sending only the cells that changed since the last frame. `tour notes` draws with it, and a
/// recording of the interface (`--record`) writes what it returns, so a replay shows the frames the room saw.
public struct FrameEscapes {
    /// The terminal colour index (0–255) for a palette colour, nil for the terminal's default.
    private let colorIndex: (PaletteColor?) -> Int16?
    private var previous: CellBuffer?

    public init(colorIndex: @escaping (PaletteColor?) -> Int16?) {
        self.colorIndex = colorIndex
    }

    /// Forgets what is on screen, so the next frame is drawn whole.
    public mutating func invalidate() {
        previous = nil
    }

    /// The escapes and text that take the screen from the last frame to `buffer`; empty when nothing changed.
    public mutating func escapes(for buffer: CellBuffer) -> String {
        let diff = FrameDiff(from: previous, to: buffer)
        var output = diff.clearsFirst ? "\u{1B}[0m\u{1B}[H\u{1B}[2J" : ""
        var cursor: (x: Int, y: Int)? = diff.clearsFirst ? (0, 0) : nil
        var style: CellStyle? = diff.clearsFirst ? .plain : nil
        for change in diff.changes {
            let (x, y, cell) = (change.x, change.y, change.cell)
            if cursor == nil || cursor! != (x, y) { output += "\u{1B}[\(y + 1);\(x + 1)H" }
            if style != cell.style {
                output += sgr(cell.style)
                style = cell.style
            }
            output.append(cell.character)
            // A terminal that wraps at the last column would move the cursor; the next cell moves it anyway.
            let width = max(1, TextWidth.of(cell.character))
            cursor = x + width < buffer.size.width ? (x + width, y) : nil
        }
        if style != nil && style != .plain { output += "\u{1B}[0m" }
        previous = buffer
        return output
    }

    /// The SGR sequence that sets exactly `style`, from a reset.
    private func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        let foreground = style.pictureForeground.map(Int16.init) ?? colorIndex(style.foreground)
        let background = style.pictureBackground.map(Int16.init) ?? colorIndex(style.background)
        if let foreground { codes.append("38;5;\(foreground)") }
        if let background { codes.append("48;5;\(background)") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
