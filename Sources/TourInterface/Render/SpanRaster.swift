import Foundation
import TourCore

/// The timeline's completed spans and marks, painted into lane rows once each and kept between frames.
///
/// A run keeps up to 50,000 spans and a flooding page adds thousands a frame; repainting all of them 30 times
/// a second would take the interface queue away from the keys. Painting only what arrived since the last
/// frame keeps a frame's cost to the new events and the cells on screen. One per model, in its `RenderCaches`. The raster is rebuilt when the view
/// changes (lanes, width, zoom, pan) or when the record is not the one it was painted from.
final class SpanRaster: @unchecked Sendable {
    private struct View: Equatable {
        var rows: LaneRows.Signature
        var width: Int
        var origin: UInt64
        var viewStart: Double
        var nanosecondsPerColumn: Double
    }

    /// What the raster last painted from a list, to tell the same record grown from a different one.
    private struct Progress {
        /// Entries painted, counting those the record has since dropped from its front.
        var count = 0
        var lastTime: UInt64?
        var lastThread: Int32?
    }

    private let lock = NSLock()
    private var view: View?
    private var spanCells: [[Cell?]] = []
    /// The colour of the mark in each cell, nil where there is none.
    private var markCells: [[PaletteColor?]] = []
    private var spans = Progress()
    private var marks = Progress()

    /// Draws the bars of completed spans.
    func paintSpans(_ record: RunRecord, geometry: TimelineGeometry, into buffer: inout CellBuffer) {
        lock.withLock {
            update(record, geometry: geometry)
            for (row, cells) in spanCells.enumerated() {
                for (column, cell) in cells.enumerated() {
                    if let cell { buffer.set(cell, x: geometry.plot.x + column, y: geometry.plot.y + row) }
                }
            }
        }
    }

    /// Draws the marks, over whatever bars are there, each in the colour of its queue. A mark that falls on a letter
    /// of a span's name underlines the letter instead of replacing it, so names stay whole ("dow◆load 3" read as
    /// a name of its own); `textures` are the blank-looking fills (thread states) a mark may replace.
    func paintMarks(_ record: RunRecord, geometry: TimelineGeometry, glyph: Character, textures: Set<Character>,
                    into buffer: inout CellBuffer) {
        lock.withLock {
            update(record, geometry: geometry)
            for (row, cells) in markCells.enumerated() {
                for (column, color) in cells.enumerated() {
                    guard let color else { continue }
                    let x = geometry.plot.x + column, y = geometry.plot.y + row
                    var cell = buffer[x, y]
                    if cell.character != " " && !textures.contains(cell.character) {
                        cell.style.underline = true
                        cell.style.bold = true
                        buffer.set(cell, x: x, y: y)
                    } else {
                        buffer.set(Cell(glyph, CellStyle(foreground: color, bold: true)), x: x, y: y)
                    }
                }
            }
        }
    }

    private func update(_ record: RunRecord, geometry: TimelineGeometry) {
        let lanes = LaneRows(geometry: geometry)
        let columns = ColumnScale(record, geometry: geometry)
        let current = View(rows: lanes.signature, width: max(0, geometry.plot.width), origin: columns.origin,
                           viewStart: columns.viewStart, nanosecondsPerColumn: columns.nanosecondsPerColumn)
        let sameSpans = Self.continues(spans, in: record.spans, dropped: record.droppedSpans) { ($0.end ?? $0.start, $0.thread) }
        let sameMarks = Self.continues(marks, in: record.marks, dropped: record.droppedMarks) { ($0.time, $0.thread) }
        if current != view || !sameSpans || !sameMarks {
            view = current
            spanCells = Array(repeating: Array(repeating: nil, count: current.width), count: lanes.rowCount)
            markCells = Array(repeating: Array(repeating: nil, count: current.width), count: lanes.rowCount)
            spans = Progress()
            marks = Progress()
        }
        let firstSpan = max(0, spans.count - record.droppedSpans)
        for index in firstSpan..<record.spans.count {
            let span = record.spans[index]
            paint(span, color: Formatting.queueColor(span.queue, in: record), runEnd: record.endTime, lanes: lanes, columns: columns,
                  width: current.width, ellipsis: geometry.labelEllipsis)
        }
        spans = Self.progress(of: record.spans, dropped: record.droppedSpans) { ($0.end ?? $0.start, $0.thread) }
        let firstMark = max(0, marks.count - record.droppedMarks)
        for index in firstMark..<record.marks.count {
            let mark = record.marks[index]
            let column = columns.column(of: mark.time)
            if let row = lanes.row(thread: mark.thread, queue: mark.queue), column >= 0, column < current.width {
                markCells[row][column] = Formatting.queueColor(mark.queue, in: record)
            }
        }
        marks = Self.progress(of: record.marks, dropped: record.droppedMarks) { ($0.time, $0.thread) }
    }

    /// A bar is its queue's colour, bold when the run ended before the span did (it reaches the end of the
    /// run); a span that would only repaint a cell its lane already has is skipped, which is most of them
    /// when a long run is in view.
    private func paint(_ span: Span, color: PaletteColor, runEnd: UInt64?, lanes: LaneRows, columns: ColumnScale, width: Int,
                       ellipsis: String) {
        guard let row = lanes.row(ofSpan: span) else { return }
        let style = CellStyle(foreground: color, bold: span.end == nil, reverse: true)
        SpanBar.paint(span.name, first: columns.column(of: span.start), last: columns.column(of: span.end ?? runEnd ?? span.start),
                      width: width, style: style, ellipsis: ellipsis,
                      isBar: { self.spanCells[row][$0] != nil }, set: { self.spanCells[row][$0] = $1 })
    }

    private static func progress<Entry>(of list: [Entry], dropped: Int, _ identity: (Entry) -> (UInt64, Int32)) -> Progress {
        let last = list.last.map(identity)
        return Progress(count: dropped + list.count, lastTime: last?.0, lastThread: last?.1)
    }

    /// Whether `list` is the list `progress` was painted from, grown or not.
    private static func continues<Entry>(_ progress: Progress, in list: [Entry], dropped: Int, _ identity: (Entry) -> (UInt64, Int32)) -> Bool {
        guard progress.count > 0 else { return true }
        let index = progress.count - 1 - dropped
        guard index < list.count else { return false }
        guard index >= 0 else { return true }
        let entry = identity(list[index])
        return entry.0 == progress.lastTime && entry.1 == progress.lastThread
    }
}

/// Which plot row shows a span or a mark, for the lanes in view.
struct LaneRows {
    /// What the rows show, to tell when a painted raster no longer fits: each shown lane's key, first row and height.
    struct Signature: Equatable {
        var keys: [TimelineLanes.Key] = []
        var rows: [Int] = []
        var heights: [Int] = []
    }

    let lanes: TimelineLanes
    let signature: Signature
    let rowCount: Int
    private let firstRows: [Int?]
    private let heights: [Int]

    init(geometry: TimelineGeometry) {
        lanes = geometry.lanes
        var signature = Signature()
        var firstRows = [Int?](repeating: nil, count: geometry.lanes.lanes.count)
        var heights = [Int](repeating: 0, count: geometry.lanes.lanes.count)
        for lane in geometry.firstLane..<(geometry.firstLane + geometry.visibleLanes) {
            guard let row = geometry.row(ofLane: lane) else { continue }
            firstRows[lane] = row
            heights[lane] = geometry.rowCount(ofLane: lane)
            signature.keys.append(geometry.lanes.lanes[lane].key)
            signature.rows.append(row)
            signature.heights.append(heights[lane])
        }
        self.signature = signature
        self.firstRows = firstRows
        self.heights = heights
        rowCount = max(0, geometry.plot.height)
    }

    /// The plot row of a span: its lane's, and in the queue view the row inside the lane it was placed on.
    func row(ofSpan span: Span) -> Int? {
        guard let lane = lanes.lane(thread: span.thread, queue: span.queue), let first = firstRows[lane] else { return nil }
        let subRow = lanes.subRow(of: span)
        return subRow < heights[lane] ? first + subRow : nil
    }

    /// The plot row of a mark or anything else with a thread and a queue: its lane's first row.
    func row(thread: Int32, queue: String) -> Int? {
        lanes.lane(thread: thread, queue: queue).flatMap { firstRows[$0] }
    }
}

/// How one span's bar fills the cells of its row: never over a bar already there (the one before it, or one it
/// overlaps where spans share a row), a blank column between it and such a bar when it is wide enough to spare one
/// (so neighbours of one colour stay apart), and its name inside, fitted to leave at least one cell of bar after it
/// (so two names never run together). A bar that runs into one already drawn stops before it.
enum SpanBar {
    static func paint(_ name: String, first: Int, last: Int, width: Int, style: CellStyle, ellipsis: String,
                      isBar: (Int) -> Bool, set: (Int, Cell) -> Void) {
        let last = max(first, last)
        guard last >= 0, first < width else { return }
        var from = max(0, first)
        while from <= last, from < width, isBar(from) { from += 1 }
        if from < last, from > 0, isBar(from - 1) { from += 1 }
        var to = min(last, width - 1)
        guard from <= to else { return }
        if let taken = (from...to).first(where: isBar) {
            to = taken - 2 >= from ? taken - 2 : taken - 1
        }
        guard from <= to else { return }
        let label = Array(SpanLabel.fitted(name, columns: to - from, ellipsis: ellipsis))
        for column in from...to {
            let offset = column - from
            set(column, Cell(offset < label.count ? label[offset] : " ", style))
        }
    }
}

/// A span's name fitted to a bar.
enum SpanLabel {
    /// `name` in at most `columns` columns: whole when it fits; else its head cut before `ellipsis`, keeping a
    /// trailing number whole ("download 12" → "dow…12"), since the number is what tells such spans apart; nothing
    /// when not even a letter and the ellipsis fit (a bare number or letter would read as a name of its own).
    static func fitted(_ name: String, columns: Int, ellipsis: String) -> String {
        guard columns > 0 else { return "" }
        if TextWidth.of(name) <= columns { return name }
        let ellipsisWidth = TextWidth.of(ellipsis)
        let digits = String(name.reversed().prefix { $0.isNumber }.reversed())
        let head = name.dropLast(digits.count).trimmingCharacters(in: .whitespaces)
        if !digits.isEmpty, !head.isEmpty {
            let room = columns - ellipsisWidth - TextWidth.of(digits)
            if room >= 1 {
                var kept = ""
                var used = 0
                for character in head {
                    used += TextWidth.of(character)
                    if used > room { break }
                    kept.append(character)
                }
                return kept.trimmingCharacters(in: .whitespaces) + ellipsis + digits
            }
        }
        return columns > ellipsisWidth ? TextWidth.truncated(name, to: columns, ellipsis: ellipsis) : ""
    }
}

/// Times on the monotonic clock to plot columns.
struct ColumnScale {
    let origin: UInt64
    let viewStart: Double
    let nanosecondsPerColumn: Double

    init(origin: UInt64, viewStart: Double, nanosecondsPerColumn: Double) {
        self.origin = origin
        self.viewStart = viewStart
        self.nanosecondsPerColumn = nanosecondsPerColumn
    }

    init(_ record: RunRecord, geometry: TimelineGeometry) {
        origin = record.startTime ?? 0
        viewStart = geometry.startSeconds * 1e9
        nanosecondsPerColumn = geometry.secondsPerColumn * 1e9
    }

    /// The time on the monotonic clock at the left edge of plot column `column`.
    func time(atColumn column: Int) -> UInt64 {
        let offset = viewStart + Double(column) * nanosecondsPerColumn
        return offset <= 0 ? origin : origin &+ UInt64(offset)
    }

    func column(of time: UInt64) -> Int {
        Int(((Double(Int64(bitPattern: time &- origin)) - viewStart) / nanosecondsPerColumn).rounded(.down))
    }
}
