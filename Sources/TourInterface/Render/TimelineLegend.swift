import TourCore

/// The timeline's key to its colours: for each queue the run has seen, in the order it met them, its swatch
/// (its letter in its colour) and its label. A lane is a thread; the colour of a bar or mark says which queue it ran on.
enum TimelineLegend {
    struct Entry: Equatable {
        /// The queue's swatch before the text; nil for the note of queues left out.
        var swatch: Cell?
        var text: String

        var width: Int { (swatch == nil ? 0 : 2) + TextWidth.of(text) }
    }

    /// Columns between entries.
    private static let gap = 2

    /// The legend laid out in rows of `width`, at most `maxRows` of them. Labels lose their `com.apple.` when
    /// that lets more queues fit; when they still do not all fit, the last row ends with how many were left
    /// out ("+2 more"), and the info row names the queue of a selection.
    ///
    /// With `states` (the thread view of a run whose threads were sampled), the key to the thread states comes first.
    static func rows(_ record: RunRecord, width: Int, maxRows: Int, states: Bool = false, glyphs: Glyphs) -> [[Entry]] {
        let whole = rows(record, width: width, maxRows: maxRows, short: false, states: states, glyphs: glyphs)
        guard whole.last?.last?.swatch == nil, !whole.isEmpty else { return whole }
        return rows(record, width: width, maxRows: maxRows, short: true, states: states, glyphs: glyphs)
    }

    private static func rows(_ record: RunRecord, width: Int, maxRows: Int, short: Bool, states: Bool, glyphs: Glyphs) -> [[Entry]] {
        guard width > 4, maxRows > 0 else { return [] }
        // A swatch and a space come before each label.
        var entries = record.queues.map {
            Entry(swatch: Formatting.queueSwatch($0, in: record), text: Formatting.queueLabel($0, width: width - 2, short: short, glyphs: glyphs))
        }
        if states && !record.threadStates.isEmpty {
            let muted = CellStyle(foreground: .muted)
            entries.insert(contentsOf: [Entry(swatch: Cell(glyphs.threadWaiting, muted), text: "waiting"),
                                        Entry(swatch: Cell(glyphs.threadRunning, muted), text: "running, no span")], at: 0)
        }
        var rows: [[Entry]] = []
        var used = 0
        var placed = 0
        for entry in entries {
            if rows.isEmpty || used + gap + entry.width > width {
                if rows.count == maxRows { break }
                rows.append([])
                used = -gap
            }
            rows[rows.count - 1].append(entry)
            used += gap + entry.width
            placed += 1
        }
        guard placed < entries.count else { return rows }
        // Make room at the end of the last row to say how many queues are not shown.
        func more() -> Entry { Entry(swatch: nil, text: "+\(entries.count - placed) more") }
        while let last = rows.last, !last.isEmpty,
              last.map(\.width).reduce(0, +) + gap * last.count + more().width > width {
            rows[rows.count - 1].removeLast()
            placed -= 1
        }
        rows[rows.count - 1].append(more())
        return rows
    }

    /// How many rows the whole legend takes at `width`.
    static func rowCount(_ record: RunRecord, width: Int, states: Bool = false, glyphs: Glyphs) -> Int {
        rows(record, width: width, maxRows: record.queues.count + 2, states: states, glyphs: glyphs).count
    }

    /// Draws the legend's rows from `y` down, from `x`, inside `clip`.
    static func draw(_ rows: [[Entry]], x: Int, y: Int, clip: Rect, into buffer: inout CellBuffer) {
        for (offset, entries) in rows.enumerated() {
            var column = x
            for entry in entries {
                let style = CellStyle(foreground: entry.swatch?.style.foreground ?? .muted)
                if let swatch = entry.swatch {
                    buffer.set(swatch, x: column, y: y + offset, clip: clip)
                    column += 2
                }
                column = buffer.write(entry.text, x: column, y: y + offset, style: style, clip: clip) + gap
            }
        }
    }
}
