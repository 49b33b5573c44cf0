import TourCore

/// The timeline's phase view: the phases a page marked (`phase(name) { … }`, one workload written different ways)
/// laid over one another on one time axis, each shifted to start at zero, so their lengths and their use of threads
/// line up. Each phase has a title with what the trace says of it (its length, the threads its work ran on, its hops
/// between threads and their median cost), then a row per thread with its spans as bars and its hops as marks where
/// the work arrived. When the pane is too short for every thread, each phase gets one row instead: how many of its
/// threads were busy in each column.
enum PhasesTimelineView {
    static func draw(_ model: TourModel, record: RunRecord, in inner: Rect, into buffer: inout CellBuffer) {
        let glyphs = model.glyphs
        let phases = record.phaseSummaries()
        let muted = CellStyle(foreground: .muted)
        guard !phases.isEmpty else {
            buffer.writeWrapped("No phases in this run. A page that runs one workload several ways wraps each in "
                                + "phase(\"name\") { … }; then they are laid over one another here. t: back to the threads.",
                                in: inner, style: muted)
            return
        }
        let reached = record.reachedTime(now: model.now)
        let lengths = phases.map { Double(($0.phase.end ?? reached) &- $0.phase.start) / 1e9 }
        let longest = max(lengths.max() ?? 0, 1e-6)
        let labelWidth = min(8, max(4, inner.width / 8))
        let plot = Rect(x: inner.x + labelWidth + 1, y: inner.y, width: max(1, inner.width - labelWidth - 1), height: inner.height)
        let secondsPerColumn = longest / Double(plot.width)
        let rowsForPhases = max(0, inner.height - 2)
        let fullRows = phases.reduce(0) { $0 + 1 + $1.threads.count }
        let perThread = fullRows <= rowsForPhases

        var y = inner.y
        var shown = 0
        for (summary, length) in zip(phases, lengths) {
            let needed = 1 + (perThread ? summary.threads.count : 1)
            guard y + needed <= inner.y + rowsForPhases else { break }
            buffer.write(TextWidth.truncated(summary.headline(length: length, micro: glyphs.micro), to: inner.width,
                                             ellipsis: glyphs.ellipsis),
                         x: inner.x, y: y, style: CellStyle(foreground: summary.phase.end == nil ? .running : .heading, bold: true),
                         clip: inner)
            y += 1
            func column(_ time: UInt64) -> Int {
                Int((Double(time &- summary.phase.start) / 1e9 / secondsPerColumn).rounded(.down))
            }
            if perThread {
                for thread in summary.threads {
                    buffer.write(TextWidth.truncated(" " + record.laneName(of: thread), to: labelWidth, ellipsis: glyphs.ellipsis),
                                 x: inner.x, y: y, style: muted, clip: inner)
                    buffer.set(Cell(glyphs.vertical, muted), x: plot.x - 1, y: y)
                    var painted = Set<Int>()
                    for span in summary.work where span.thread == thread {
                        let style = CellStyle(foreground: Formatting.queueColor(span.queue, in: record), bold: span.end == nil, reverse: true)
                        SpanBar.paint(shortName(span.name, phase: summary.phase.name), first: column(span.start),
                                      last: column(span.end ?? reached), width: plot.width, style: style,
                                      ellipsis: glyphs.ellipsis, isBar: { painted.contains($0) }) { offset, cell in
                            painted.insert(offset)
                            buffer.set(cell, x: plot.x + offset, y: y)
                        }
                    }
                    // A hand-off that arrived on a letter of a bar underlines it, as marks do in the thread view,
                    // so the name stays whole.
                    for handOff in summary.handOffs where handOff.endThread == thread {
                        let hop = handOff.endThread != handOff.thread
                        let at = column(handOff.end ?? reached)
                        guard at >= 0, at < plot.width else { continue }
                        var cell = buffer[plot.x + at, y]
                        if painted.contains(at), cell.character != " " {
                            cell.style.underline = true
                            cell.style.bold = cell.style.bold || hop
                        } else {
                            cell = Cell(glyphs.mark, CellStyle(foreground: hop ? .warning : .muted, bold: hop))
                        }
                        buffer.set(cell, x: plot.x + at, y: y)
                    }
                    y += 1
                }
            } else {
                buffer.write(TextWidth.truncated(" open", to: labelWidth, ellipsis: glyphs.ellipsis), x: inner.x, y: y, style: muted,
                             clip: inner)
                buffer.set(Cell(glyphs.vertical, muted), x: plot.x - 1, y: y)
                for offset in 0..<plot.width {
                    let from = summary.phase.start &+ UInt64(Double(offset) * secondsPerColumn * 1e9)
                    let to = summary.phase.start &+ UInt64(Double(offset + 1) * secondsPerColumn * 1e9)
                    let busy = Set(summary.work.filter { $0.start < to && ($0.end ?? reached) > from }.map(\.thread)).count
                    guard busy > 0 else { continue }
                    buffer.set(Cell(busy > 9 ? "+" : Character("\(busy)"), CellStyle(foreground: .running, reverse: true)),
                               x: plot.x + offset, y: y)
                }
                y += 1
            }
            shown += 1
        }
        drawAxis(longest: longest, plot: plot, y: inner.y + inner.height - 2, glyphs: glyphs, into: &buffer)
        let hidden = phases.count - shown
        let key = perThread ? "\(glyphs.mark) where a hand-off arrived (bright: a hop to another thread)" : "digits: threads with a span open"
        let info = "\(phases.count) phases aligned at their starts  \(key)" + (hidden > 0 ? "  +\(hidden) more: z zooms" : "")
            + "  t view"
        buffer.write(TextWidth.truncated(info, to: inner.width, ellipsis: glyphs.ellipsis), x: inner.x, y: inner.y + inner.height - 1,
                     style: muted, clip: inner)
    }

    /// A span's name without its phase's name in front ("operations: download coffee" reads "download coffee").
    static func shortName(_ name: String, phase: String) -> String {
        name.hasPrefix(phase + ": ") ? String(name.dropFirst(phase.count + 2)) : name
    }

    /// The shared axis: a rule from the phases' common start, "0", to the longest one's end.
    private static func drawAxis(longest: Double, plot: Rect, y: Int, glyphs: Glyphs, into buffer: inout CellBuffer) {
        let muted = CellStyle(foreground: .muted)
        for offset in 0..<plot.width {
            buffer.set(Cell(glyphs.horizontal, muted), x: plot.x + offset, y: y)
        }
        buffer.write("0", x: plot.x, y: y, style: muted)
        let end = Formatting.duration(longest, glyphs: glyphs)
        buffer.write(end, x: max(plot.x + 2, plot.x + plot.width - TextWidth.of(end)), y: y, style: muted, clip: plot)
    }
}
