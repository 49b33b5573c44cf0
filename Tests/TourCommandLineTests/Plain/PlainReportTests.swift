import Testing
import Foundation
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

@Suite("Plain report", .bodiesBelowTheRunner)
struct PlainReportTests {
    /// A run that ended normally, with nothing else in it.
    private var endedRun: RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: 1, time: 1_000))
        record.apply(.ended(.exited(code: 0), time: 2_000))
        return record
    }

    @Test("A run's summary prints each deep dive in full, marked as one with its line, before the ending")
    func deepDivesArePrintedInFull() throws {
        let source = """
            /*:
             # Internals

             Ordinary prose stays on the page.

             - deep dive: What the folded row shows. Its first sentence, and the
               rest waits for `o`.

               Then come:
               - an item
                 - a nested item
               1. a numbered item
             */
            let a = 1
            //: - Deep Dive: Second one.
            """
        let lines = PlainReport(style: .bare).summary(of: endedRun, source: source)
        let first = try #require(lines.firstIndex(of: "Deep dive (main.swift:6)"))
        #expect(Array(lines[first...].prefix(9)) == [
            "Deep dive (main.swift:6)",
            "  What the folded row shows. Its first sentence, and the rest waits for o.",
            "  Then come:",
            "  - an item",
            "    - a nested item",
            "  1. a numbered item",
            "",
            "Deep dive (main.swift:15)",
            "  Second one.",
        ])
        let ending = try #require(lines.firstIndex { $0.hasPrefix("Ended: ") })
        #expect(ending > first + 8, "the ending stays the last word")
        #expect(!lines.contains { $0.contains("Ordinary prose") }, "only deep dives, which the interface folds, are printed")
    }

    @Test("A page without deep dives prints none")
    func noDeepDives() throws {
        let lines = PlainReport(style: .bare).summary(of: endedRun, source: "//: # Plain\nlet a = 1\n")
        #expect(!lines.contains { $0.contains("Deep dive") })
    }
}

@Suite("Plain report: a page's text on the terminal", .bodiesBelowTheRunner)
struct PlainReportPageTextTests {
    static let hostile = "\u{1B}[2J\u{1B}[H\u{1B}]0;pwned\u{07}café — 漢字 \u{9B}31m250 µs\tend"

    private func record(printing text: String) -> (RunRecord, OutputLine) {
        var record = RunRecord()
        record.apply(.started(pid: 1, time: 1_000))
        let line = OutputLine(stream: .stdout, text: text, time: 1_500)
        record.apply(.output(line))
        record.apply(.ended(.exited(code: 0), time: 2_000))
        return (record, line)
    }

    @Test("In colour the report keeps its own SGR codes, and none of the page's escapes")
    func colourKeepsOnlyItsOwnCodes() throws {
        let (record, line) = record(printing: Self.hostile)
        let report = PlainReport(style: PlainStyle(colour: true, unicode: true))
        let live = try #require(report.liveLine(for: .output(line), in: record))
        #expect(!live.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
        #expect(live.contains("café — 漢字 31m250 µs"), "Unicode text stays when the locale shows it")
        #expect(!live.contains("\t") && live.hasSuffix(" end"), "the tab became spaces")
        let lines = report.summary(of: record, source: "//: # Hostile\n") + [live]
        for text in lines {
            // Every escape left is the report's own: ESC [ digits m.
            let withoutOwnCodes = text.replacing(/\x1B\[[0-9;]*m/, with: "")
            #expect(!withoutOwnCodes.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        }
    }

    @Test("Bare, every printed line is ASCII with no control character, the report's own words included")
    func bareIsASCII() throws {
        let (record, line) = record(printing: Self.hostile)
        let style = PlainStyle.bare
        let report = PlainReport(style: style)
        let page = Page(number: 1, folder: "01-Hostile", title: "Hostile — page", summary: "", product: "Lesson01Hostile",
                        source: URL(fileURLWithPath: "/nonexistent/main.swift"))
        let live = try #require(report.liveLine(for: .output(line), in: record))
        let lines = (report.header(page: page, of: 8, speed: 2.5, knobs: []) + [live] + report.summary(of: record, source: "//: # Hostile\n"))
            .map(style.printable)
        #expect(lines.contains { $0.contains("cafe - ?? 31m250 us") && $0.hasSuffix(" end") })
        #expect(lines.contains { $0.contains("page 1 of 8: Hostile - page  (speed 2.5x)") })
        for text in lines {
            #expect(text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }, "\(text.debugDescription)")
        }
    }

    @Test("Plain mode lists a run's phases as the phase view titles them")
    func phasesAreTitledAsThePhaseViewTitlesThem() throws {
        let run = try TraceFixture.record(TraceFixture.threePhases)
        let summaries = run.phaseSummaries()
        try #require(summaries.map(\.phase.name) == ["operations", "GCD", "task group"])
        let plain = PlainReport(style: .bare, cores: 2).summary(of: run, source: "")
        for summary in summaries {
            let headline = summary.headline(length: try #require(summary.seconds))
            #expect(plain.contains { $0.contains(headline) }, "\(headline)")
        }
    }

    /// The queue page's run: the main thread's span, then a worker serving the workers' queue and later the main
    /// queue, and printing a line. Its lanes are named as the interface and the Chrome export name them
    /// (`LaneAndQueueTests`), and each span is written in its queue's letter.
    @Test("Plain mode names lanes main, then T1, and writes each span in its queue's letter, with the queues' legend")
    func lanesAndQueueLetters() throws {
        let worker: Int32 = 101, workers = "com.example.workers", main = "com.apple.main-thread"
        let record = try TraceFixture.record(TraceFixture.span(1, "work", from: 2, to: 400)
            + TraceFixture.span(2, "helper", from: 100, to: 300, thread: worker, queue: workers)
            + TraceFixture.span(3, "notify", from: 320, to: 380, thread: worker, queue: main))
        let summary = PlainReport(style: .bare, timelineWidth: 50).summary(of: record, source: "")
        #expect(summary.contains { $0.hasPrefix("  main #\(TraceFixture.pid) ") }, "\(summary)")
        let lane = try #require(summary.first { $0.hasPrefix("  T1 #\(worker) ") }, "\(summary)")
        let printed = OutputLine(stream: .stdout, text: "done on a worker", time: TraceFixture.start + 450_000_000, thread: worker, queue: workers)
        let live = try #require(PlainReport(style: .bare).liveLine(for: .output(printed), in: record))
        #expect(live.contains("T1    [\(workers)]  done on a worker"), "\(live)")

        let mainKey = QueueLabel.key(try #require(record.queueNumber(of: main)))
        let workersKey = QueueLabel.key(try #require(record.queueNumber(of: workers)))
        #expect(summary.contains("    \(mainKey) \(main)"))
        #expect(summary.contains("    \(workersKey) \(workers)"))
        // The worker's lane: its first span in the workers' letter, its later one in the main queue's.
        let letters = try #require(lane.split(separator: "|").dropFirst().first).filter { $0 != "." && $0 != "^" }
        #expect(letters.first == workersKey)
        #expect(letters.last == mainKey)
        #expect(summary.contains { $0.hasSuffix("helper  [\(workers)]") })
        #expect(summary.contains { $0.hasSuffix("notify  [\(main)]") })
    }

    /// A page that floods the record (here 3,000 spans, each on a thread of its own) gets a summary a reader can
    /// still scroll: the lanes past the first ones counted in a line, the spans listed cut short, no line overlong.
    @Test("A flooded run's summary stays short: lanes and spans beyond the first are counted, not printed")
    func aFloodedRunsSummaryIsBounded() throws {
        let lines = (0..<3_000).flatMap { (index: Int) -> [String] in
            let start = index / 10
            let thread = Int32(1_000 + index)
            return TraceFixture.span(index + 1, "span \(index)", from: start, to: start + 5, thread: thread, queue: "q\(index % 40)")
        }
        let record = try TraceFixture.record(lines)
        let summary = PlainReport(style: .bare).summary(of: record, source: "")
        #expect(summary.count <= 400, "\(summary.count) summary lines")
        #expect(summary.allSatisfy { $0.count <= 1_300 }, "\(summary.map(\.count).max() ?? 0) characters on a line")
        let counted = summary.contains { (line: String) in line.hasPrefix("  … and ") && line.hasSuffix(" more lanes") }
        #expect(counted, "\(summary.prefix(60))")
    }
}
