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
        var threads: [Int32]
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

    /// Draws the marks, over whatever bars are there, each in the colour of its queue.
    func paintMarks(_ record: RunRecord, geometry: TimelineGeometry, glyph: Character, into buffer: inout CellBuffer) {
        lock.withLock {
            update(record, geometry: geometry)
            for (row, cells) in markCells.enumerated() {
                for (column, color) in cells.enumerated() {
                    guard let color else { continue }
                    buffer.set(Cell(glyph, CellStyle(foreground: color, bold: true)), x: geometry.plot.x + column, y: geometry.plot.y + row)
                }
            }
        }
    }

    private func update(_ record: RunRecord, geometry: TimelineGeometry) {
        let lanes = LaneRows(record, geometry: geometry)
        let columns = ColumnScale(record, geometry: geometry)
        let current = View(threads: lanes.threads, width: max(0, geometry.plot.width), origin: columns.origin,
                           viewStart: columns.viewStart, nanosecondsPerColumn: columns.nanosecondsPerColumn)
        let sameSpans = Self.continues(spans, in: record.spans, dropped: record.droppedSpans) { ($0.end ?? $0.start, $0.thread) }
        let sameMarks = Self.continues(marks, in: record.marks, dropped: record.droppedMarks) { ($0.time, $0.thread) }
        if current != view || !sameSpans || !sameMarks {
            view = current
            spanCells = Array(repeating: Array(repeating: nil, count: current.width), count: lanes.threads.count)
            markCells = Array(repeating: Array(repeating: nil, count: current.width), count: lanes.threads.count)
            spans = Progress()
            marks = Progress()
        }
        let firstSpan = max(0, spans.count - record.droppedSpans)
        for index in firstSpan..<record.spans.count {
            let span = record.spans[index]
            paint(span, color: Formatting.queueColor(span.queue, in: record), runEnd: record.endTime, lanes: lanes, columns: columns,
                  width: current.width)
        }
        spans = Self.progress(of: record.spans, dropped: record.droppedSpans) { ($0.end ?? $0.start, $0.thread) }
        let firstMark = max(0, marks.count - record.droppedMarks)
        for index in firstMark..<record.marks.count {
            let mark = record.marks[index]
            let column = columns.column(of: mark.time)
            if let row = lanes.row(of: mark.thread), column >= 0, column < current.width {
                markCells[row][column] = Formatting.queueColor(mark.queue, in: record)
            }
        }
        marks = Self.progress(of: record.marks, dropped: record.droppedMarks) { ($0.time, $0.thread) }
    }

    /// A bar is its queue's colour, bold when the run ended before the span did (it reaches the end of the
    /// run); a span that would only repaint a cell its lane already has is skipped, which is most of them
    /// when a long run is in view.
    private func paint(_ span: Span, color: PaletteColor, runEnd: UInt64?, lanes: LaneRows, columns: ColumnScale, width: Int) {
        guard let row = lanes.row(of: span.thread) else { return }
        let first = columns.column(of: span.start)
        let last = max(first, columns.column(of: span.end ?? runEnd ?? span.start))
        guard last >= 0, first < width else { return }
        if first == last && spanCells[row][first] != nil { return }
        let style = CellStyle(foreground: color, bold: span.end == nil, reverse: true)
        var name = span.name.makeIterator()
        for _ in first..<max(first, 0) { _ = name.next() }
        for column in max(0, first)...min(last, width - 1) {
            spanCells[row][column] = Cell(name.next() ?? " ", style)
        }
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

/// Which plot row shows a thread's lane, for the lanes in view; a handful, so a plain loop beats hashing.
struct LaneRows {
    let threads: [Int32]

    init(_ record: RunRecord, geometry: TimelineGeometry) {
        threads = Array(record.threads.dropFirst(geometry.firstLane).prefix(geometry.visibleLanes).map(\.thread))
    }

    func row(of thread: Int32) -> Int? {
        var row = 0
        while row < threads.count {
            if threads[row] == thread { return row }
            row += 1
        }
        return nil
    }
}

/// Times on the monotonic clock to plot columns.
struct ColumnScale {
    let origin: UInt64
    let viewStart: Double
    let nanosecondsPerColumn: Double

    init(_ record: RunRecord, geometry: TimelineGeometry) {
        origin = record.startTime ?? 0
        viewStart = geometry.startSeconds * 1e9
        nanosecondsPerColumn = geometry.secondsPerColumn * 1e9
    }

    func column(of time: UInt64) -> Int {
        Int(((Double(Int64(bitPattern: time &- origin)) - viewStart) / nanosecondsPerColumn).rounded(.down))
    }
}
