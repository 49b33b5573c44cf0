import Testing
import PageProtocol
import TourCore
import TourTestSupport
@testable import TourInterface

/// The timeline's phase view, drawn from a fixture run with three phases (`TraceFixture.threePhases`).
@Suite("Phase view", .bodiesBelowTheRunner)
struct PhasesTimelineViewTests {
    /// The fixture run fed to a model as the terminal layer would, with the phase view chosen.
    private func model(width: Int, height: Int) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height)
        var script = RunScript()
        script.events = [.started(pid: TraceFixture.pid, time: TraceFixture.start)]
        let events = try TraceFixture.threePhases.map { try TraceLineParser.parse(Array($0.utf8)).get() }
        script.events += events.sorted { $0.time < $1.time }.map { .trace($0) }
        script.events.append(.ended(.exited(code: 0), time: TraceFixture.start + 700_000_000))
        model.run(script)
        model.currentPage.timeline.view = .phases
        return model
    }

    @Test("120×40: each phase's title from its trace, then a row per thread, all aligned at zero")
    func full() async throws {
        let model = try model(width: 120, height: 40)
        let screen = TourRenderer.render(model)
        let timeline = try #require(model.layout.panes[.timeline])
        Snapshot.expect(screen.lines(in: timeline), matches: "pane-timeline-phases-120")
        let rows = screen.lines(in: timeline)
        let titles = ["operations  200.0 ms  3 threads  1 of 2 hand-offs hopped, median 4.0 ms",
                      "GCD  150.0 ms  2 threads  1 of 2 hand-offs hopped, median 30.0 ms",
                      "task group  120.0 ms  2 threads  2 of 2 hand-offs hopped, median 2.5 ms"]
        let found = try titles.map { title in try #require(rows.firstIndex { $0.contains(title) }, "no title \(title)") }
        #expect(found == found.sorted())
        // A row per thread under each title: three, two and two.
        #expect(found[1] - found[0] == 4 && found[2] - found[1] == 3)
        let record = try #require(model.currentPage.record)
        // Aligned at their starts: each phase's first download bar begins in the plot's first column.
        let firstBars = try [found[0] + 1, found[1] + 1, found[2] + 1].map { row in
            try #require(rows[row].range(of: "download a")).lowerBound.utf16Offset(in: rows[row])
        }
        #expect(Set(firstBars).count == 1, "\(firstBars)")
        #expect(rows[found[0] + 1].contains(record.laneName(of: 101)) && rows[found[2] + 1].contains(record.laneName(of: 104)))
        #expect(rows.contains { $0.contains("3 phases aligned at their starts") })
        let bar = try #require(screen.find("tilt-shift a", in: timeline))
        #expect(screen[bar.x, bar.y].style.reverse)
    }

    @Test("80×24: no room for every thread, so each phase gets a row of how many of its threads had a span open")
    func compact() async throws {
        var model = try model(width: 80, height: 24)
        for _ in 0..<8 where model.focus != .timeline { model.press(.tab) }
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-timeline-phases")
        #expect(screen.find("operations  200.0 ms") != nil)
        #expect(screen.find("digits: threads with a span open") != nil)
        let busy = screen.lines.filter { $0.contains(" open  ") || $0.contains(" open │") }
        #expect(!busy.isEmpty)
        #expect(busy.first?.contains("2") == true, "two downloads blocked two threads at once")
    }

    @Test("t in the focused timeline reaches the phase view after the views before it, then comes back to the threads")
    func switching() async throws {
        var model = try model(width: 120, height: 40)
        model.currentPage.timeline.view = .threads
        for _ in 0..<8 where model.focus != .timeline { model.press(.tab) }
        var seen: [TimelineViewKind] = []
        for _ in 0..<3 {
            model.press(.character("t"))
            seen.append(model.currentPage.timeline.view)
        }
        // The fixture has queues but no operations and no traced tasks, so those views are skipped.
        #expect(seen == [.queues, .phases, .threads])
    }

    @Test("a run without phases says how a page marks them")
    func noPhases() async throws {
        var model = try FixturePages.model()
        model.run(.finishedQueueRun)
        model.currentPage.timeline.view = .phases
        let screen = TourRenderer.render(model)
        #expect(screen.find("No phases in this run") != nil)
    }

    @Test("t reaches the phases after the last other view, and goes back to threads after them")
    func tStepsToThePhases() async throws {
        let model = try model(width: 120, height: 40)
        let record = try #require(model.currentPage.record)
        let views = TourModel.availableViews(record)
        #expect(views.last == .phases)
        let beforePhases = try #require(views.dropLast().last)
        #expect(TourModel.view(after: beforePhases, in: record) == .phases)
        #expect(TourModel.view(after: .phases, in: record) == .threads)

    }
}
