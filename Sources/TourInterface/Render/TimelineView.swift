import TourCore

/// The timeline pane. Its view (`TimelineState.view`, `t`) says how it lays the run out: a lane per thread or a
/// lane per queue, drawn here, or a row per operation or per Swift task, each drawn by a view of its own.
enum TimelineView {
    static func draw(_ model: TourModel, in inner: Rect, focused: Bool, into buffer: inout CellBuffer) {
        let page = model.currentPage
        guard let record = page.shownRecord, !record.threads.isEmpty else {
            // On stage the room sees the lanes come, not the learner's advice.
            guard model.presenter == nil else { return }
            buffer.writeWrapped("Press r to run this page: each thread that works gets a lane here, and each traced span a bar "
                                + "in the colour of the queue it ran on.", in: inner, style: CellStyle(foreground: .muted))
            return
        }
        // The one place each view is dispatched to: the operations and tasks views are drawn in files of their own.
        switch page.timeline.view {
        case .threads, .queues:
            drawLanes(model, record: record, in: inner, focused: focused, into: &buffer)
        case .operations:
            OperationsTimelineView.draw(model, in: inner, focused: focused, into: &buffer)
        case .tasks:
            TasksTimelineView.draw(model, record: record, in: inner, into: &buffer)
        case .phases:
            PhasesTimelineView.draw(model, record: record, in: inner, into: &buffer)
        }
    }

    /// Lanes by thread or by queue: a bar for each span where and while it ran, in the colour of its queue, the
    /// threads' sampled states under them, marks, the time axis, the legend, and what the selection is.
    private static func drawLanes(_ model: TourModel, record: RunRecord, in inner: Rect, focused: Bool, into buffer: inout CellBuffer) {
        let page = model.currentPage
        let reached = record.reachedTime(now: model.now)
        let lanes = model.timelineLanes(record)
        let geometry = TimelineGeometry(inner: inner, state: page.timeline, record: record, lanes: lanes, now: model.now, glyphs: model.glyphs)
        ConcurrencyMeter.draw(record, reached: reached, geometry: geometry, cores: model.cores, glyphs: model.glyphs, into: &buffer)
        drawTitles(record, geometry: geometry, state: page.timeline, focused: focused, glyphs: model.glyphs, into: &buffer)
        let rows = LaneRows(geometry: geometry)
        let columns = ColumnScale(record, geometry: geometry)
        drawSpans(record, reached: reached, geometry: geometry, rows: rows, columns: columns, selected: page.timeline.selectedSpanID,
                  raster: model.renderCaches.spans, into: &buffer)
        if lanes.view == .threads {
            drawThreadStates(record, geometry: geometry, columns: columns, glyphs: model.glyphs, into: &buffer)
        }
        model.renderCaches.spans.paintMarks(record, geometry: geometry, glyph: model.glyphs.mark,
                                            textures: [model.glyphs.threadWaiting, model.glyphs.threadRunning], into: &buffer)
        if let time = page.timeline.selectedMarkTime, lanes.lanes.indices.contains(page.timeline.selectedLane),
           let mark = record.mark(at: time, in: lanes.lanes[page.timeline.selectedLane].key) {
            drawSelectedMark(mark, rows: rows, columns: columns, geometry: geometry, glyphs: model.glyphs, into: &buffer)
        }
        drawAxis(geometry, glyphs: model.glyphs, into: &buffer)
        TimelineLegend.draw(TimelineLegend.rows(record, width: inner.width, maxRows: geometry.legendRows, states: lanes.view == .threads,
                                                glyphs: model.glyphs),
                            x: inner.x, y: geometry.legendRow, clip: inner, into: &buffer)
        drawInfo(record, reached: reached, geometry: geometry, state: page.timeline, inner: inner, model: model, into: &buffer)
    }

    /// Each lane's title down the left: a thread's name, or a queue's swatch and label without the prefix the
    /// labels share; a separator between the titles and the bars on every row.
    private static func drawTitles(_ record: RunRecord, geometry: TimelineGeometry, state: TimelineState, focused: Bool,
                                   glyphs: Glyphs, into buffer: inout CellBuffer) {
        let separator = Cell(glyphs.vertical, CellStyle(foreground: .muted))
        for lane in geometry.firstLane..<(geometry.firstLane + geometry.visibleLanes) {
            guard let row = geometry.row(ofLane: lane) else { continue }
            let y = geometry.plot.y + row
            let isSelected = focused && lane == state.selectedLane
            let style = CellStyle(foreground: isSelected ? .accent : nil, bold: isSelected, reverse: isSelected)
            var x = geometry.labels.x
            if case .queue(let label) = geometry.lanes.lanes[lane].key {
                buffer.set(Formatting.queueSwatch(label, in: record), x: x, y: y)
                x += 2
            }
            let width = geometry.labels.maxX - x
            buffer.write(TextWidth.padded(geometry.lanes.lanes[lane].title, to: width, ellipsis: glyphs.ellipsis), x: x, y: y, style: style)
            for subRow in 0..<geometry.rowCount(ofLane: lane) {
                buffer.set(separator, x: geometry.plot.x - 1, y: y + subRow)
            }
        }
    }

    /// Completed spans come from the raster, which paints each of them once; open spans and the selected span
    /// change from frame to frame, so they are drawn each time, over the bars.
    private static func drawSpans(_ record: RunRecord, reached: UInt64, geometry: TimelineGeometry, rows: LaneRows, columns: ColumnScale,
                                  selected: Int?, raster: SpanRaster, into buffer: inout CellBuffer) {
        raster.paintSpans(record, geometry: geometry, into: &buffer)
        // An open span is bold in its queue's colour: what that thread is running now.
        for span in record.openSpans.values.sorted(by: { $0.id < $1.id }) {
            let color = span.id == selected ? .selectedSpan : Formatting.queueColor(span.queue, in: record)
            drawBar(span, end: reached, color: color, rows: rows, columns: columns, geometry: geometry, over: false, into: &buffer)
        }
        if let selected, record.openSpans[selected] == nil, let shown = record.timelineSpan(id: selected, now: reached) {
            drawBar(shown.span, end: shown.end, color: .selectedSpan, rows: rows, columns: columns, geometry: geometry, over: true, into: &buffer)
        }
    }

    /// One span's bar, bold, fitted among the bars already drawn; `over` draws it over its own painted bar (the
    /// selection), minding only the bar before it.
    private static func drawBar(_ span: Span, end: UInt64, color: PaletteColor, rows: LaneRows, columns: ColumnScale,
                                geometry: TimelineGeometry, over: Bool, into buffer: inout CellBuffer) {
        guard let row = rows.row(ofSpan: span) else { return }
        let y = geometry.plot.y + row
        let first = columns.column(of: span.start)
        let x = geometry.plot.x
        var cells: [(Int, Cell)] = []
        let bars = (0..<max(0, geometry.plot.width)).map { buffer[x + $0, y].style.reverse }
        SpanBar.paint(span.name, first: first, last: columns.column(of: end), width: geometry.plot.width,
                      style: CellStyle(foreground: color, bold: true, reverse: true), ellipsis: geometry.labelEllipsis,
                      isBar: { column in (!over || column < first) && bars[column] }, set: { cells.append(($0, $1)) })
        for (column, cell) in cells { buffer.set(cell, x: x + column, y: y) }
    }

    /// What each thread was doing, as the host sampled it: inside a bar, the cells where the thread mostly waited lose
    /// their solid fill for a light texture in the queue's colour (so a sleeping span reads apart from a computing one
    /// in colour, in monochrome and in ASCII); outside bars, a low line where the thread ran with no span open.
    private static func drawThreadStates(_ record: RunRecord, geometry: TimelineGeometry, columns: ColumnScale, glyphs: Glyphs,
                                         into buffer: inout CellBuffer) {
        guard !record.threadStates.isEmpty, geometry.plot.width > 0 else { return }
        let running = Cell(glyphs.threadRunning, CellStyle(foreground: .muted))
        for lane in geometry.firstLane..<(geometry.firstLane + geometry.visibleLanes) {
            guard case .thread(let thread) = geometry.lanes.lanes[lane].key, let row = geometry.row(ofLane: lane),
                  let stretches = record.threadStates[thread], !stretches.isEmpty else { continue }
            let states = ThreadStateColumns.states(stretches, columns: columns, width: geometry.plot.width)
            // Spans nested in spans sit on the lane's lower rows: the thread's state is theirs too.
            for subRow in 0..<geometry.rowCount(ofLane: lane) {
                drawThreadStates(states, y: geometry.plot.y + row + subRow, x: geometry.plot.x, running: subRow == 0 ? running : nil,
                                 glyphs: glyphs, into: &buffer)
            }
        }
    }

    /// One row of a lane's states: the waiting texture inside bars, and `running`, when given, outside them.
    private static func drawThreadStates(_ states: [ThreadRunState?], y: Int, x: Int, running: Cell?, glyphs: Glyphs,
                                         into buffer: inout CellBuffer) {
        // A bar's name stays as written: only the blank cells after it take the texture.
        var named = [Bool](repeating: false, count: states.count)
        var column = states.count - 1
        var textFollows = false
        while column >= 0 {
            let cell = buffer[x + column, y]
            if !cell.style.reverse { textFollows = false } else if cell.character != " " { textFollows = true }
            named[column] = textFollows
            column -= 1
        }
        for (column, state) in states.enumerated() {
            guard let state else { continue }
            var cell = buffer[x + column, y]
            if cell.style.reverse {
                guard state == .waiting else { continue }
                cell.style.reverse = false
                if cell.character == " " && !named[column] { cell.character = glyphs.threadWaiting }
                buffer.set(cell, x: x + column, y: y)
            } else if state == .running, cell.character == " ", let running {
                buffer.set(running, x: x + column, y: y)
            }
        }
    }

    /// The selected mark, over the others, in the selection's colour.
    private static func drawSelectedMark(_ mark: Mark, rows: LaneRows, columns: ColumnScale, geometry: TimelineGeometry, glyphs: Glyphs,
                                         into buffer: inout CellBuffer) {
        guard let row = rows.row(thread: mark.thread, queue: mark.queue) else { return }
        let column = columns.column(of: mark.time)
        guard column >= 0, column < geometry.plot.width else { return }
        buffer.set(Cell(glyphs.mark, CellStyle(foreground: .selectedSpan, bold: true, reverse: true)),
                   x: geometry.plot.x + column, y: geometry.plot.y + row)
    }

    /// A rule with a tick every 1, 2 or 5 units, labelled where the label fits.
    static func drawAxis(_ geometry: TimelineGeometry, glyphs: Glyphs, into buffer: inout CellBuffer) {
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

    /// The search being typed, the selected span or mark in words, or what the keys do when nothing is selected.
    private static func drawInfo(_ record: RunRecord, reached: UInt64, geometry: TimelineGeometry, state: TimelineState,
                                 inner: Rect, model: TourModel, into buffer: inout CellBuffer) {
        let row = Rect(x: inner.x, y: geometry.infoRow, width: inner.width, height: 1)
        if let query = state.searchQuery {
            let text = "/\(query)_   Enter next match  Esc done"
            buffer.write(TextWidth.truncated(text, to: row.width, ellipsis: model.glyphs.ellipsis), x: row.x, y: row.y,
                         style: CellStyle(foreground: .accent, bold: true), clip: row)
            return
        }
        if drawSelectedWarning(model, record: record, row: row, into: &buffer) { return }
        if let id = state.selectedSpanID, let selected = record.timelineSpan(id: id, now: reached) {
            let span = selected.span
            let duration = Formatting.duration(Double(selected.end &- span.start) / 1e9, glyphs: model.glyphs) + (selected.isOpen ? (record.ending == nil ? " so far" : ", never ended") : "")
            // Times first, then the queue: when the row is too narrow, the thread is what gets cut.
            let lasting = span.cpuNanoseconds.map { "wall \(duration), \(cpuWords($0, wall: selected.end &- span.start, glyphs: model.glyphs))" } ?? "lasts \(duration)"
            let text = "\(model.glyphs.pointer) \(span.name)  starts \(Formatting.duration(record.seconds(at: span.start), glyphs: model.glyphs))  \(lasting)"
            writeInfo(text, thread: span.thread, queue: span.queue, color: .selectedSpan, record: record, row: row, glyphs: model.glyphs, into: &buffer)
            return
        }
        if let time = state.selectedMarkTime, geometry.lanes.lanes.indices.contains(state.selectedLane),
           let mark = record.mark(at: time, in: geometry.lanes.lanes[state.selectedLane].key) {
            let text = "\(model.glyphs.mark) \(mark.name)  at \(Formatting.duration(record.seconds(at: mark.time), glyphs: model.glyphs))"
            writeInfo(text, thread: mark.thread, queue: mark.queue, color: .mark, record: record, row: row, glyphs: model.glyphs, into: &buffer)
            return
        }
        if let warnings = warningsLine(model, record: record) {
            buffer.write(TextWidth.truncated(warnings.text, to: row.width, ellipsis: model.glyphs.ellipsis), x: row.x, y: row.y,
                         style: CellStyle(foreground: warnings.unexpected ? .warning : .muted, bold: warnings.unexpected), clip: row)
            return
        }
        let zoom = state.secondsPerColumn.map { "1 column = \(Formatting.duration($0, glyphs: model.glyphs))\(state.followsLiveEdge ? ", following" : "")  " } ?? ""
        // The timeline's keys are the learner's; on stage only the zoom is said.
        let hint = zoom + (model.presenter == nil ? "h/l span  j/k lane  i/o zoom  0 fit  H/L pan  t view  / search  F follow" : "")
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

/// A thread's sampled states per plot column.
enum ThreadStateColumns {
    /// For each of `width` columns, the state the thread spent most of the column's time in, by the stretches that
    /// cover it; nil where no sample covers the column. A binary search finds the first stretch in view, so a frame
    /// costs the stretches in view and the columns, not the whole run.
    static func states(_ stretches: [ThreadStateStretch], columns: ColumnScale, width: Int) -> [ThreadRunState?] {
        var result = [ThreadRunState?](repeating: nil, count: width)
        guard width > 0 else { return result }
        let viewStart = columns.time(atColumn: 0)
        var low = 0
        var high = stretches.count
        while low < high {
            let middle = (low + high) / 2
            if stretches[middle].end <= viewStart { low = middle + 1 } else { high = middle }
        }
        var index = low
        for column in 0..<width {
            let from = columns.time(atColumn: column)
            let to = columns.time(atColumn: column + 1)
            var running: UInt64 = 0
            var waiting: UInt64 = 0
            while index < stretches.count, stretches[index].end <= from { index += 1 }
            var next = index
            while next < stretches.count, stretches[next].start < to {
                let stretch = stretches[next]
                let covered = min(stretch.end, to) &- max(stretch.start, from)
                if stretch.start <= to, stretch.end >= from {
                    if stretch.state == .running { running += covered } else { waiting += covered }
                }
                next += 1
            }
            if running + waiting > 0 { result[column] = waiting > running ? .waiting : .running }
        }
        return result
    }
}
