import TourCore

/// The concurrency meter above the lanes: how many of the page's threads were running, and how many spans were
/// open, over the time the lanes show, against the machine's processor count.
///
/// Each column shows the average over its stretch of time, as a bar from empty to full: on the `run` row a full
/// cell is every core busy; on the `open` row it is the widest `maxConcurrentOperationCount` the page announced for
/// a queue its spans ran on (its ceiling), or the core count when it announced none. An average above the full mark
/// is written as its number instead, highlighted: more threads running than there are cores (oversubscription), or
/// more spans open than the ceiling.
enum ConcurrencyMeter {
    /// The rows the meter takes at the top of a timeline pane `height` rows high: both rows when the lanes still get
    /// most of the pane, one (running only) when it is short, none when there is hardly room for lanes.
    static func rows(forPaneHeight height: Int) -> Int {
        height >= 12 ? 2 : height >= 8 ? 1 : 0
    }

    /// Draws the meter's rows from `geometry.meterRow`, titled in the lanes' title column.
    static func draw(_ record: RunRecord, reached: UInt64, geometry: TimelineGeometry, cores: Int?, glyphs: Glyphs,
                     into buffer: inout CellBuffer) {
        guard geometry.meterRows > 0 else { return }
        let columns = ColumnScale(record, geometry: geometry)
        let width = geometry.plot.width
        let running = averages(of: runningStretches(record), columns: columns, width: width, reached: reached)
        drawRow(running, full: cores, title: cores.map { "run/\($0)" } ?? "run", over: .warning, y: geometry.meterRow,
                geometry: geometry, glyphs: glyphs, into: &buffer)
        guard geometry.meterRows > 1 else { return }
        let ceiling = self.ceiling(record)
        let open = averages(of: openStretches(record, reached: reached), columns: columns, width: width, reached: reached)
        drawRow(open, full: ceiling ?? cores, title: ceiling.map { "open/\($0)" } ?? "open", over: .accent,
                y: geometry.meterRow + 1, geometry: geometry, glyphs: glyphs, into: &buffer)
    }

    /// The widest width the page announced for a queue that ran spans; nil when it announced none (or only
    /// unlimited ones).
    static func ceiling(_ record: RunRecord) -> Int? {
        record.queues.compactMap { record.queueWidths[$0] }.filter { $0 > 0 }.max()
    }

    /// Time stretches, in nanoseconds on the run's clock, during which a thread was running.
    private static func runningStretches(_ record: RunRecord) -> [(start: UInt64, end: UInt64)] {
        record.threadStates.values.flatMap { stretches in
            stretches.lazy.filter { $0.state == .running }.map { (start: $0.start, end: $0.end) }
        }
    }

    /// Each span's stretch, open ones up to `reached`.
    private static func openStretches(_ record: RunRecord, reached: UInt64) -> [(start: UInt64, end: UInt64)] {
        record.spans.map { (start: $0.start, end: $0.end ?? reached) }
            + record.openSpans.values.map { (start: $0.start, end: max($0.start, reached)) }
    }

    /// The average number of stretches under way in each column: the time they overlap it over the column's length.
    /// Columns past `reached` are nil (nothing known yet).
    static func averages(of stretches: [(start: UInt64, end: UInt64)], columns: ColumnScale, width: Int,
                         reached: UInt64) -> [Double?] {
        guard width > 0, columns.nanosecondsPerColumn > 0 else { return [] }
        var sums = [Double](repeating: 0, count: width)
        let origin = Double(columns.origin) + columns.viewStart, step = columns.nanosecondsPerColumn
        for stretch in stretches where stretch.end > stretch.start {
            let from = Double(stretch.start) - origin, to = Double(stretch.end) - origin
            let first = max(0, Int((from / step).rounded(.down))), last = min(width - 1, Int((to / step).rounded(.down)))
            guard first <= last else { continue }
            for column in first...last {
                let left = Double(column) * step
                sums[column] += min(to, left + step) - max(from, left)
            }
        }
        let lastKnown = columns.column(of: reached)
        return sums.indices.map { $0 <= lastKnown ? sums[$0] / step : nil }
    }

    /// One row: its title, then a level per column against `full` (the peak itself when `full` is unknown).
    private static func drawRow(_ values: [Double?], full: Int?, title: String, over: PaletteColor, y: Int,
                                geometry: TimelineGeometry, glyphs: Glyphs, into buffer: inout CellBuffer) {
        let muted = CellStyle(foreground: .muted)
        buffer.write(TextWidth.padded(title, to: geometry.labels.width, ellipsis: glyphs.ellipsis), x: geometry.labels.x, y: y, style: muted)
        buffer.set(Cell(glyphs.vertical, muted), x: geometry.plot.x - 1, y: y)
        let scale = Double(full ?? max(1, Int((values.compactMap { $0 }.max() ?? 1).rounded(.up))))
        let levels = glyphs.levels
        for (column, value) in values.enumerated() {
            guard let value else { break }
            let x = geometry.plot.x + column
            if value > scale + 0.25 {
                let count = Int(value.rounded())
                buffer.set(Cell(count > 9 ? "+" : Character(String(count)), CellStyle(foreground: over, bold: true, reverse: true)), x: x, y: y)
            } else {
                let level = min(levels.count - 1, Int((value / scale * Double(levels.count - 1)).rounded()))
                buffer.set(Cell(levels[level], CellStyle(foreground: level == 0 ? .muted : .running)), x: x, y: y)
            }
        }
    }
}
