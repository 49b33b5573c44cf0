import TourCore

/// The timeline pane: one lane per thread, a bar for each span where and while it ran, in the colour of the
/// queue it ran on, marks, the time axis, the legend of queues, and what the selected span was.
enum TimelineView {
    static func draw(_ model: TourModel, in inner: Rect, focused: Bool, into buffer: inout CellBuffer) {
        let page = model.currentPage
        guard let record = page.record, !record.threads.isEmpty else {
            buffer.writeWrapped("Press r to run this page: each thread that works gets a lane here, and each traced span a bar "
                                + "in the colour of the queue it ran on.", in: inner, style: CellStyle(foreground: .muted))
            return
        }
        let reached = record.reachedTime(now: model.now)
        let geometry = TimelineGeometry(inner: inner, state: page.timeline, record: record, now: model.now, glyphs: model.glyphs)
        ConcurrencyMeter.draw(record, reached: reached, geometry: geometry, cores: model.cores, glyphs: model.glyphs, into: &buffer)
        drawLanes(record, geometry: geometry, state: page.timeline, focused: focused, glyphs: model.glyphs, into: &buffer)
        drawSpans(record, reached: reached, geometry: geometry, selected: page.timeline.selectedSpanID, glyphs: model.glyphs,
                  raster: model.renderCaches.spans, into: &buffer)
        if let time = page.timeline.selectedMarkTime, record.threads.indices.contains(page.timeline.selectedLane),
           let mark = record.mark(at: time, on: record.threads[page.timeline.selectedLane].thread) {
            drawSelectedMark(mark, record: record, geometry: geometry, glyphs: model.glyphs, into: &buffer)
        }
        drawAxis(geometry, glyphs: model.glyphs, into: &buffer)
        TimelineLegend.draw(TimelineLegend.rows(record, width: inner.width, maxRows: geometry.legendRows, glyphs: model.glyphs),
                            x: inner.x, y: geometry.legendRow, clip: inner, into: &buffer)
        drawInfo(record, reached: reached, geometry: geometry, state: page.timeline, inner: inner, model: model, into: &buffer)
    }

    private static func drawLanes(_ record: RunRecord, geometry: TimelineGeometry, state: TimelineState, focused: Bool,
                                  glyphs: Glyphs, into buffer: inout CellBuffer) {
        let separator = Cell(glyphs.vertical, CellStyle(foreground: .muted))
        for row in 0..<geometry.visibleLanes {
            let lane = geometry.firstLane + row
            guard lane < record.threads.count else { break }
            let y = geometry.plot.y + row
            let isSelected = focused && lane == state.selectedLane
            let title = TextWidth.padded(Formatting.laneTitle(record.threads[lane], width: geometry.labels.width, glyphs: glyphs),
                                         to: geometry.labels.width, ellipsis: glyphs.ellipsis)
            buffer.write(title, x: geometry.labels.x, y: y, style: CellStyle(foreground: isSelected ? .accent : nil, bold: isSelected, reverse: isSelected))
            buffer.set(separator, x: geometry.plot.x - 1, y: y)
        }
    }

    /// Completed spans and marks come from the raster, which paints each of them once; open spans and the
    /// selected span change from frame to frame, so they are drawn each time, between the bars and the marks.
    private static func drawSpans(_ record: RunRecord, reached: UInt64, geometry: TimelineGeometry, selected: Int?,
                                  glyphs: Glyphs, raster: SpanRaster, into buffer: inout CellBuffer) {
        raster.paintSpans(record, geometry: geometry, into: &buffer)
        let lanes = LaneRows(record, geometry: geometry)
        let columns = ColumnScale(record, geometry: geometry)
        // An open span is bold in its queue's colour: what that thread is running now.
        for span in record.openSpans.values.sorted(by: { $0.id < $1.id }) {
            let color = span.id == selected ? .selectedSpan : Formatting.queueColor(span.queue, in: record)
            drawBar(span, end: reached, color: color, bold: true, lanes: lanes, columns: columns, geometry: geometry, into: &buffer)
        }
        if let selected, record.openSpans[selected] == nil, let shown = record.timelineSpan(id: selected, now: reached) {
            drawBar(shown.span, end: shown.end, color: .selectedSpan, bold: true, lanes: lanes, columns: columns, geometry: geometry, into: &buffer)
        }
        raster.paintMarks(record, geometry: geometry, glyph: glyphs.mark, into: &buffer)
    }

    /// The selected mark, over the others, in the selection's colour.
    private static func drawSelectedMark(_ mark: Mark, record: RunRecord, geometry: TimelineGeometry, glyphs: Glyphs,
                                         into buffer: inout CellBuffer) {
        guard let row = LaneRows(record, geometry: geometry).row(of: mark.thread) else { return }
        let column = ColumnScale(record, geometry: geometry).column(of: mark.time)
        guard column >= 0, column < geometry.plot.width else { return }
        buffer.set(Cell(glyphs.mark, CellStyle(foreground: .selectedSpan, bold: true, reverse: true)),
                   x: geometry.plot.x + column, y: geometry.plot.y + row)
    }

    /// One span's bar on its lane, with as much of its name inside as fits, counted from its real start.
    private static func drawBar(_ span: Span, end: UInt64, color: PaletteColor, bold: Bool, lanes: LaneRows, columns: ColumnScale,
                        geometry: TimelineGeometry, into buffer: inout CellBuffer) {
        guard let row = lanes.row(of: span.thread) else { return }
        let first = columns.column(of: span.start)
        let last = max(first, columns.column(of: end))
        guard last >= 0, first < geometry.plot.width else { return }
        let style = CellStyle(foreground: color, bold: bold, reverse: true)
        var name = span.name.makeIterator()
        for _ in first..<max(first, 0) { _ = name.next() }
        for column in max(0, first)...min(last, geometry.plot.width - 1) {
            buffer.set(Cell(name.next() ?? " ", style), x: geometry.plot.x + column, y: geometry.plot.y + row)
        }
    }

    /// A rule with a tick every 1, 2 or 5 units, labelled where the label fits.
    private static func drawAxis(_ geometry: TimelineGeometry, glyphs: Glyphs, into buffer: inout CellBuffer) {
        let muted = CellStyle(foreground: .muted)
        let plot = geometry.plot
        for x in plot.x..<plot.maxX { buffer.set(Cell(glyphs.horizontal, muted), x: x, y: geometry.axisRow) }
        let step = geometry.tickStep
        var tick = (geometry.startSeconds / step).rounded(.up) * step
        var labelEnd = plot.x
        while true {
            let column = geometry.column(ofSeconds: tick + step * 1e-9)
            if column >= plot.width { break }
            let x = plot.x + column
            buffer.set(Cell(glyphs.tick, muted), x: x, y: geometry.axisRow)
            let label = TimelineGeometry.label(seconds: tick, step: step, glyphs: glyphs)
            if x >= labelEnd && x + label.count <= plot.maxX {
                labelEnd = buffer.write(label, x: x, y: geometry.tickLabelRow, style: muted) + 1
            }
            tick += step
        }
    }

    /// The selected span or mark in words, or what the keys do when nothing is selected.
    private static func drawInfo(_ record: RunRecord, reached: UInt64, geometry: TimelineGeometry, state: TimelineState,
                                 inner: Rect, model: TourModel, into buffer: inout CellBuffer) {
        let row = Rect(x: inner.x, y: geometry.infoRow, width: inner.width, height: 1)
        if let id = state.selectedSpanID, let selected = record.timelineSpan(id: id, now: reached) {
            let span = selected.span
            let duration = Formatting.duration(Double(selected.end &- span.start) / 1e9, glyphs: model.glyphs) + (selected.isOpen ? (record.ending == nil ? " so far" : ", never ended") : "")
            // Times first, then the queue: when the row is too narrow, the thread is what gets cut.
            let lasting = span.cpuNanoseconds.map { "wall \(duration), \(cpuWords($0, wall: selected.end &- span.start, glyphs: model.glyphs))" } ?? "lasts \(duration)"
            let text = "\(model.glyphs.pointer) \(span.name)  starts \(Formatting.duration(record.seconds(at: span.start), glyphs: model.glyphs))  \(lasting)"
            writeInfo(text, thread: span.thread, queue: span.queue, color: .selectedSpan, record: record, row: row, glyphs: model.glyphs, into: &buffer)
            return
        }
        if let time = state.selectedMarkTime, record.threads.indices.contains(state.selectedLane),
           let mark = record.mark(at: time, on: record.threads[state.selectedLane].thread) {
            let text = "\(model.glyphs.mark) \(mark.name)  at \(Formatting.duration(record.seconds(at: mark.time), glyphs: model.glyphs))"
            writeInfo(text, thread: mark.thread, queue: mark.queue, color: .mark, record: record, row: row, glyphs: model.glyphs, into: &buffer)
            return
        }
        let zoom = state.secondsPerColumn.map { "1 column = \(Formatting.duration($0, glyphs: model.glyphs))  " } ?? ""
        let hint = zoom + "h/l select a span or mark  j/k lane  i/o zoom  0 fit  H/L pan"
        buffer.write(TextWidth.truncated(hint, to: row.width, ellipsis: model.glyphs.ellipsis), x: row.x, y: row.y,
                     style: CellStyle(foreground: .muted), clip: row)
    }

    /// "CPU 3 ms (waiting)": the processor time a span's thread spent in it, and what that says it did. Under a third
    /// of its wall time it mostly waited, over two thirds it mostly computed.
    static func cpuWords(_ cpu: UInt64, wall: UInt64, glyphs: Glyphs) -> String {
        let share = wall > 0 ? Double(cpu) / Double(wall) : 0
        let doing = share < 1.0 / 3 ? "waiting" : share > 2.0 / 3 ? "computing" : "partly waiting"
        return "CPU \(Formatting.duration(Double(cpu) / 1e9, glyphs: glyphs)) (\(doing))"
    }

    /// `text` followed by the queue, after its swatch, and the thread of what it describes, cut to the info row
    /// (the thread last: its lane is the one selected).
    private static func writeInfo(_ text: String, thread: Int32, queue: String, color: PaletteColor, record: RunRecord, row: Rect,
                                  glyphs: Glyphs, into buffer: inout CellBuffer) {
        let style = CellStyle(foreground: color, bold: true)
        var x = buffer.write(TextWidth.truncated(text + "  queue ", to: row.width, ellipsis: glyphs.ellipsis), x: row.x, y: row.y,
                             style: style, clip: row)
        guard x + 2 < row.maxX else { return }
        buffer.set(Formatting.queueSwatch(queue, in: record), x: x, y: row.y)
        x += 2
        let rest = "\(QueueLabel.shown(queue))  thread \(record.laneName(of: thread)) #\(thread)"
        buffer.write(TextWidth.truncated(rest, to: row.maxX - x, ellipsis: glyphs.ellipsis), x: x, y: row.y, style: style, clip: row)
    }
}
