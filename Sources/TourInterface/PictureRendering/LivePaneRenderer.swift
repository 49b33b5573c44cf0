import TourCore
import PageProtocol

/// Lays out a whole live view pane as cells: the frame centred, the list with a thumbnail and caption per row, or
/// one row of the list at the pane's full size.
///
/// The result is exactly the pane's size, so the interface copies it cell by cell into its window, mapping each
/// cell's picture colours to a pair with `ColorPairCache`. Redraw it whenever the state's `version` or the pane's
/// size changes.
public enum LivePaneRenderer {
    /// What a row without its picture shows in the thumbnail's place.
    public static let placeholder: Character = "░"
    /// The grey (xterm 240) a placeholder is drawn in on 256-colour terminals.
    static let placeholderColor: UInt8 = 240

    /// What the pane shows in place of a row's full-size pictures when the page sent none.
    public static let noFullSizeText = "This row has no photo yet."

    /// `fullSizeRow` draws that row of the list (clamped to the list) at the pane's full size instead of the list.
    public static func render(_ state: LiveViewState, width: Int, height: Int, depth: PictureColorDepth,
                              fullSizeRow: Int? = nil) -> CellPicture {
        var canvas = Canvas(width: max(0, width), height: max(0, height))
        if let fullSizeRow, !state.rows.isEmpty {
            drawFullSize(state.rows[min(max(fullSizeRow, 0), state.rows.count - 1)], on: &canvas, depth: depth)
        } else if !state.rows.isEmpty {
            drawRows(state.rows, on: &canvas, depth: depth)
        } else if let frame = state.frame {
            let picture = HalfBlockRenderer.render(frame, width: canvas.width, height: canvas.height, depth: depth)
            canvas.draw(picture, x: (canvas.width - picture.width) / 2, y: (canvas.height - picture.height) / 2)
        }
        return CellPicture(width: canvas.width, height: canvas.height, cells: canvas.cells)
    }

    /// Rows share the height equally (at least one line each, those that do not fit are left out); each shows a
    /// 4:3 thumbnail on the left, the photos' shape, and its caption beside it on its first line.
    private static func drawRows(_ rows: [LiveViewState.Row], on canvas: inout Canvas, depth: PictureColorDepth) {
        let rowHeight = max(1, canvas.height / rows.count)
        // A cell holds two pixel rows and is one pixel wide: 4:3 needs 8/3 columns per line.
        let thumbnailWidth = min(canvas.width / 2, rowHeight * 8 / 3)
        for (index, row) in rows.enumerated() {
            let top = index * rowHeight
            guard top + rowHeight <= canvas.height else { break }
            if let picture = row.picture {
                let cells = HalfBlockRenderer.render(picture, width: thumbnailWidth, height: rowHeight, depth: depth)
                canvas.draw(cells, x: (thumbnailWidth - cells.width) / 2, y: top + (rowHeight - cells.height) / 2)
            } else {
                let shade = Cell.picture(depth == .ascii ? "." : placeholder, foreground: depth == .colors256 ? placeholderColor : nil)
                for y in top..<top + rowHeight {
                    for x in 0..<thumbnailWidth { canvas[x, y] = shade }
                }
            }
            let captionX = thumbnailWidth + (thumbnailWidth > 0 ? 1 : 0)
            canvas.write(row.caption, x: captionX, y: top)
        }
    }

    /// The row's caption on the first line, then its full-size pictures, each under its own caption, stacked or side
    /// by side, whichever draws them larger.
    private static func drawFullSize(_ row: LiveViewState.Row, on canvas: inout Canvas, depth: PictureColorDepth) {
        canvas.write(row.caption, x: 0, y: 0)
        let parts = row.fullSize
        guard !parts.isEmpty else {
            canvas.write(noFullSizeText, x: 0, y: 2)
            return
        }
        let shape = parts.lazy.compactMap(\.picture).first.map { ($0.width, $0.height) } ?? (4, 3)
        // Each part takes a caption line above its picture; side by side, one blank column between parts.
        let stackedCell = (width: canvas.width, height: (canvas.height - 1) / parts.count - 1)
        let besideCell = (width: (canvas.width - (parts.count - 1)) / parts.count, height: canvas.height - 2)
        func pixels(_ cell: (width: Int, height: Int)) -> Int {
            let size = HalfBlockRenderer.pixelSize(ofFrameWidth: shape.0, height: shape.1, inPaneWidth: cell.width, height: cell.height)
            return size.width * size.height
        }
        let stacked = pixels(stackedCell) >= pixels(besideCell)
        let cell = stacked ? stackedCell : besideCell
        guard cell.width > 0, cell.height > 0 else { return }
        for (index, part) in parts.enumerated() {
            let x = stacked ? 0 : index * (cell.width + 1)
            let y = stacked ? 1 + index * (cell.height + 1) : 1
            canvas.write(part.caption, x: x, y: y, width: cell.width)
            guard let picture = part.picture else { continue }
            let cells = HalfBlockRenderer.render(picture, width: cell.width, height: cell.height, depth: depth)
            canvas.draw(cells, x: x + (cell.width - cells.width) / 2, y: y + 1)
        }
    }

    /// A grid of cells that drawing outside of is clipped.
    private struct Canvas {
        let width: Int
        let height: Int
        var cells: [Cell]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            cells = Array(repeating: .blank, count: width * height)
        }

        subscript(x: Int, y: Int) -> Cell {
            get { cells[y * width + x] }
            set { if x >= 0, x < width, y >= 0, y < height { cells[y * width + x] = newValue } }
        }

        mutating func draw(_ picture: CellPicture, x: Int, y: Int) {
            for row in 0..<picture.height {
                for column in 0..<picture.width { self[x + column, y + row] = picture[column, row] }
            }
        }

        /// Writes `text` from (`x`, `y`), cut to `width` columns or the width left; a double-width character is
        /// followed by an empty continuation cell, as `CellBuffer.write` does.
        mutating func write(_ text: String, x: Int, y: Int, width limit: Int? = nil) {
            var column = x
            for character in TextWidth.truncated(TerminalText.sanitized(text), to: min(limit ?? width, width - x)) {
                let columns = TextWidth.of(character)
                guard columns > 0 else { continue }
                self[column, y] = Cell(character)
                if columns == 2 { self[column + 1, y] = .continuation }
                column += columns
            }
        }
    }
}
