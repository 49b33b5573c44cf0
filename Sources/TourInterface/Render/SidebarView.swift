/// The list of pages, in order, under their parts' titles, each with the state of its last run and, for a page with exercises, whether they are
/// done: a box in the full layout, a strip of numbers on the top row of the compact one.
enum SidebarView {
    static func drawList(_ model: TourModel, in box: Rect, into buffer: inout CellBuffer) {
        buffer.drawBox(box, title: "Pages", focused: false, glyphs: model.glyphs)
        let inner = box.inside
        for (row, entry) in model.sidebarRows.enumerated() where row < inner.height {
            let y = inner.y + row
            switch entry {
            case .part(let title):
                buffer.write(TextWidth.padded(title, to: inner.width, ellipsis: model.glyphs.ellipsis), x: inner.x, y: y,
                             style: CellStyle(foreground: .muted, bold: true), clip: inner)
            case .page(let index):
                drawPageRow(model, index: index, y: y, inner: inner, into: &buffer)
            }
        }
    }

    private static func drawPageRow(_ model: TourModel, index: Int, y: Int, inner: Rect, into buffer: inout CellBuffer) {
        let page = model.pages[index]
        let isCurrent = index == model.current
        let status = page.status
        let marker = isCurrent ? "\(model.glyphs.pointer)" : " "
        // The title stays, so the list still says where each page is; a build's state shows in its glyph here,
        // and in words in the status line and the output.
        let marks = page.exercise == nil ? 2 : 3
        let label = TextWidth.padded("\(marker)\(page.page.number) \(page.page.title)", to: inner.width - marks, ellipsis: model.glyphs.ellipsis)
        buffer.write(label, x: inner.x, y: y, style: CellStyle(foreground: isCurrent ? .accent : nil, bold: isCurrent, reverse: isCurrent), clip: inner)
        if let exercise = page.exercise { drawExerciseMark(exercise, x: inner.maxX - 3, y: y, glyphs: model.glyphs, clip: inner, into: &buffer) }
        buffer.write(" \(status.glyph(model.glyphs))", x: inner.maxX - 2, y: y,
                     style: CellStyle(foreground: status.color, bold: status != .notRun), clip: inner)
    }

    static func drawStrip(_ model: TourModel, in row: Rect, into buffer: inout CellBuffer) {
        let columns = model.stripColumns
        for (index, page) in model.pages.enumerated() {
            let range = columns[index]
            if index > 0, range.lowerBound > columns[index - 1].upperBound {
                // The gap before a part's first page.
                buffer.write(String(model.glyphs.vertical), x: range.lowerBound - 1, y: row.y,
                             style: CellStyle(foreground: .muted), clip: row)
            }
            let isCurrent = index == model.current
            buffer.write(" \(page.page.number)", x: range.lowerBound, y: row.y,
                         style: CellStyle(foreground: isCurrent ? .accent : nil, bold: isCurrent, reverse: isCurrent), clip: row)
            buffer.write("\(page.status.glyph(model.glyphs)) ", x: range.upperBound - 2, y: row.y,
                         style: CellStyle(foreground: page.status.color, bold: true, reverse: isCurrent), clip: row)
            // In the space that ends the entry, so the entries keep their columns for the mouse.
            if let exercise = page.exercise {
                drawExerciseMark(exercise, x: range.upperBound - 1, y: row.y, glyphs: model.glyphs, clip: row, into: &buffer)
            }
        }
        let x = (columns.last?.upperBound ?? 0) + 1
        buffer.write("n/p: other pages", x: x, y: row.y, style: CellStyle(foreground: .muted), clip: row)
    }

    /// ● when the page's prediction is answered and its challenge passed, ○ until then.
    private static func drawExerciseMark(_ exercise: PageExerciseState, x: Int, y: Int, glyphs: Glyphs, clip: Rect,
                                         into buffer: inout CellBuffer) {
        let (mark, style) = exercise.isDone ? (glyphs.exercisesDone, CellStyle(foreground: .success, bold: true))
            : (glyphs.exercisesOpen, CellStyle(foreground: .muted))
        buffer.write(String(mark), x: x, y: y, style: style, clip: clip)
    }
}
