import Foundation
import Testing
import TourCore
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// Issue 15, points 1, 2 and 5: thread states under the lanes, lanes by queue, and a timeline readable at every size.
@Suite("Timeline viewer", .bodiesBelowTheRunner)
struct TimelineViewerTests {
    static let serialQueue = "tour.demo.serial"
    static let concurrentQueue = "tour.demo.concurrent"
    static let globalQueue = "com.apple.root.default-qos"
    /// Worker threads T1…T8, after the main thread: nine lanes in all.
    static let workers: [Int32] = (1...8).map { 200 + Int32($0) }

    /// A run of nine threads, as page 2 or 6 makes them: a serial queue hopping between two threads, a concurrent
    /// queue running three spans at once (one computing, two sleeping), adjacent short downloads on the global queue,
    /// and the host's samples of each thread every 10 ms: running inside computing spans, waiting inside sleeping ones.
    static var nineThreads: RunScript {
        var script = RunScript()
        var id = 0
        var running: [Int32: [ClosedRange<Double>]] = [:]
        func span(_ name: String, _ from: Double, _ to: Double, _ thread: Int32, _ queue: String, computes: Bool) {
            id += 1
            script.span(id, name, from: from, to: to, thread: thread, queue: queue)
            if computes { running[thread, default: []].append(from...to) }
        }
        span("main work", 0, 400, RunScript.mainThread, RunScript.mainQueue, computes: true)
        for (index, start) in [0.0, 100, 200].enumerated() {
            span("serial \(index + 1)", start, start + 100, workers[index % 2], serialQueue, computes: false)
        }
        span("compute", 50, 250, workers[2], concurrentQueue, computes: true)
        span("sleep", 60, 260, workers[3], concurrentQueue, computes: false)
        span("sleep", 70, 270, workers[4], concurrentQueue, computes: false)
        for index in 0..<6 {
            let start = Double(index) * 30
            span("download \(index + 1)", start, start + 30, workers[5 + index % 3], globalQueue, computes: index % 2 == 0)
        }
        script.mark("halfway", at: 200, thread: workers[2], queue: concurrentQueue)
        let threads = [RunScript.mainThread] + workers
        script.samples(from: 0, to: 400) { tick in
            threads.map { thread in
                ThreadStateReading(thread: thread, state: running[thread, default: []].contains { $0.contains(tick) } ? .running : .waiting)
            }
        }
        script.end(.exited(code: 0), at: 410)
        return script
    }

    /// A model at `width`×`height` that ran `script`, with the timeline focused.
    static func model(_ script: RunScript = nineThreads, width: Int, height: Int, glyphs: Glyphs = .unicode) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height, glyphs: glyphs)
        model.run(script)
        model.press(.tab, .tab)
        #expect(model.focus == .timeline)
        return model
    }

    static func timelineLines(_ model: TourModel) throws -> [String] {
        TourRenderer.render(model).lines(in: try #require(model.layout.panes[.timeline]))
    }

    // MARK: - Snapshots

    @Test("Snapshots of the threads and queues views of nine threads, at 120×40 and 80×24",
          arguments: [(120, 40, "120"), (80, 24, "80")])
    func snapshots(width: Int, height: Int, name: String) throws {
        var model = try Self.model(width: width, height: height)
        Snapshot.expect(try Self.timelineLines(model), matches: "timeline-threads-\(name)")
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .queues)
        Snapshot.expect(try Self.timelineLines(model), matches: "timeline-queues-\(name)")
    }

    @Test("In ASCII the thread states read without colour: waiting cells are textured, computing ones solid")
    func asciiSnapshot() throws {
        let model = try Self.model(width: 80, height: 24, glyphs: .ascii)
        Snapshot.expect(try Self.timelineLines(model), matches: "timeline-threads-ascii-80")
    }

    // MARK: - Point 1: thread states

    @Test("A sleeping span's cells lose the solid fill for the waiting texture; a computing span stays solid")
    func threadStatesShowInTheBars() throws {
        let model = try Self.model(width: 120, height: 40)
        let screen = TourRenderer.render(model)
        let geometry = try #require(model.timelineGeometry())
        let compute = try #require(geometry.lanes.lane(of: .thread(Self.workers[2])).flatMap(geometry.row(ofLane:)))
        let sleep = try #require(geometry.lanes.lane(of: .thread(Self.workers[3])).flatMap(geometry.row(ofLane:)))
        let middle = geometry.plot.x + geometry.column(ofSeconds: 0.15)
        let computing = screen[middle, geometry.plot.y + compute]
        #expect(computing.style.reverse, "the computing span is solid")
        let sleeping = screen[middle, geometry.plot.y + sleep]
        #expect(!sleeping.style.reverse)
        #expect(sleeping.character == Glyphs.unicode.threadWaiting)
        #expect(sleeping.style.foreground == .queue(try #require(model.currentPage.record?.queueNumber(of: Self.concurrentQueue))))
        // The main thread computes all along: its bar stays solid from end to end.
        let main = geometry.plot.y + (try #require(geometry.row(ofLane: 0)))
        #expect((geometry.column(ofSeconds: 0.01)..<geometry.column(ofSeconds: 0.39)).allSatisfy { screen[geometry.plot.x + $0, main].style.reverse })
    }

    @Test("The thread-state columns take the state that covers most of each column")
    func stateColumns() {
        let base: UInt64 = 1_000
        let stretches = [ThreadStateStretch(state: .running, start: base, end: base + 25),
                         ThreadStateStretch(state: .waiting, start: base + 25, end: base + 100)]
        let columns = ColumnScale(origin: base, viewStart: 0, nanosecondsPerColumn: 20)
        #expect(ThreadStateColumns.states(stretches, columns: columns, width: 7) == [.running, .waiting, .waiting, .waiting, .waiting, nil, nil])
    }

    // MARK: - Point 2: queues

    @Test("The queue view: a serial queue is one row, a concurrent queue a row per span that ran at once")
    func queueLanes() throws {
        var model = try Self.model(width: 120, height: 40)
        model.press(.character("t"))
        let record = try #require(model.currentPage.record)
        let lanes = model.timelineLanes(record)
        #expect(lanes.view == .queues)
        let rows = Dictionary(uniqueKeysWithValues: lanes.lanes.map { ($0.key, $0.rows) })
        #expect(rows[.queue(Self.serialQueue)] == 1)
        #expect(rows[.queue(Self.concurrentQueue)] == 3)
        // Six adjacent downloads on three threads: one after another, so one row.
        #expect(rows[.queue(Self.globalQueue)] == 1)
        #expect(lanes.lanes.map(\.title) == ["main-thread", "serial", "concurrent", "root.default-qos"])
    }

    @Test("t cycles through the views that have something to show: operations only when the run has some")
    func viewCycle() throws {
        var model = try Self.model(width: 120, height: 40)
        #expect(model.currentPage.timeline.view == .threads)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .queues)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .threads, "no operations and no tasks: back to threads")

        var script = Self.nineThreads
        script.events.insert(.trace(PageEvent(time: RunScript.time(5), thread: RunScript.mainThread, queue: "",
                                              kind: .op(operation: "load", oid: 1, state: .ready))), at: 1)
        var withOperations = try Self.model(script, width: 120, height: 40)
        withOperations.press(.character("t"), .character("t"))
        #expect(withOperations.currentPage.timeline.view == .operations)
        #expect(try Self.timelineLines(withOperations).joined().contains("load"), "the operations view draws the operation's row")
        withOperations.press(.character("t"))
        #expect(withOperations.currentPage.timeline.view == .threads)
    }

    // MARK: - Point 5: readable at every size

    @Test("Labels fit their bars: whole, cut with care keeping a trailing number, or left out")
    func labelFitting() {
        #expect(SpanLabel.fitted("sleep", columns: 5, ellipsis: "…") == "sleep")
        #expect(SpanLabel.fitted("sleep", columns: 4, ellipsis: "…") == "sle…")
        #expect(SpanLabel.fitted("download 12", columns: 6, ellipsis: "…") == "dow…12")
        #expect(SpanLabel.fitted("download 12", columns: 4, ellipsis: "…") == "d…12")
        // No room for the number: cut like any other name, never a bare "12".
        #expect(SpanLabel.fitted("download 12", columns: 3, ellipsis: "…") == "do…")
        #expect(SpanLabel.fitted("sleep", columns: 1, ellipsis: "…") == "")
        #expect(SpanLabel.fitted("sleep", columns: 2, ellipsis: "~") == "s~")
    }

    @Test("Adjacent bars keep a blank column between them and their names never run together")
    func adjacentBarsStayApart() {
        var row = [Cell?](repeating: nil, count: 20)
        let style = CellStyle(foreground: .queue1, reverse: true)
        for (first, last) in [(0, 5), (5, 10), (10, 19)] {
            SpanBar.paint("sleeping", first: first, last: last, width: 20, style: style, ellipsis: "…",
                          isBar: { row[$0] != nil }, set: { row[$0] = $1 })
        }
        let text = String(row.map { $0?.character ?? "." })
        #expect(text == "slee… .sl… .sleepi… ")
        // The gap is no bar, so in monochrome the bars are apart too.
        #expect(row[6] == nil && row[11] == nil)
    }

    @Test("Lane titles drop the prefix queue labels share, and keep a label whole when cutting would confuse")
    func prefixDropping() {
        #expect(QueueTitles.withoutCommonPrefix(["tour.gcd.op.serial", "tour.gcd.op.concurrent", "com.apple.main-thread"])
                == ["serial", "concurrent", "com.apple.main-thread"])
        #expect(QueueTitles.withoutCommonPrefix(["a.x", "a.y", "b.x", "b.y"]) == ["a.x", "a.y", "b.x", "b.y"])
        #expect(QueueTitles.withoutCommonPrefix(["tour.q", "tour.q.inner"]) == ["q", "q.inner"])
        #expect(QueueTitles.withoutCommonPrefix(["no queue"]) == ["no queue"])
    }

    @Test("Ticks are 1, 2 or 5 times a power of ten, at least ten columns apart, at every zoom; labels share a unit")
    func tickChoice() {
        #expect(TimelineGeometry.tickStep(secondsPerColumn: 0.0001) == 0.001)
        #expect(TimelineGeometry.tickStep(secondsPerColumn: 0.00015) == 0.002)
        #expect(TimelineGeometry.tickStep(secondsPerColumn: 0.004) == 0.05)
        #expect(TimelineGeometry.tickStep(secondsPerColumn: 0.01) == 0.1)
        #expect(TimelineGeometry.tickStep(secondsPerColumn: 0.03) == 0.5)
        #expect(TimelineGeometry.tickStep(secondsPerColumn: 1.5) == 20)
        for exponent in -4...2 {
            let perColumn = pow(10, Double(exponent)) * 1.7
            let step = TimelineGeometry.tickStep(secondsPerColumn: perColumn)
            #expect(step / perColumn >= 10 && step / perColumn < 30, "step \(step) for \(perColumn) s a column")
        }
        #expect(TimelineGeometry.label(seconds: 0.3, step: 0.1, glyphs: .unicode) == "0.3 s")
        #expect(TimelineGeometry.label(seconds: 2, step: 1, glyphs: .unicode) == "2 s")
        #expect(TimelineGeometry.label(seconds: 0.04, step: 0.02, glyphs: .unicode) == "40 ms")
        // Zoomed in late in a run: milliseconds with the step's one decimal, not "1234500 µs".
        #expect(TimelineGeometry.label(seconds: 1.2345, step: 0.0005, glyphs: .unicode) == "1234.5 ms")
    }

    @Test("Nine threads at 80×24: the lanes scroll, j reaches the last one, and the border says how many are hidden")
    func lanesScroll() throws {
        var model = try Self.model(width: 80, height: 24)
        let geometry = try #require(model.timelineGeometry())
        #expect(geometry.visibleLanes < 9)
        #expect(try Self.timelineLines(model).last?.contains("more lanes, j/k") == true)
        for _ in 0..<8 { model.press(.character("j")) }
        #expect(model.currentPage.timeline.selectedLane == 8)
        let scrolled = try #require(model.timelineGeometry())
        #expect(scrolled.row(ofLane: 8) != nil, "the selected lane is on screen")
        #expect(try Self.timelineLines(model).joined().contains("T8"))
    }

    @Test("/ searches span names: Enter selects the next match across lanes and goes round; Esc ends the search")
    func search() throws {
        var model = try Self.model(width: 120, height: 40)
        model.press(.character("/"), .character("s"), .character("l"), .character("x"), .backspace, .character("e"))
        #expect(model.currentPage.timeline.searchQuery == "sle")
        #expect(try Self.timelineLines(model).joined().contains("/sle_"))
        model.press(.enter)
        let record = try #require(model.currentPage.record)
        let first = try #require(model.currentPage.timeline.selectedSpanID.flatMap { record.timelineSpan(id: $0, now: model.now) })
        #expect(first.span.name == "sleep" && first.span.thread == Self.workers[3])
        #expect(model.currentPage.timeline.selectedLane == 4, "the lane of the match is selected")
        model.press(.enter)
        let second = try #require(model.currentPage.timeline.selectedSpanID.flatMap { record.timelineSpan(id: $0, now: model.now) })
        #expect(second.span.thread == Self.workers[4])
        model.press(.enter)
        #expect(model.currentPage.timeline.selectedSpanID == first.span.id, "round to the first match")
        // n is typed, not taken as the next page.
        model.press(.character("n"))
        #expect(model.currentPage.timeline.searchQuery == "slen")
        #expect(model.current == 0)
        model.press(.escape)
        #expect(model.currentPage.timeline.searchQuery == nil)
        #expect(model.currentPage.timeline.selectedSpanID == first.span.id)
        // An empty query repeats the last search.
        model.press(.character("/"), .enter)
        #expect(model.currentPage.timeline.selectedSpanID == second.span.id)
        model.press(.escape, .character("/"), .character("q"), .character("z"), .enter)
        #expect(model.notice?.contains("No span's name contains") == true)
    }

    @Test("Z zooms so the selected span takes four fifths of the plot, centred")
    func zoomToSelection() throws {
        var model = try Self.model(width: 120, height: 40)
        model.press(.character("Z"))
        #expect(model.notice?.contains("Select a span") == true)
        model.press(.character("j"), .character("j"), .character("j"), .character("l"))
        let record = try #require(model.currentPage.record)
        let span = try #require(model.currentPage.timeline.selectedSpanID.flatMap { record.timelineSpan(id: $0, now: model.now) })
        #expect(span.span.name == "compute")
        model.press(.character("Z"))
        let geometry = try #require(model.timelineGeometry())
        let first = geometry.column(ofSeconds: record.seconds(at: span.span.start))
        let last = geometry.column(ofSeconds: record.seconds(at: span.end))
        let width = geometry.plot.width
        #expect(abs(first - width / 10) <= 1 && abs(last - width * 9 / 10) <= 1, "\(first)…\(last) of \(width)")
    }

    @Test("F follows the live edge while the run grows, H pins it again")
    func followLiveEdge() throws {
        var model = try FixturePages.model(width: 120, height: 40)
        var script = RunScript()
        script.span(1, "long", from: 0, to: nil, thread: RunScript.mainThread, queue: RunScript.mainQueue)
        model.run(script)
        _ = model.update(.tick(now: RunScript.time(1_000)))
        model.press(.tab, .tab, .character("F"))
        #expect(model.currentPage.timeline.followsLiveEdge)
        let before = try #require(model.timelineGeometry())
        let edge = before.column(ofSeconds: 1.0)
        #expect(edge > before.plot.width * 3 / 4 && edge < before.plot.width)
        _ = model.update(.tick(now: RunScript.time(5_000)))
        let after = try #require(model.timelineGeometry())
        #expect(after.secondsPerColumn == before.secondsPerColumn)
        #expect(after.column(ofSeconds: 5.0) == edge, "the latest moment stays at the same column")
        model.press(.character("H"))
        #expect(!model.currentPage.timeline.followsLiveEdge)
        let pinned = try #require(model.timelineGeometry()).startSeconds
        _ = model.update(.tick(now: RunScript.time(9_000)))
        #expect(try #require(model.timelineGeometry()).startSeconds == pinned)
    }

    @Test("h and l step through a queue's lane in the queue view, whichever thread ran each span")
    func stepsAlongAQueue() throws {
        var model = try Self.model(width: 120, height: 40)
        model.press(.character("t"), .character("j"), .character("l"))
        let record = try #require(model.currentPage.record)
        func selected() throws -> Span {
            try #require(model.currentPage.timeline.selectedSpanID.flatMap { record.timelineSpan(id: $0, now: model.now) }).span
        }
        #expect(try selected().name == "serial 1")
        model.press(.character("l"))
        #expect(try selected().name == "serial 2")
        #expect(try selected().thread == Self.workers[1])
        model.press(.character("h"))
        #expect(try selected().name == "serial 1")
    }

    @Test("The help and the status line name the new timeline keys")
    func keysAreNamed() throws {
        var model = try Self.model(width: 120, height: 40)
        let status = StatusLine.hints(model).joined(separator: " ")
        #expect(status.contains("t view") && status.contains("/ search"))
        model.press(.character("?"))
        let help = TourRenderer.render(model).lines.joined(separator: "\n")
        for words in ["to the selection", "follow the live edge", "next view", "search"] { #expect(help.contains(words)) }
    }
}
