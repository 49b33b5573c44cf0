import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

@Suite("Screen snapshots", .bodiesBelowTheRunner)
struct ScreenSnapshotTests {
    static let full = Size(width: 120, height: 40)
    static let compact = Size(width: 80, height: 24)

    private func finishedRun(size: Size) throws -> TourModel {
        var model = try FixturePages.model(width: size.width, height: size.height)
        model.run(.finishedQueueRun)
        return model
    }

    @Test("120×40 before any run: every pane, each saying what will appear in it")
    func fullBeforeRun() throws {
        let model = try FixturePages.model()
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "full-before-run")
        // The focused page pane's frame stands out; the current page is reversed in the list.
        let page = try #require(model.layout.panes[.page])
        #expect(screen[page.x, page.y].style == CellStyle(foreground: .accent, bold: true))
        #expect(screen[1, 1].style.reverse)
        #expect(screen[0, 39].style.reverse)
    }

    @Test("120×40 after a run: output, lanes with spans and a mark, results beside their lines, the ending in words")
    func fullAfterRun() throws {
        let model = try finishedRun(size: Self.full)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "full-after-run")
        let layout = model.layout

        let page = try #require(layout.panes[.page])
        Snapshot.expect(screen.lines(in: page), matches: "pane-page-120")
        let result = try #require(screen.find("398.0 ms"))
        #expect(screen[result.x, result.y].style == CellStyle(foreground: .result, bold: true))
        #expect(screen.text(ofRow: result.y).contains("duration {"))
        #expect(screen.find("2 ×2") != nil)

        let output = try #require(layout.panes[.output])
        Snapshot.expect(screen.lines(in: output), matches: "pane-output-120")
        let warning = try #require(screen.find("warning: slow"))
        #expect(screen[warning.x, warning.y].style.foreground == .stderr)
        #expect(screen[output.x + 1, warning.y].character == "!")

        let timeline = try #require(layout.panes[.timeline])
        Snapshot.expect(screen.lines(in: timeline), matches: "pane-timeline-120")
        let bar = try #require(screen.find("work", in: timeline))
        let record = try #require(model.currentPage.record)
        #expect(screen[bar.x, bar.y].style == CellStyle(foreground: .queue(try #require(record.queueNumber(of: RunScript.mainQueue))), reverse: true))

        let knobs = try #require(layout.panes[.knobs])
        Snapshot.expect(screen.lines(in: knobs), matches: "pane-knobs-120")
        Snapshot.expect(screen.lines(in: try #require(layout.sidebar)), matches: "pane-sidebar-120")
        Snapshot.expect([screen.text(ofRow: 39)], matches: "status-after-run-120")
    }

    @Test("80×24 before any run: the page above, output as the first tab below")
    func compactBeforeRun() throws {
        let screen = TourRenderer.render(try FixturePages.model(width: 80, height: 24))
        Snapshot.expect(screen.lines, matches: "compact-before-run")
    }

    @Test("80×24 after a run: each of output, timeline and knobs in turn as the bottom tab")
    func compactTabs() throws {
        var model = try finishedRun(size: Self.compact)
        let page = try #require(model.layout.panes[.page])
        Snapshot.expect(TourRenderer.render(model).lines(in: page), matches: "pane-page-80")
        for tab in ScreenLayout.bottomTabs {
            model.press(.tab)
            #expect(model.focus == tab)
            let screen = TourRenderer.render(model)
            Snapshot.expect(screen.lines, matches: "compact-\(tab.rawValue)")
            // The tab of the pane on show is reversed in the frame.
            let label = try #require(screen.find(" \(tab.title) "))
            #expect(screen[label.x, label.y].style.reverse)
        }
    }

    @Test("The timeline's selected span is described under the axis and stands out")
    func selectedSpan() throws {
        var model = try finishedRun(size: Self.full)
        model.press(.tab, .tab, .character("j"), .character("l"))
        let screen = TourRenderer.render(model)
        let timeline = try #require(model.layout.panes[.timeline])
        Snapshot.expect(screen.lines(in: timeline), matches: "pane-timeline-selected-120")
        let bar = try #require(screen.find("helper", in: timeline))
        #expect(screen[bar.x, bar.y].style == CellStyle(foreground: .selectedSpan, bold: true, reverse: true))
    }

    @Test("While a page runs, open spans reach the current time and the status line counts")
    func running() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        var script = RunScript()
        script.span(1, "still going", from: 10, to: nil, thread: RunScript.mainThread, queue: RunScript.mainQueue)
        script.span(2, "short", from: 20, to: 200, thread: RunScript.worker, queue: RunScript.workerQueue)
        model.run(script)
        _ = model.update(.tick(now: RunScript.time(1_000)))
        model.press(.tab, .tab)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-running")
        let timeline = try #require(model.layout.panes[.timeline])
        // What a thread runs now is bold, in its queue's colour.
        let open = try #require(screen.find("still going", in: timeline))
        #expect(screen[open.x, open.y].style == CellStyle(foreground: .queue(0), bold: true, reverse: true))
        let short = try #require(screen.find("short", in: timeline))
        #expect(screen[short.x, short.y].style == CellStyle(foreground: .queue(1), reverse: true))
    }

    @Test("A crash the page did not announce: headline in the status line, explanation in the output")
    func crashed() throws {
        var model = try FixturePages.model()
        var script = RunScript()
        script.stderr("main.swift:9: Fatal error: boom", at: 5)
        script.end(.fatalError(message: "Fatal error: boom", location: "main.swift:9"), at: 6)
        model.run(script)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines(in: try #require(model.layout.panes[.output])), matches: "pane-output-crash-120")
        Snapshot.expect([screen.text(ofRow: 39)], matches: "status-crash-120")
        #expect(model.currentPage.status == .crashed)
        // The state glyph sits at the right edge of the page's row in the list.
        let list = try #require(model.layout.sidebar).inside
        #expect(screen[list.maxX - 1, list.y].character == "✗")
        #expect(screen[list.maxX - 1, list.y].style.foreground == .failure)
    }

    @Test("120×40: deep dives folded to a row each, then open, with results beside their lines either way")
    func fullDeepDives() throws {
        var model = try FixturePages.model(withDeepDives: true)
        model.press(.character("n"), .character("n"))
        model.run(DeepDiveUpdateTests.resultsRun)
        let page = try #require(model.layout.panes[.page])
        var screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines(in: page), matches: "pane-page-deep-dives-folded-120")
        let folded = try #require(screen.find("▸ Deep dive: What wakes a sleeping loop."))
        #expect(screen[folded.x, folded.y].style == CellStyle(foreground: .deepDive, bold: true))
        let hint = try #require(screen.find("o opens"))
        #expect(screen[hint.x, hint.y].style == CellStyle(foreground: .muted))

        model.press(.character("O"))
        screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines(in: page), matches: "pane-page-deep-dives-open-120")
        let frame = try #require(screen.find("┌─ Deep dive"))
        #expect(screen[frame.x, frame.y].style.foreground == .deepDive)
    }

    @Test("80×24: a folded deep dive, then the page with it open")
    func compactDeepDives() throws {
        var model = try FixturePages.model(width: 80, height: 24, withDeepDives: true)
        model.press(.character("n"), .character("n"))
        model.run(DeepDiveUpdateTests.resultsRun)
        Snapshot.expect(TourRenderer.render(model).lines, matches: "compact-deep-dive-folded")
        model.press(.character("o"))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "compact-deep-dive-open")
    }

    @Test("The help lists every key; the quit question names the running page")
    func overlays() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        model.press(.character("?"))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "compact-help")
        // At 80×24 the help has no row to spare: every key's line still shows, and so does how to close it.
        let help = TourRenderer.render(model).lines.joined(separator: "\n")
        for line in Overlays.helpLines(model) {
            #expect(help.contains(line.meaning), "the help at 80×24 leaves out or cuts \(line.keys)")
        }
        #expect(help.contains("Any key closes this."))
        // On stage too, at both sizes a speaker uses.
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 40)] {
            var stage = try FixturePages.model(width: size.width, height: size.height)
            stage.press(.character("P"), .character("?"))
            let screen = TourRenderer.render(stage).lines.joined(separator: "\n")
            for line in Overlays.helpLines(stage) {
                #expect(screen.contains(line.meaning), "the presenter's help at \(size.width)×\(size.height) leaves out or cuts \(line.keys)")
            }
            #expect(!screen.contains("not built yet"), "the stage has no list of pages, so its help has no states to explain")
        }
        model.press(.escape, .character("r"), .character("q"))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "compact-confirm-quit")
    }

    @Test("Smaller than 80×24: a centred request for more room, and the layout back when it grows")
    func tooSmall() throws {
        var model = try finishedRun(size: Self.full)
        _ = model.update(.resize(Size(width: 60, height: 20)))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "too-small")
        _ = model.update(.resize(Self.full))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "full-after-run")

        var running = try FixturePages.model(width: 60, height: 20)
        running.press(.character("r"), .character("q"))
        #expect(TourRenderer.render(running).lines.contains { $0.contains("y stops it and quits, n stays.") })
    }

    @Test("Outside a UTF-8 locale every frame and marker is ASCII")
    func ascii() throws {
        var model = try FixturePages.model(width: 80, height: 24, glyphs: .ascii)
        model.run(.finishedQueueRun)
        let lines = TourRenderer.render(model).lines
        Snapshot.expect(lines, matches: "compact-ascii")
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test("z gives the focused pane the whole screen")
    func zoomedOutput() throws {
        var model = try finishedRun(size: Self.compact)
        model.press(.tab, .character("z"))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "compact-zoomed-output")
    }
}
