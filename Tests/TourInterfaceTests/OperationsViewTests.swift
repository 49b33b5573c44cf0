import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// The timeline's operations view and the warnings `W` steps through, drawn from fixture runs.
@Suite("Operations view and warnings", .bodiesBelowTheRunner)
struct OperationsViewTests {
    private func dependenciesRun(width: Int, height: Int) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height)
        model.run(.finishedDependenciesRun)
        model.focus = .timeline
        if model.layout.mode == .compact { model.compactTab = .timeline }
        model.currentPage.timeline.view = .operations
        return model
    }

    private func infoRow(_ model: TourModel) throws -> String {
        let timeline = try #require(model.layout.panes[.timeline]).inside
        let row = Rect(x: timeline.x, y: timeline.maxY - 1, width: timeline.width, height: 1)
        return try #require(TourRenderer.render(model).lines(in: row).first)
    }

    /// The selected operation in words, as the info row begins it (the row cuts it to the pane).
    private func selectedSummary(_ model: TourModel) throws -> String {
        let record = try #require(model.currentPage.record)
        let analysis = OperationAnalysis(record)
        let summary = OperationsTimelineView.summary(of: analysis.lives[model.currentPage.timeline.selectedOperation], analysis: analysis,
                                                     record: record, reached: record.reachedTime(now: model.now), glyphs: model.glyphs)
        #expect(try infoRow(model).hasPrefix(summary.prefix(60)), "the info row shows it")
        return summary
    }

    @Test("120×40: a row per operation, its states in characters of their own, the critical path marked")
    func fullSnapshot() throws {
        let model = try dependenciesRun(width: 120, height: 40)
        let screen = TourRenderer.render(model)
        let timeline = try #require(model.layout.panes[.timeline])
        Snapshot.expect(screen.lines(in: timeline), matches: "pane-timeline-operations-120")
        // The critical path, load → tilt-shift → show coffee, is marked in the titles and named in the key.
        #expect(screen.find("• load coffee", in: timeline) != nil)
        #expect(screen.find("• show coffee", in: timeline) != nil)
        #expect(screen.find("  tilt-shift retina", in: timeline) != nil)
        #expect(screen.find("critical path: load coffe", in: timeline) != nil)
        #expect(OperationAnalysis(try #require(model.currentPage.record)).criticalPath == [1, 2, 3])
        // Pending, ready and cancelled differ in their characters, not only in colour.
        let retina = try #require(screen.find("tilt-shift retina", in: timeline))
        let row = screen.text(ofRow: retina.y)
        #expect(row.contains("─") && row.contains("×"))
        let show = try #require(screen.find("show coffee", in: timeline))
        #expect(screen.text(ofRow: show.y).contains("·"))
    }

    @Test("80×24: the same view in the timeline tab")
    func compactSnapshot() throws {
        let model = try dependenciesRun(width: 80, height: 24)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-timeline-operations")
        #expect(screen.find("load coffee") != nil)
    }

    @Test("j and k select an operation; the info row says what it waited for")
    func selectionSaysWhyItWaited() throws {
        var model = try dependenciesRun(width: 120, height: 40)
        #expect(try selectedSummary(model) == "▸ load retina: it never started  cancelled at 0.00 s")
        model.press(.character("j"))
        #expect(model.currentPage.timeline.selectedOperation == 1)
        let coffee = try selectedSummary(model)
        #expect(coffee == "▸ load coffee: it waited for nothing  ran 300.0 ms  (critical path)")
        model.press(.character("j"))
        #expect(try selectedSummary(model)
                == "▸ tilt-shift retina: waited 4.0 ms for load retina, then 173.0 ms for a free slot on images  ran 2.0 ms  cancelled at 0.18 s  after load retina")
        model.press(.character("j"))
        #expect(try selectedSummary(model) == "▸ tilt-shift coffee: waited 304.0 ms for load coffee  ran 144.0 ms  after load coffee  (critical path)")
        model.press(.character("k"))
        #expect(model.currentPage.timeline.selectedOperation == 2)
    }

    @Test("t reaches the operations view after the queue view, and comes back round to the threads")
    func tSwitchesViews() throws {
        var model = try dependenciesRun(width: 120, height: 40)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .threads, "the first t only focuses the timeline")
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .queues)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .operations)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .threads)
    }

    @Test("W steps through the warnings at 80×24, each on its lane and in words, then back to none")
    func warningsAreReachable() throws {
        var script = RunScript.finishedDependenciesRun
        // The show operation never finishes this time: the run ends with it executing.
        script.events.removeAll { event in
            if case .trace(let trace) = event, case .op("show coffee", _, .finished) = trace.kind { return true }
            return false
        }
        var model = try FixturePages.model(width: 80, height: 24)
        model.run(script)
        #expect(model.focus != .timeline)
        model.press(.character("W"))
        #expect(model.focus == .timeline)
        #expect(model.compactTab == .timeline)
        #expect(model.currentPage.timeline.view == .operations)
        #expect(model.currentPage.timeline.selectedOperation == 4)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-timeline-warning")
        #expect(try infoRow(model).hasPrefix("! warning 1 of 1, T2 at 0.45 s: show coffee never finished"))
        model.press(.character("W"))
        #expect(model.currentPage.timeline.selectedWarning == nil)
        #expect(model.notice == "That was the last of 1 warning; W starts again.")
    }

    @Test("With nothing selected, the threads view's info row tells of the warnings and of W")
    func threadsViewTellsOfWarnings() throws {
        var model = try FixturePages.model(width: 120, height: 40)
        var script = RunScript.finishedDependenciesRun
        script.events.removeLast()
        // From 470 ms, when the last operation finished, to the wait's end at 600 ms, no one else works.
        script.samples(from: 470, to: 600) { _ in [ThreadStateReading(thread: RunScript.mainThread, state: .waiting)] }
        script.end(.exited(code: 0), at: 620)
        model.run(script)
        model.focus = .timeline
        let row = try infoRow(model)
        #expect(row.hasPrefix("! 1 warning (W shows each): main was blocked for 130.0 ms inside waitUnti"))
        let record = try #require(model.currentPage.record)
        let warning = try #require(TraceWarnings.of(record, cores: 2).first)
        #expect(warning.sentence.hasPrefix("main was blocked for 130.0 ms inside waitUntilAllOperationsAreFinished from 0.47 s"))
    }
}
