import TourCore

/// The boxes the exercises draw over the panes: the prediction asked before a run, and the reference solution.
extension Overlays {
    /// The question, its choices, and the keys that answer it or skip it.
    static func drawPrediction(_ model: TourModel, page index: Int, into buffer: inout CellBuffer) {
        guard let prediction = model.pages[index].exercise?.prediction else { return }
        let width = min(buffer.size.width - 4, 76)
        let textWidth = width - 6
        var rows = ExerciseBlockView.wrapped(ExerciseBlockView.spans(prediction.question, style: CellStyle(bold: true)), width: textWidth)
        rows.append(PageRow(cells: []))
        for choice in prediction.choices {
            rows += ExerciseBlockView.wrapped([(" \(choice.key)  ", ExerciseBlockView.keys)]
                                                  + ExerciseBlockView.spans(choice.text, style: .plain),
                                              width: textWidth, hanging: 4)
        }
        rows.append(PageRow(cells: []))
        let keys = prediction.choices.map(\.key)
        rows += ExerciseBlockView.wrapped([(TourModel.listed(keys), ExerciseBlockView.keys), (" answers and runs the page; ", .plain),
                                           ("r", ExerciseBlockView.keys), (" runs it without answering; ", .plain),
                                           ("Esc", ExerciseBlockView.keys), (" runs nothing.", .plain)], width: textWidth)
        drawQuestion(rows, width: width, title: "Predict, then run page \(model.pages[index].page.number)", glyphs: model.glyphs, into: &buffer)
    }

    /// A question's box, `width` wide and as tall as its rows need (at most the screen), centred over the panes.
    static func drawQuestion(_ rows: [PageRow], width: Int, title: String, glyphs: Glyphs, into buffer: inout CellBuffer) {
        let height = min(buffer.size.height - 2, rows.count + 4)
        let box = centered(width: width, height: height, in: buffer.size)
        buffer.fill(box)
        buffer.drawBox(box, title: title, focused: true, glyphs: glyphs)
        for (offset, row) in rows.prefix(height - 4).enumerated() {
            buffer.write(row.cells, x: box.x + 3, y: box.y + 2 + offset, clip: box.inside)
        }
    }

    /// Where the solution is shown: the whole screen above the status line, over every pane.
    static func solutionBox(in size: Size) -> Rect {
        Rect(x: 0, y: 0, width: max(10, size.width), height: max(4, size.height - 1))
    }

    /// The reference solution, read-only, laid out as a page, from its scroll position.
    static func drawSolution(_ model: TourModel, page index: Int, into buffer: inout CellBuffer) {
        guard let exercise = model.pages[index].exercise else { return }
        let box = solutionBox(in: buffer.size)
        buffer.fill(box)
        buffer.drawBox(box, title: "Solution: \(exercise.challenge.title) (read-only)", focused: true, glyphs: model.glyphs)
        let inner = box.inside
        guard let layout = model.solutionLayout(page: index) else {
            buffer.write("Reading \(exercise.challenge.solutionFile)\(model.glyphs.ellipsis)", x: inner.x + 1, y: inner.y,
                         style: CellStyle(foreground: .muted), clip: inner)
            return
        }
        for (offset, row) in layout.rows.dropFirst(exercise.solutionScroll).prefix(inner.height).enumerated() {
            buffer.write(row.cells, x: inner.x, y: inner.y + offset, clip: inner)
        }
        buffer.writeInBottomBorder(" j/k scroll  Esc closes  your \(exercise.challenge.file) is untouched ", of: box, color: .accent)
    }
}
