import TourCore
import PageProtocol

/// One entry of the output pane before wrapping: a line the page wrote, or a line the tutorial adds about the run.
struct OutputEntry {
    /// The gutter: stream marker, time and thread; continuation rows are indented past it.
    var prefix: [Cell]
    var text: String
    var style: CellStyle
}

/// The output pane's entries, oldest first: the page's lines, then what the tutorial says about the run's
/// end. Built on demand by index, so a long run's thousands of lines are not copied for each frame.
struct OutputEntries {
    private let record: RunRecord?
    private let glyphs: Glyphs
    private let leading: [OutputEntry]
    private let trailing: [OutputEntry]
    /// The columns a printed line's queue label takes after its swatch; 0 shows the swatch alone.
    private let queueLabelWidth: Int

    init(record: RunRecord?, glyphs: Glyphs, showsQueueLabels: Bool = false) {
        self.record = record
        self.glyphs = glyphs
        queueLabelWidth = showsQueueLabels ? record.map { Self.queueColumnWidth($0, glyphs: glyphs) } ?? 0 : 0
        let muted = CellStyle(foreground: .muted)
        guard let record else {
            leading = [OutputEntry(prefix: [], text: "Press r to run this page: what it prints appears here.", style: muted)]
            trailing = []
            return
        }
        leading = record.droppedOutputLines > 0
            ? [OutputEntry(prefix: [], text: "\(glyphs.ellipsis) \(record.droppedOutputLines) earlier lines were dropped to bound memory", style: muted)]
            : []
        trailing = Self.closingEntries(of: record, glyphs: glyphs)
    }

    /// The page's output pane: its exercise's last check's run when that is shown (`C`), else its build while one
    /// decides the page's state, else its last run.
    init(page: PageState, glyphs: Glyphs, showsQueueLabels: Bool = false) {
        if !page.showsCheckRun, let entries = BuildOutputEntries.entries(for: page, glyphs: glyphs) {
            self.init(record: nil, glyphs: glyphs, leading: entries, trailing: [])
        } else {
            self.init(record: page.shownRecord, glyphs: glyphs, showsQueueLabels: showsQueueLabels)
        }
    }

    private init(record: RunRecord?, glyphs: Glyphs, leading: [OutputEntry], trailing: [OutputEntry]) {
        self.record = record
        self.glyphs = glyphs
        self.leading = leading
        self.trailing = trailing
        queueLabelWidth = 0
    }

    var count: Int { leading.count + (record?.output.count ?? 0) + trailing.count }

    subscript(index: Int) -> OutputEntry {
        if index < leading.count { return leading[index] }
        let outputIndex = index - leading.count
        if let record, outputIndex < record.output.count {
            return Self.entry(for: record.output[outputIndex], in: record, glyphs: glyphs, queueLabelWidth: queueLabelWidth)
        }
        return trailing[outputIndex - (record?.output.count ?? 0)]
    }

    /// stderr gets a marker and its own colour; lines printed through LessonKit carry their time, the lane of
    /// their thread and the swatch of the queue that thread was running, with its label when the pane is wide.
    private static func entry(for line: OutputLine, in record: RunRecord, glyphs: Glyphs, queueLabelWidth: Int) -> OutputEntry {
        var prefix: [Cell] = []
        var style = CellStyle.plain
        if line.stream == .stderr {
            prefix.append(Cell(glyphs.failed, CellStyle(foreground: .stderr, bold: true)))
            style = CellStyle(foreground: .stderr)
        } else {
            prefix.append(.blank)
        }
        if let thread = line.thread {
            let queue = line.queue ?? ""
            let time = TextWidth.padded(Formatting.timestamp(record.seconds(at: line.time)), to: 6)
            let lane = TextWidth.padded(record.laneName(of: thread), to: 4)
            prefix += " \(time) ".map { Cell($0, CellStyle(foreground: .muted)) }
            prefix += "\(lane) ".map { Cell($0, CellStyle(foreground: .accent, dim: true)) }
            prefix += [Formatting.queueSwatch(queue, in: record), .blank]
            if queueLabelWidth > 0 {
                let label = TextWidth.padded(Formatting.queueLabel(queue, width: queueLabelWidth, glyphs: glyphs), to: queueLabelWidth)
                prefix += "\(label) ".map { Cell($0, CellStyle(foreground: Formatting.queueColor(queue, in: record))) }
            }
        } else {
            prefix.append(.blank)
        }
        return OutputEntry(prefix: prefix, text: TerminalText.sanitized(line.text), style: style)
    }

    /// The gutter's queue column: as wide as the widest label the run has seen, up to 20 columns.
    private static func queueColumnWidth(_ record: RunRecord, glyphs: Glyphs) -> Int {
        record.queues.map { TextWidth.of(Formatting.queueLabel($0, width: 20, glyphs: glyphs)) }.max() ?? 0
    }

    /// Unreadable trace lines, what went beyond the record's caps, and once the run is over, how it ended in words with what that means.
    private static func closingEntries(of record: RunRecord, glyphs: Glyphs) -> [OutputEntry] {
        var entries: [OutputEntry] = []
        if record.rejectedTraceLines > 0 {
            let reason = record.lastRejection.map { ", the last: \($0)" } ?? ""
            entries.append(OutputEntry(prefix: [], text: "\(record.rejectedTraceLines) trace lines could not be read and were skipped\(reason)",
                                       style: CellStyle(foreground: .warning)))
        }
        // What went beyond the record's caps, in the words plain mode uses ("12,004 results beyond the cap …").
        for note in record.dropNotes(includingOutput: false) {
            entries.append(OutputEntry(prefix: [], text: note, style: CellStyle(foreground: .warning)))
        }
        guard let ending = record.ending else { return entries }
        let status = RunStatus(record)
        let seconds = record.endTime.map { record.seconds(at: $0) } ?? 0
        entries.append(OutputEntry(prefix: [], text: "", style: .plain))
        entries.append(OutputEntry(prefix: [], text: "\(status.glyph(glyphs)) \(ending.headline) after \(Formatting.duration(seconds, glyphs: glyphs))",
                                   style: CellStyle(foreground: status.color, bold: true)))
        if let expectation = record.expectation, record.endedAsExpected {
            entries.append(OutputEntry(prefix: [], text: "As the page announced: \(expectation.reason).", style: CellStyle(foreground: .success)))
        }
        if !ending.isNormalExit {
            // The explanation marks code with backticks, as plain mode prints it; the pane shows the words a reader sees.
            entries.append(OutputEntry(prefix: [], text: InlineMarkup.spans(in: ending.explanation, backslashEscapes: false).plainText,
                                       style: .plain))
        }
        return entries
    }
}

/// The output pane: the newest lines at the bottom unless scrolled back, long lines wrapped under their text.
enum OutputView {
    static func draw(_ model: TourModel, in inner: Rect, into buffer: inout CellBuffer) {
        let page = model.currentPage
        // A narrow pane shows each printed line's queue by its swatch, which the timeline's legend spells out.
        let entries = OutputEntries(page: page, glyphs: model.glyphs, showsQueueLabels: inner.width >= 70)
        guard inner.height > 0, inner.width > 4, entries.count > 0 else { return }
        var row = inner.maxY - 1
        var index = entries.count - 1 - min(page.outputScrollBack, entries.count - 1)
        while row >= inner.y && index >= 0 {
            let rows = wrappedRows(of: entries[index], width: inner.width)
            for cells in rows.reversed() where row >= inner.y {
                buffer.write(cells, x: inner.x, y: row, clip: inner)
                row -= 1
            }
            index -= 1
        }
    }

    /// Where a row of output starting at `start` ends: after the last space that fits, so a word is split only when it
    /// is longer than the row ("waitUntilAllOperationsAreFinished" stays whole on a narrow pane).
    static func wordBreak(in characters: [Character], from start: Int, width: Int) -> Int {
        guard characters.count - start > width else { return characters.count }
        let hardEnd = start + width
        // The space right after the row's last character fits too: the row ends with the whole word.
        if characters[hardEnd] == " " { return hardEnd + 1 }
        if let space = characters[(start + 1)..<hardEnd].lastIndex(of: " ") { return space + 1 }
        return hardEnd
    }

    /// An entry's rows: the prefix, then its text, spaces kept as the page wrote them, continued under
    /// the text's first column when it is longer than the pane is wide.
    static func wrappedRows(of entry: OutputEntry, width: Int) -> [[Cell]] {
        // Continuation rows line up under the text while that leaves room for it, else they take the whole width.
        let indent = width - entry.prefix.count >= 40 ? entry.prefix.count : 2
        let characters = Array(entry.text)
        var rows: [[Cell]] = []
        var start = 0
        repeat {
            let lead = rows.isEmpty ? entry.prefix : Array(repeating: Cell.blank, count: indent)
            let end = wordBreak(in: characters, from: start, width: max(1, width - lead.count))
            rows.append(lead + characters[start..<end].map { Cell($0, entry.style) })
            start = end
        } while start < characters.count
        return rows
    }
}
