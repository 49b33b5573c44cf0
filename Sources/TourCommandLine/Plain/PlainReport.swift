import Foundation
import PageProtocol
import TourCore

/// The line-oriented face of a run, for pipes, CI, tests and screen readers: live lines as events arrive,
/// then the results by line, a text timeline with one lane per thread, the page's deep dives, and how the run ended.
///
/// Everything the page said (its output, names, results and reasons) goes through `TerminalText.sanitized` on its way
/// into a line, so no escape sequence of the page's reaches the terminal even when the report itself is in colour;
/// `PlainStyle.printable` finishes each line where it is printed.
public struct PlainReport: Sendable {
    public var style: PlainStyle
    /// Columns of the text timeline, not counting lane titles.
    public var timelineWidth: Int
    /// The machine's cores, read by the caller when the run started, for the oversubscription warning; nil skips it.
    public var cores: Int?

    public init(style: PlainStyle, timelineWidth: Int = 60, cores: Int? = nil) {
        self.style = style
        self.timelineWidth = timelineWidth
        self.cores = cores
    }

    /// The header printed before the page starts; a run with a seed says it, so a log shows which rehearsal it was.
    public func header(page: Page, of count: Int, speed: Double, knobs: [KnobSetting], seed: UInt64? = nil) -> [String] {
        let settings = [speed == 1 ? nil : "speed \(Self.number(speed))×", seed.map { "seed \($0)" }].compactMap { $0 }
        var lines = [style.bold(TerminalText.sanitized("ConcurrencyTour · page \(page.number) of \(count): \(page.title)"))
                     + (settings.isEmpty ? "" : "  (\(settings.joined(separator: ", ")))")]
        if !knobs.isEmpty {
            lines.append(TerminalText.sanitized("knobs set: " + knobs.map(\.assignment).joined(separator: ", ")))
        }
        lines.append("")
        return lines
    }

    /// The live line for `event`, if it is one a reader follows as it happens; `record` already includes it.
    public func liveLine(for event: HostEvent, in record: RunRecord) -> String? {
        switch event {
        case .output(let line):
            let time = String(format: "%8.3fs", record.seconds(at: line.time))
            let source: String
            switch (line.stream, line.thread) {
            case (.stderr, _): source = "stderr  "
            // A printed line names its thread's lane, then the queue that thread was running in brackets.
            case (_, let thread?):
                source = record.laneName(of: thread).padding(toLength: 4, withPad: " ", startingAt: 0) + "  [\(QueueLabel.shown(line.queue ?? ""))] "
            case (.stdout, nil): source = "stdout  "
            }
            let text = TerminalText.sanitized("\(time)  \(source) \(line.text)")
            return line.stream == .stderr ? style.red(text) : text
        case .trace(let trace):
            guard case .expect(let ending, let why) = trace.kind else { return nil }
            return style.dim(TerminalText.sanitized("          (the page expects to end with a \(ending.rawValue): \(why))"))
        default:
            return nil
        }
    }

    /// Everything printed once the run has ended; `source` is the page's `main.swift` as the caller read it, for the
    /// code beside each result and the deep dives (the report reads no files).
    public func summary(of record: RunRecord, source: String) -> [String] {
        var lines: [String] = [""]
        lines += knobLines(record)
        lines += resultLines(record, source: source)
        lines += timelineLines(record)
        lines += phaseLines(record)
        lines += warningLines(record)
        lines += losses(record)
        lines += deepDiveLines(source)
        lines += endingLines(record)
        return lines
    }

    /// The run's warnings (`TraceWarnings`), each with its lane and time, the first `shownWarnings` of them: a page that
    /// leaves ten thousand operations unfinished gets a count, not ten thousand lines. None, no section.
    private func warningLines(_ record: RunRecord) -> [String] {
        let warnings = TraceWarnings.of(record, cores: cores)
        guard !warnings.isEmpty else { return [] }
        var lines = [style.bold("Warnings")]
        for warning in warnings.prefix(Self.shownWarnings) {
            let place = String(format: "%8.3fs  ", record.seconds(at: warning.time)) + record.laneName(of: warning.thread).padding(toLength: 4, withPad: " ", startingAt: 0)
            let text = TerminalText.sanitized("\(place)  \(warning.text)")
            lines.append(warning.expected == nil ? style.red(text) : text)
        }
        if warnings.count > Self.shownWarnings {
            lines.append("… and \(CountText.grouped(warnings.count - Self.shownWarnings)) more warnings; the interface's W steps through each")
        }
        lines.append("")
        return lines
    }

    static let shownWarnings = 20

    /// The phases the page marked, one line each, as the interface's phase view titles them. None, no section.
    private func phaseLines(_ record: RunRecord) -> [String] {
        let phases = record.phaseSummaries()
        guard !phases.isEmpty else { return [] }
        let end = record.endTime ?? .max
        return [style.bold("Phases") + "  laid over one another in the interface's timeline (t)"]
            + phases.map { summary in
                TerminalText.sanitized("  " + summary.headline(length: Double((summary.phase.end ?? end) &- summary.phase.start) / 1e9))
            } + [""]
    }

    private func knobLines(_ record: RunRecord) -> [String] {
        guard !record.knobs.isEmpty else { return [] }
        var lines = [style.bold("Knobs")]
        for knob in record.knobs {
            let range: String
            switch knob.type {
            case .int: range = "\(knob.minimum ?? 0)…\(knob.maximum ?? 0)"
            case .bool: range = "true/false"
            case .choice: range = knob.choices.joined(separator: "/")
            }
            let changed = knob.value == knob.defaultValue ? "" : " (default \(knob.defaultValue))"
            lines.append(TerminalText.sanitized("  \(knob.name) = \(knob.value)\(changed)   [\(range)]   --set \(knob.name)=…"))
        }
        lines.append("")
        return lines
    }

    private func resultLines(_ record: RunRecord, source: String) -> [String] {
        guard !record.results.isEmpty else { return [] }
        let source = source.components(separatedBy: "\n")
        var lines = [style.bold("Results by line")]
        let sorted = record.results.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        for result in sorted.prefix(Self.listedResults) {
            let count = result.count > 1 ? "  (×\(result.count), latest)" : ""
            var code = ""
            if result.file == "main.swift", result.line >= 1, result.line <= source.count {
                code = source[result.line - 1].trimmingCharacters(in: .whitespaces)
                if code.count > 48 { code = String(code.prefix(47)) + "…" }
            }
            let location = "\(result.file):\(result.line)".padding(toLength: 16, withPad: " ", startingAt: 0)
            lines.append(TerminalText.sanitized("  \(location) \(code.padding(toLength: 48, withPad: " ", startingAt: 0))  → \(result.text)\(count)"))
        }
        if sorted.count > Self.listedResults { lines.append("  … and \(CountText.grouped(sorted.count - Self.listedResults)) more") }
        lines.append("")
        return lines
    }

    private func timelineLines(_ record: RunRecord) -> [String] {
        guard let start = record.startTime else { return [] }
        let end = record.endTime ?? record.spans.compactMap(\.end).max() ?? start
        let total = max(Double(end &- start) / 1e9, 0.001)
        let column = total / Double(timelineWidth)
        var lines = [style.bold("Timeline") + String(format: "  0 to %.3f s, one column = %@", total, DurationText.seconds(column))]
        // "T3 #4242": the lane's name, then the kernel thread id that `ps -L` and `top -H` show.
        let titles = record.threads.map { TerminalText.sanitized("\($0.name) #\($0.thread)") }
        let titleWidth = titles.map(\.count).max() ?? 4
        // One pass over spans and marks, not one per lane: a run may have a thousand lanes and 50,000 spans.
        let spansByThread = Dictionary(grouping: record.spans, by: \.thread)
        let marksByThread = Dictionary(grouping: record.marks, by: \.thread)
        var lanesShown = 0, lanesLeft = 0
        for (lane, title) in zip(record.threads, titles) {
            let busy = spansByThread[lane.thread] != nil || marksByThread[lane.thread] != nil
            guard busy || lane.isMain else { continue }
            guard lanesShown < Self.listedLanes else {
                lanesLeft += 1
                continue
            }
            lanesShown += 1
            var cells = Array(repeating: style.emptyCharacter, count: timelineWidth)
            for span in spansByThread[lane.thread] ?? [] {
                let first = columnIndex(span.start, start: start, column: column)
                let last = columnIndex(span.end ?? end, start: start, column: column)
                let key = queueKey(span.queue, in: record)
                for index in first...max(first, last) { cells[index] = key }
            }
            for mark in marksByThread[lane.thread] ?? [] {
                cells[columnIndex(mark.time, start: start, column: column)] = style.markCharacter
            }
            lines.append("  " + title.padding(toLength: titleWidth, withPad: " ", startingAt: 0) + " |" + String(cells) + "|")
        }
        if lanesLeft > 0 { lines.append("  … and \(CountText.grouped(lanesLeft)) more lanes") }
        lines.append("  " + style.dim("\(style.markCharacter) mark   \(record.spans.count) spans, \(record.marks.count) marks on \(record.threads.count) threads"))
        lines += queueLegend(record)
        let listed = record.spans.sorted { $0.start < $1.start }.prefix(30)
        if !listed.isEmpty {
            lines.append("  Spans (start, duration, thread, queue):")
            for span in listed {
                lines.append(TerminalText.sanitized(String(format: "    %8.3fs  %@  %@  %@  [%@]", record.seconds(at: span.start),
                                    (span.duration.map { DurationText.seconds($0) } ?? "open").padding(toLength: 9, withPad: " ", startingAt: 0),
                                    record.laneName(of: span.thread).padding(toLength: 5, withPad: " ", startingAt: 0), span.name,
                                    QueueLabel.shown(span.queue))))
            }
            if record.spans.count > listed.count { lines.append("    … and \(record.spans.count - listed.count) more") }
        }
        lines.append("")
        return lines
    }

    /// The letter a span's cells show in the text timeline: A for the first queue seen, B for the next…
    private func queueKey(_ label: String, in record: RunRecord) -> Character {
        QueueLabel.key(record.queueNumber(of: label) ?? 0)
    }

    /// "A com.apple.main-thread", one line per queue seen, so the letters in the lanes can be read.
    private func queueLegend(_ record: RunRecord) -> [String] {
        guard !record.queues.isEmpty else { return [] }
        let listed = record.queues.prefix(Self.listedQueues)
        return ["  Queues seen (a span's letter in its lane is the queue it ran on):"]
            + listed.map { TerminalText.sanitized("    \(queueKey($0, in: record)) \(QueueLabel.shown($0))") }
            + (record.queues.count > listed.count ? ["    … and \(CountText.grouped(record.queues.count - listed.count)) more"] : [])
    }

    private func columnIndex(_ time: UInt64, start: UInt64, column: Double) -> Int {
        let seconds = Double(Int64(bitPattern: time &- start)) / 1e9
        return min(timelineWidth - 1, max(0, Int(seconds / column)))
    }

    private func losses(_ record: RunRecord) -> [String] {
        var notes: [String] = []
        if let version = record.traceVersion, version != TourVersion.traceFormat {
            notes.append("the page speaks trace format v\(version), this tour reads v\(TourVersion.traceFormat); rebuild both with `swift build`")
        }
        notes += record.dropNotes()
        if record.rejectedTraceLines > 0 {
            notes.append("\(record.rejectedTraceLines) trace lines skipped; the last was \(record.lastRejection ?? "unreadable")")
        }
        return notes.isEmpty ? [] : notes.map { style.dim(TerminalText.sanitized("note: " + $0)) } + [""]
    }

    /// The page's `- speaker:` notes, for a presenter who asked for them (`--notes`): plain mode leaves them out
    /// otherwise, as the interface does. One line a note, with the line of `main.swift` it is on.
    public func speakerNoteLines(_ source: String) -> [String] {
        let notes = LiterateParser.parse(source).speakerNotes
        guard !notes.isEmpty else { return [style.dim("(this page has no speaker notes)"), ""] }
        var lines = [style.bold("Speaker notes")]
        for note in notes { lines.append("  main.swift:\(note.line)  " + TerminalText.sanitized(note.text)) }
        lines.append("")
        return lines
    }

    /// The page's deep dives in full, each marked as one with the line it starts on: the interface shows them folded,
    /// and a screen reader or a log should get every word. One line a paragraph or item, so nothing breaks a sentence.
    private func deepDiveLines(_ source: String) -> [String] {
        var lines: [String] = []
        for deepDive in LiterateParser.parse(source).deepDives {
            lines.append(style.bold("Deep dive") + " (main.swift:\(deepDive.line))")
            for block in deepDive.body {
                switch block {
                case .paragraph(let spans, _):
                    lines.append("  " + TerminalText.sanitized(spans.plainText))
                case .listItem(let ordered, let number, let depth, let spans, _):
                    lines.append("  " + String(repeating: "  ", count: depth) + (ordered ? "\(number ?? 1). " : "- ") + TerminalText.sanitized(spans.plainText))
                default:
                    break
                }
            }
            lines.append("")
        }
        return lines
    }

    private func endingLines(_ record: RunRecord) -> [String] {
        guard let ending = record.ending else { return [] }
        var lines: [String] = []
        let verdict = record.endedAsExpected ? style.green("as the page said it would") : style.red("not as the page expected")
        lines.append(style.bold("Ended: ") + TerminalText.sanitized(ending.headline) + " — " + verdict)
        lines.append(TerminalText.sanitized("  " + ending.explanation))
        if let expectation = record.expectation {
            lines.append(TerminalText.sanitized("  The page said: \(expectation.reason)"))
        }
        return lines
    }

    /// The most lines a summary gives results, lanes and queues: the record holds up to a thousand of each,
    /// and a summary is for reading.
    static let listedResults = 100
    static let listedLanes = 32
    static let listedQueues = 26

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
