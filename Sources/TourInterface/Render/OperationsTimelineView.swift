import TourCore

/// The timeline's operations view: a row per operation with its states over time (pending, ready, executing,
/// cancelled, each in a character of its own so they differ in monochrome too), the operations it waited for after its
/// bar, the run's critical path marked in the titles, and in the info row what the selected operation waited for.
enum OperationsTimelineView {
    /// Rows under the operations: the axis, its labels, the key to the states, the info row.
    static let rowsBelow = 4

    static func draw(_ model: TourModel, in inner: Rect, focused: Bool, into buffer: inout CellBuffer) {
        guard let record = model.currentPage.shownRecord else { return }
        let analysis = OperationAnalysis(record)
        let state = model.currentPage.timeline
        guard !analysis.lives.isEmpty else {
            buffer.writeWrapped("This run reported no operations. Operations that report their states (ObservedOperation, or "
                                + "reportState in an asynchronous one) get a row here, from pending to finished. t shows the threads.",
                                in: inner, style: CellStyle(foreground: .muted))
            return
        }
        let layout = Layout(inner: inner, analysis: analysis, state: state, record: record, now: model.now, glyphs: model.glyphs)
        let reached = record.reachedTime(now: model.now)
        let selected = min(state.selectedOperation, analysis.lives.count - 1)
        for row in 0..<layout.visibleRows {
            let index = layout.firstRow + row
            guard index < analysis.lives.count else { break }
            drawRow(analysis.lives[index], analysis: analysis, record: record, reached: reached, y: layout.plot.y + row,
                    isSelected: index == selected, focused: focused, layout: layout, glyphs: model.glyphs, into: &buffer)
        }
        TimelineView.drawAxis(layout.geometry, glyphs: model.glyphs, into: &buffer)
        drawKey(analysis, y: layout.keyRow, inner: inner, glyphs: model.glyphs, into: &buffer)
        let info = Rect(x: inner.x, y: layout.infoRow, width: inner.width, height: 1)
        if TimelineView.drawSelectedWarning(model, record: record, row: info, into: &buffer) { return }
        drawInfo(analysis.lives[selected], analysis: analysis, record: record, reached: reached, row: info, glyphs: model.glyphs,
                 into: &buffer)
    }

    /// Where the rows, the plot and the rows below go, and the stretch of time shown: the threads view's zoom and pan.
    struct Layout {
        let plot: Rect
        let labelWidth: Int
        let firstRow: Int
        let visibleRows: Int
        let keyRow: Int
        let infoRow: Int
        let geometry: TimelineGeometry

        init(inner: Rect, analysis: OperationAnalysis, state: TimelineState, record: RunRecord, now: UInt64, glyphs: Glyphs) {
            let rows = max(1, inner.height - rowsBelow)
            // Two columns for the critical path's marker and a space; the name cut to leave the plot two thirds.
            let widest = analysis.lives.map { TextWidth.of($0.operation.name) }.max() ?? 4
            labelWidth = min(widest + 2, max(8, inner.width / 3))
            geometry = TimelineGeometry(ownRowsIn: inner, labelWidth: labelWidth, rows: rows, firstRow: 0, state: state,
                                        record: record, now: now, glyphs: glyphs)
            plot = geometry.plot
            visibleRows = rows
            let selected = min(state.selectedOperation, analysis.lives.count - 1)
            firstRow = selected >= rows ? selected - rows + 1 : 0
            keyRow = geometry.legendRow
            infoRow = geometry.infoRow
        }
    }

    /// What one cell of a row shows: the most telling state that overlaps the cell's stretch of time.
    enum CellState: Int, Comparable {
        case none, pending, ready, executing, cancelled
        static func < (lhs: CellState, rhs: CellState) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The stretches of `life`, in order: pending from its creation, then each state from its change until the next.
    static func stretches(of life: OperationLife, reached: UInt64) -> [(state: CellState, start: UInt64, end: UInt64)] {
        var changes: [(state: CellState, time: UInt64)] = [(.pending, life.created)]
        if let ready = life.ready { changes.append((.ready, ready)) }
        if let executing = life.executing { changes.append((.executing, executing)) }
        if let cancelled = life.cancelled { changes.append((.cancelled, cancelled)) }
        changes.sort { $0.time < $1.time }
        let end = life.finished ?? reached
        return changes.enumerated().map { index, change in
            (change.state, change.time, index + 1 < changes.count ? changes[index + 1].time : max(change.time, end))
        }
    }

    private static func drawRow(_ life: OperationLife, analysis: OperationAnalysis, record: RunRecord, reached: UInt64, y: Int,
                                isSelected: Bool, focused: Bool, layout: Layout, glyphs: Glyphs, into buffer: inout CellBuffer) {
        let marker = life.onCriticalPath ? String(glyphs.bullet) : " "
        let title = TextWidth.padded(marker + " " + life.operation.name, to: layout.labelWidth, ellipsis: glyphs.ellipsis)
        let highlighted = isSelected && focused
        buffer.write(title, x: layout.plot.x - layout.labelWidth - 1, y: y,
                     style: CellStyle(foreground: highlighted ? .accent : (life.onCriticalPath ? .warning : nil),
                                      bold: highlighted || life.onCriticalPath, reverse: highlighted))
        buffer.set(Cell(glyphs.vertical, CellStyle(foreground: .muted)), x: layout.plot.x - 1, y: y)

        let axis = layout.geometry
        let queue = life.operation.changes.first { $0.state == .executing }?.queue ?? life.operation.changes.first?.queue ?? ""
        let executingColor: PaletteColor = isSelected ? .selectedSpan : Formatting.queueColor(queue, in: record)
        var states = Array(repeating: CellState.none, count: layout.plot.width)
        for stretch in stretches(of: life, reached: reached) {
            let first = max(0, axis.column(ofSeconds: record.seconds(at: stretch.start)))
            let last = min(layout.plot.width - 1, max(first, axis.column(ofSeconds: record.seconds(at: stretch.end))))
            guard first < layout.plot.width, last >= 0, first <= last else { continue }
            for column in first...last { states[column] = max(states[column], stretch.state) }
        }
        var lastDrawn = -1
        for (column, state) in states.enumerated() where state != .none {
            let cell: Cell
            switch state {
            case .none: continue
            case .pending: cell = Cell(glyphs.notRun, CellStyle(foreground: .muted))
            case .ready: cell = Cell(glyphs.horizontal, CellStyle(foreground: executingColor))
            case .executing: cell = Cell(" ", CellStyle(foreground: executingColor, bold: life.onCriticalPath, reverse: true))
            case .cancelled: cell = Cell(Character(glyphs.times), CellStyle(foreground: .warning, bold: true))
            }
            buffer.set(cell, x: layout.plot.x + column, y: y)
            lastDrawn = column
        }
        // The operations it waited for, after its bar, where they fit.
        let names = analysis.dependencyNames(of: life)
        let start = lastDrawn + 2
        guard !names.isEmpty, start + 10 < layout.plot.width else { return }
        let text = "after " + names.joined(separator: ", ")
        buffer.write(TextWidth.truncated(text, to: layout.plot.width - start, ellipsis: glyphs.ellipsis), x: layout.plot.x + start, y: y,
                     style: CellStyle(foreground: .muted))
    }

    /// The key to the states, then the critical path, as far as it fits.
    private static func drawKey(_ analysis: OperationAnalysis, y: Int, inner: Rect, glyphs: Glyphs, into buffer: inout CellBuffer) {
        let clip = Rect(x: inner.x, y: y, width: inner.width, height: 1)
        let muted = CellStyle(foreground: .muted)
        var x = inner.x
        let entries: [(Cell, String)] = [
            (Cell(glyphs.notRun, muted), "pending"), (Cell(glyphs.horizontal, CellStyle()), "ready"),
            (Cell(" ", CellStyle(reverse: true)), "executing"), (Cell(Character(glyphs.times), CellStyle(foreground: .warning, bold: true)), "cancelled"),
        ]
        for (swatch, word) in entries where x + word.count + 3 < clip.maxX {
            buffer.set(swatch, x: x, y: y)
            x = buffer.write(" \(word)  ", x: x + 1, y: y, style: muted, clip: clip)
        }
        guard analysis.criticalPath.count > 0, x + 8 < clip.maxX else { return }
        let path = analysis.criticalPath.map(analysis.name).joined(separator: " \(glyphs.arrow) ")
        buffer.write(TextWidth.truncated("\(glyphs.bullet) critical path: \(path)", to: clip.maxX - x, ellipsis: glyphs.ellipsis),
                     x: x, y: y, style: CellStyle(foreground: .warning), clip: clip)
    }

    /// The selected operation in words: what it waited for, how long it ran, how it ended, what it depends on.
    private static func drawInfo(_ life: OperationLife, analysis: OperationAnalysis, record: RunRecord, reached: UInt64, row: Rect,
                                 glyphs: Glyphs, into buffer: inout CellBuffer) {
        buffer.write(TextWidth.truncated(summary(of: life, analysis: analysis, record: record, reached: reached, glyphs: glyphs),
                                         to: row.width, ellipsis: glyphs.ellipsis),
                     x: row.x, y: row.y, style: CellStyle(foreground: .selectedSpan, bold: true), clip: row)
    }

    /// "▸ tilt-shift coffee: waited 501.2 ms for load coffee  ran 41.0 ms  after load coffee  (critical path)".
    static func summary(of life: OperationLife, analysis: OperationAnalysis, record: RunRecord, reached: UInt64, glyphs: Glyphs) -> String {
        var parts = ["\(glyphs.pointer) \(life.operation.name): \(life.wait.sentence ?? waitedForNothing(life))"]
        if let executing = life.executing {
            let end = life.finished ?? reached
            let ran = Formatting.duration(Double(end &- executing) / 1e9, glyphs: glyphs)
            parts.append(life.finished == nil ? "executing for \(ran), never finished" : "ran \(ran)")
        } else if life.finished == nil {
            parts.append("never executed")
        }
        if life.cancelled != nil { parts.append("cancelled at \(record.timeText(at: life.cancelled!))") }
        let names = analysis.dependencyNames(of: life)
        if !names.isEmpty { parts.append("after " + names.joined(separator: ", ")) }
        if life.onCriticalPath { parts.append("(critical path)") }
        return parts.joined(separator: "  ")
    }

    private static func waitedForNothing(_ life: OperationLife) -> String {
        life.executing == nil ? "it never started" : "it waited for nothing"
    }
}
