import Foundation
import Testing
import TourCore
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// Issue 15, point 5: spans nested in spans each keep their bar and name, marks never cut a name, and the run's
/// warnings are worked out once per change of the record, not once per frame.
@Suite("Timeline readability", .bodiesBelowTheRunner)
struct TimelineReadabilityTests {
    static let queue = "tour.demo.work"

    /// On the main thread a span "load all" holds "load 1" and "load 2", and "load 2" holds "decode"; a worker
    /// runs "resize" with a mark "resized" in the middle of its name.
    static var nested: RunScript {
        var script = RunScript()
        let main = RunScript.mainThread, worker = RunScript.worker
        script.span(1, "load all", from: 0, to: nil, thread: main, queue: RunScript.mainQueue)
        script.span(2, "load 1", from: 10, to: 150, thread: main, queue: RunScript.mainQueue)
        script.span(3, "load 2", from: 160, to: nil, thread: main, queue: RunScript.mainQueue)
        script.span(4, "decode", from: 200, to: 320, thread: main, queue: RunScript.mainQueue)
        script.endSpan(3, "load 2", at: 350, thread: main, queue: RunScript.mainQueue)
        script.endSpan(1, "load all", at: 380, thread: main, queue: RunScript.mainQueue)
        script.span(5, "resize", from: 40, to: 360, thread: worker, queue: queue)
        script.mark("resized", at: 50, thread: worker, queue: queue)
        script.end(.exited(code: 0), at: 400)
        return script
    }

    static func model(_ script: RunScript = nested, width: Int, height: Int) throws -> TourModel {
        try TimelineViewerTests.model(script, width: width, height: height)
    }

    @Test("Spans nested in spans: each level on a row of its own under its thread, every name whole",
          arguments: [(120, 40, "120"), (80, 24, "80")])
    func nestedSpansKeepTheirRows(width: Int, height: Int, name: String) async throws {
        let model = try Self.model(width: width, height: height)
        let record = try #require(model.currentPage.record)
        #expect(record.spans.map { "\($0.name) \($0.depth)" }.sorted() == ["decode 2", "load 1 1", "load 2 1", "load all 0", "resize 0"])
        let geometry = try #require(model.timelineGeometry())
        let main = try #require(geometry.lanes.lane(of: .thread(RunScript.mainThread)))
        #expect(geometry.lanes.lanes[main].rows == 3, "one row per level of nesting")
        let worker = try #require(geometry.lanes.lane(of: .thread(RunScript.worker)))
        #expect(geometry.lanes.lanes[worker].rows == 1)
        let screen = TourRenderer.render(model)
        let top = geometry.plot.y + (try #require(geometry.row(ofLane: main)))
        // At 80×24 the timeline tab's plot is shorter than the lane: it shows the rows that fit.
        let shown = geometry.rowCount(ofLane: main)
        #expect(shown == min(3, geometry.plot.height))
        let rows = screen.lines(in: Rect(x: geometry.plot.x, y: top, width: geometry.plot.width, height: shown))
        let expected = [["load all"], ["load 1", "load 2"], ["decode"]]
        for (row, names) in zip(rows, expected) {
            #expect(names.allSatisfy { row.contains($0) }, "\(names) in \(row)")
        }
        Snapshot.expect(try TimelineViewerTests.timelineLines(model), matches: "timeline-nested-\(name)")
    }

    @Test("Spans that overlap on one row (a task resumed on a thread inside another's span) never cut each other's names")
    func overlappingSpansOnOneRowKeepTheirNames() async throws {
        var script = RunScript()
        let worker = RunScript.worker
        script.span(1, "alpha", from: 0, to: nil, thread: worker, queue: Self.queue)
        script.span(2, "beta long name", from: 10, to: nil, thread: worker, queue: Self.queue)
        script.endSpan(1, "alpha", at: 30, thread: worker, queue: Self.queue)
        // Begun while only "beta long name" is open: the same depth, so the same row, over its name.
        script.span(3, "gamma", from: 40, to: nil, thread: worker, queue: Self.queue)
        script.endSpan(2, "beta long name", at: 250, thread: worker, queue: Self.queue)
        script.endSpan(3, "gamma", at: 390, thread: worker, queue: Self.queue)
        script.end(.exited(code: 0), at: 400)
        let model = try Self.model(script, width: 120, height: 40)
        let geometry = try #require(model.timelineGeometry())
        let lane = try #require(geometry.lanes.lane(of: .thread(worker)))
        let top = geometry.plot.y + (try #require(geometry.row(ofLane: lane)))
        let rows = TourRenderer.render(model).lines(in: Rect(x: geometry.plot.x, y: top, width: geometry.plot.width, height: 2))
        #expect(rows[1].contains("beta long name"), "the first span's name is whole: \(rows[1])")
        #expect(rows[1].contains("gamma"), "and the second keeps its own after it: \(rows[1])")
    }

    @Test("A mark on a letter of a span's name underlines the letter and keeps the name whole")
    func markKeepsTheName() async throws {
        let model = try Self.model(width: 120, height: 40)
        let geometry = try #require(model.timelineGeometry())
        let screen = TourRenderer.render(model)
        let worker = try #require(geometry.lanes.lane(of: .thread(RunScript.worker)).flatMap(geometry.row(ofLane:)))
        let y = geometry.plot.y + worker
        let row = screen.lines(in: Rect(x: geometry.plot.x, y: y, width: geometry.plot.width, height: 1))[0]
        #expect(row.contains("resize"), "the name is whole: \(row)")
        #expect(!row.contains(Glyphs.unicode.mark))
        let x = geometry.plot.x + geometry.column(ofSeconds: 0.05)
        #expect(screen[x, y].character != " ", "the mark falls on the name")
        #expect(screen[x, y].style.underline, "and underlines its letter")
        // Where no name is, the mark is drawn as itself.
        var later = Self.nested
        later.mark("late", at: 300, thread: RunScript.worker, queue: Self.queue)
        let laterModel = try Self.model(later, width: 120, height: 40)
        let laterScreen = TourRenderer.render(laterModel)
        let laterGeometry = try #require(laterModel.timelineGeometry())
        #expect(laterScreen[laterGeometry.plot.x + laterGeometry.column(ofSeconds: 0.3), y].character == Glyphs.unicode.mark)
    }

    @Test("The warnings are worked out once per change of the record: kept while it holds, new once it grows")
    func warningsAreKeptUntilTheRecordChanges() async throws {
        // An operation that became ready and never finished: a warning only once the run has ended.
        var script = RunScript()
        script.operation("stuck", 9, .ready, at: 10)
        var record = RunRecord()
        for event in script.events { _ = record.ingest(event, receivedAt: RunScript.time(500)) }
        let cache = WarningsCache()
        #expect(cache.warnings(of: record, cores: 2).isEmpty)
        let folded = record.foldCount
        #expect(cache.warnings(of: record, cores: 2).isEmpty)
        _ = record.ingest(.ended(.exited(code: 0), time: RunScript.time(400)), receivedAt: RunScript.time(500))
        #expect(record.foldCount == folded + 1)
        let warnings = cache.warnings(of: record, cores: 2)
        #expect(warnings.map(\.kind) == [.neverFinished], "a cache that kept the list from before the end would miss it")
        #expect(warnings == TraceWarnings.of(record, cores: 2))
    }
}
