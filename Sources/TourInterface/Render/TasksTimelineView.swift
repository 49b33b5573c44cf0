import TourCore

/// The timeline's task view: one row per traced Swift task, children indented under the task they were started from,
/// each row from the task's start to its end. Its spans are bars in their queue's colour, each starting with the
/// name of the thread's lane that ran it, so a task that moved between threads shows it; between spans the row says
/// what the trace can prove: `~` where the task went on on another thread (it was suspended: a task changes
/// threads only at a suspension point), `·` where it stayed on one (suspended, or running code outside any span).
enum TasksTimelineView {
    /// The glyph of a stretch the task was certainly suspended for.
    static let suspendedGlyph: Character = "~"

    static func draw(_ model: TourModel, record: RunRecord, in inner: Rect, into buffer: inout CellBuffer) {
        let glyphs = model.glyphs
        let tree = record.taskTree()
        guard !tree.isEmpty else {
            buffer.writeWrapped("No traced Swift tasks in this run. A page starts them with tracedTask(\"name\") { … } or "
                                + "group.addTracedTask(\"name\") { … }; then each gets a row here. t: back to the threads.",
                                in: inner, style: CellStyle(foreground: .muted))
            return
        }
        let titles = tree.map { title(of: $0.task, depth: $0.depth, glyphs: glyphs) }
        let labelWidth = min(max(8, titles.map(TextWidth.of).max() ?? 0), max(8, inner.width / 3))
        let rows = max(0, inner.height - 4)
        let geometry = TimelineGeometry(ownRowsIn: inner, labelWidth: labelWidth, rows: rows,
                                        firstRow: max(0, min(model.currentPage.timeline.laneScroll, tree.count - rows)),
                                        state: model.currentPage.timeline, record: record, now: model.now, glyphs: glyphs)
        let reached = record.reachedTime(now: model.now)
        let separator = Cell(glyphs.vertical, CellStyle(foreground: .muted))
        for row in 0..<geometry.visibleLanes {
            let index = geometry.firstLane + row
            guard index < tree.count else { break }
            let y = geometry.plot.y + row
            buffer.write(TextWidth.padded(TextWidth.truncated(titles[index], to: labelWidth, ellipsis: glyphs.ellipsis),
                                          to: labelWidth, ellipsis: glyphs.ellipsis),
                         x: geometry.labels.x, y: y, style: CellStyle(foreground: tree[index].task.end == nil ? .running : nil))
            buffer.set(separator, x: geometry.plot.x - 1, y: y)
            drawRow(tree[index].task, record: record, reached: reached, geometry: geometry, y: y, glyphs: glyphs, into: &buffer)
        }
        TimelineView.drawAxis(geometry, glyphs: glyphs, into: &buffer)
        let key = "\(glyphs.notRun) no span, same thread  \(suspendedGlyph) suspended: went on on another thread  bars: lane and span"
        buffer.write(TextWidth.truncated(key, to: inner.width, ellipsis: glyphs.ellipsis), x: inner.x, y: geometry.legendRow,
                     style: CellStyle(foreground: .muted), clip: inner)
        let hidden = tree.count - geometry.visibleLanes
        let info = summary(record, tree: tree.map(\.task), reached: reached)
            + (hidden > 0 ? "  +\(hidden) more below" : "") + "  t \(TourModel.view(after: .tasks, in: record).rawValue)"
        buffer.write(TextWidth.truncated(info, to: inner.width, ellipsis: glyphs.ellipsis), x: inner.x, y: geometry.infoRow,
                     style: CellStyle(foreground: .muted), clip: inner)
    }

    /// "#3 download", indented two columns a level under its parent, with a corner before a child.
    static func title(of task: TaskRecord, depth: Int, glyphs: Glyphs) -> String {
        let indent = depth == 0 ? "" : String(repeating: " ", count: 2 * (depth - 1)) + "\(glyphs.bottomLeft) "
        return indent + "#\(task.number) \(task.name)"
    }

    /// How many tasks, how many still running, and how many times one was seen to change threads.
    static func summary(_ record: RunRecord, tree: [TaskRecord], reached: UInt64) -> String {
        let running = tree.filter { $0.end == nil }.count
        let moves = tree.reduce(0) { count, task in
            count + record.stretches(of: task, until: reached).filter { if case .suspended = $0 { true } else { false } }.count
        }
        return "\(tree.count) \(tree.count == 1 ? "task" : "tasks")" + (running > 0 ? " (\(running) running)" : "")
            + ", \(moves) \(moves == 1 ? "resumption" : "resumptions") on another thread"
    }

    private static func drawRow(_ task: TaskRecord, record: RunRecord, reached: UInt64, geometry: TimelineGeometry, y: Int,
                                glyphs: Glyphs, into buffer: inout CellBuffer) {
        let width = geometry.plot.width
        func column(_ time: UInt64) -> Int { geometry.column(ofSeconds: record.seconds(at: time)) }
        func fill(from start: UInt64, to end: UInt64, _ cell: (Int) -> Cell) {
            let first = column(start), last = max(first, column(end))
            guard last >= 0, first < width else { return }
            for offset in max(0, first)...min(last, width - 1) {
                buffer.set(cell(offset - first), x: geometry.plot.x + offset, y: y)
            }
        }
        let muted = CellStyle(foreground: .muted)
        var spanColumns = [Bool](repeating: false, count: max(0, width))
        for stretch in record.stretches(of: task, until: task.end ?? reached) {
            switch stretch {
            case .betweenSpans(let from, let to, _):
                fill(from: from, to: to) { _ in Cell(glyphs.notRun, muted) }
            case .suspended(let from, let to, _, _):
                fill(from: from, to: to) { _ in Cell(suspendedGlyph, CellStyle(foreground: .warning)) }
            case .span(let span):
                // Fitted as the lanes fit theirs, so two spans' names never run together.
                let style = CellStyle(foreground: Formatting.queueColor(span.queue, in: record), bold: span.end == nil, reverse: true)
                SpanBar.paint("\(record.laneName(of: span.thread)) \(span.name)", first: column(span.start),
                              last: column(span.end ?? reached), width: width, style: style, ellipsis: geometry.labelEllipsis,
                              isBar: { spanColumns[$0] }, set: { offset, cell in
                                  spanColumns[offset] = true
                                  buffer.set(cell, x: geometry.plot.x + offset, y: y)
                              })
            }
        }
    }
}
