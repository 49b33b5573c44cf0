import Foundation
import Testing
import PageProtocol
import TourCore
@testable import TourInterface
import TourTestSupport

@Suite("Keys", .bodiesBelowTheRunner)
struct KeyUpdateTests {
    @Test("n, p, → and ← move between pages and stop at the ends")
    func pageKeys() throws {
        var model = try FixturePages.model()
        model.press(.character("n"))
        #expect(model.current == 1)
        model.press(.right)
        #expect(model.current == 1)
        #expect(model.notice == "This is the last page.")
        model.press(.character("p"))
        #expect(model.current == 0)
        model.press(.right, .left)
        #expect(model.current == 0)
    }

    @Test("r starts the current page with its knob settings and the speed; r again stops that run and starts a new one")
    func runAndRerun() throws {
        var model = try FixturePages.model()
        let first = model.update(.key(.character("r")))
        let order = try #require(first.last?.runOrder, "r did not start a run: \(first)")
        #expect(first == [.recordProgress(.ran(page: order.page.slug)), .start(order)])
        #expect(order.page.number == 1)
        #expect(order.speed == 1)
        #expect(model.currentPage.status == .running)

        let second = model.update(.key(.character("r")))
        #expect(second.first == .stop(runID: order.runID))
        let rerun = try #require(second.last?.runOrder, "r did not rerun: \(second)")
        #expect(rerun.runID != order.runID)
        // Events of the stopped run no longer reach the page.
        _ = model.update(.host(runID: order.runID, .ended(.stopped, time: RunScript.time(1))))
        #expect(model.currentPage.status == .running)
    }

    @Test("Running another page stops the one in flight first")
    func oneRunAtATime() throws {
        var model = try FixturePages.model()
        let first = model.update(.key(.character("r")))
        let order = try #require(first.last?.runOrder, "r did not start a run: \(first)")
        model.press(.character("n"))
        let effects = model.update(.key(.character("r")))
        let second = try #require(effects.last?.runOrder, "r did not start the second run: \(effects)")
        #expect(effects == [.stop(runID: order.runID), .recordProgress(.ran(page: second.page.slug)), .start(second)])
    }

    @Test("s stops the run in flight, or says nothing is running")
    func stopKey() throws {
        var model = try FixturePages.model()
        #expect(model.update(.key(.character("s"))).isEmpty)
        #expect(model.notice == "Nothing is running; r runs this page.")
        let order = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        #expect(model.update(.key(.character("s"))) == [.stop(runID: order.runID)])
    }

    @Test("q quits at once when idle, asks while a page runs; n keeps going, y stops and quits")
    func quitKeys() throws {
        var model = try FixturePages.model()
        #expect(model.update(.key(.character("q"))) == [.quit])

        let order = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        #expect(model.update(.key(.character("q"))).isEmpty)
        #expect(model.overlay == .confirmQuit)
        #expect(model.update(.key(.character("x"))).isEmpty)
        #expect(model.overlay == .confirmQuit)
        #expect(model.update(.key(.character("n"))).isEmpty)
        #expect(model.overlay == nil)
        model.press(.character("q"))
        #expect(model.update(.key(.character("y"))) == [.stop(runID: order.runID), .quit])
    }

    @Test("? opens the help and any key closes it without acting")
    func helpKey() throws {
        var model = try FixturePages.model()
        model.press(.character("?"))
        #expect(model.overlay == .help)
        model.press(.character("n"))
        #expect(model.overlay == nil)
        #expect(model.current == 0)
    }

    @Test("Tab and shift-Tab cycle the focus; in the compact layout the focused pane becomes the bottom tab")
    func focusKeys() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        #expect(model.focus == .page)
        model.press(.tab)
        #expect(model.focus == .output)
        model.press(.tab)
        #expect(model.focus == .timeline)
        #expect(model.compactTab == .timeline)
        model.press(.tab, .tab)
        #expect(model.focus == .page)
        #expect(model.compactTab == .knobs)
        model.press(.backTab)
        #expect(model.focus == .knobs)
    }

    @Test("z zooms the focused pane to the whole screen; z or Esc brings the layout back")
    func zoomKey() throws {
        var model = try FixturePages.model()
        model.press(.tab, .character("z"))
        #expect(model.zoomed)
        #expect(model.layout.panes == [.output: Rect(x: 0, y: 0, width: 120, height: 39)])
        model.press(.escape)
        #expect(!model.zoomed)
        model.press(.character("z"), .character("z"))
        #expect(!model.zoomed)
    }

    @Test("G then z: the zoomed page pane ends on the page's last row, not past it in blank rows")
    func bottomThenZoom() throws {
        var model = try FixtureExercises.model(width: 120, height: 40)
        model.press(.character("G"))
        #expect(model.currentPage.pageScroll > 0, "the page is longer than its pane before the zoom")
        model.press(.character("z"))
        let pane = try #require(model.layout.panes[.page])
        let rows = model.pageLayout().rows
        #expect(model.currentPage.pageScroll == max(0, rows.count - pane.inside.height))
        let screen = TourRenderer.render(model)
        let shown = screen.lines(in: pane.inside)
        let lastRow = try #require(rows.last)
        let lastText = String(lastRow.cells.map(\.character)).trimmingCharacters(in: .whitespaces)
        let lastShown = rows.count >= pane.inside.height ? shown.last : shown[rows.count - 1]
        #expect(lastShown?.trimmingCharacters(in: .whitespaces) == lastText, "\(shown.joined(separator: "\n"))")
    }

    @Test("[ and ] choose a knob, - and + change it within its range, and the next run gets the value")
    func knobKeys() throws {
        var model = try FixturePages.model()
        #expect(model.currentPage.knobs.map(\.name) == ["width", "serial"])
        model.press(.character("+"))
        #expect(model.currentPage.chosenKnobValues == ["width": "3"])
        #expect(model.notice == "width = 3 for the next run: press r to run.")
        model.press(.character("+"), .character("+"))
        #expect(model.currentPage.chosenKnobValues["width"] == "4")
        model.press(.character("]"), .character("+"))
        #expect(model.currentPage.chosenKnobValues["serial"] == "true")
        model.press(.character("]"))
        #expect(model.currentPage.selectedKnob == 0)
        model.press(.character("["))
        #expect(model.currentPage.selectedKnob == 1)
        model.press(.character("-"))
        #expect(model.currentPage.chosenKnobValues["serial"] == "false")

        let order = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        #expect(order.knobSettings == [KnobSetting(name: "width", value: "4")])
    }

    @Test("Changing a knob during a run keeps the run and says r applies it")
    func knobDuringRun() throws {
        var model = try FixturePages.model()
        model.press(.character("r"))
        let effects = model.update(.key(.character("-")))
        #expect(effects.isEmpty)
        #expect(model.notice == "width = 1 from the next run: press r to rerun with it.")
    }

    @Test("Knob keys on a page without knobs say so, and show the knob tab in the compact layout")
    func noKnobs() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        model.press(.character("n"), .character("+"))
        #expect(model.notice == "This page has no knobs.")
        #expect(model.compactTab == .knobs)
    }

    @Test("< and > step the speed through 0.25× to 8× and stop at the ends")
    func speedKeys() throws {
        var model = try FixturePages.model()
        model.press(.character(">"))
        #expect(model.speed == 2)
        model.press(.character(">"), .character(">"), .character(">"))
        #expect(model.speed == 8)
        #expect(model.notice == "Speed is already at its fastest, 8×.")
        for _ in 0..<6 { model.press(.character("<")) }
        #expect(model.speed == 0.25)
        let order = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        #expect(order.speed == 0.25)
    }

    @Test("j, k, PgDn, PgUp, g and G scroll the page within its length")
    func pageScrollKeys() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        model.press(.character("j"), .down)
        #expect(model.currentPage.pageScroll == 2)
        model.press(.character("k"), .up, .up)
        #expect(model.currentPage.pageScroll == 0)
        model.press(.character("G"))
        let last = model.currentPage.pageScroll
        #expect(last > 0)
        model.press(.pageDown, .character("j"))
        #expect(model.currentPage.pageScroll == last)
        model.press(.character("g"))
        #expect(model.currentPage.pageScroll == 0)
        model.press(.pageDown)
        let screenful = try #require(model.layout.panes[.page]).inside.height - 1
        #expect(model.currentPage.pageScroll == min(last, screenful))
        model.press(.pageUp)
        #expect(model.currentPage.pageScroll == 0)
        model.press(.end, .home)
        #expect(model.currentPage.pageScroll == 0)
    }

    @Test("In the output, k and g go back in time, G follows the newest line again")
    func outputScrollKeys() throws {
        var model = try FixturePages.model()
        model.run(.finishedQueueRun)
        model.press(.tab)
        #expect(model.focus == .output)
        model.press(.character("k"), .character("k"))
        #expect(model.currentPage.outputScrollBack == 2)
        model.press(.character("j"))
        #expect(model.currentPage.outputScrollBack == 1)
        model.press(.character("g"))
        let entries = OutputEntries(record: model.currentPage.record, glyphs: .unicode)
        #expect(model.currentPage.outputScrollBack == entries.count - 1)
        model.press(.character("G"))
        #expect(model.currentPage.outputScrollBack == 0)
    }

    @Test("In the timeline, j/k pick a lane, h/l a span or mark, i/o zoom, 0 fits, H/L pan")
    func timelineKeys() throws {
        var model = try FixturePages.model()
        model.run(.finishedQueueRun)
        model.press(.tab, .tab)
        #expect(model.focus == .timeline)
        model.press(.character("l"))
        #expect(model.currentPage.timeline.selectedSpanID == 1)
        model.press(.character("j"))
        #expect(model.currentPage.timeline.selectedLane == 1)
        #expect(model.currentPage.timeline.selectedSpanID == 2)
        // The worker's lane has a mark after its span: l goes on to it, and the info row names it.
        model.press(.character("l"))
        #expect(model.currentPage.timeline.selectedSpanID == nil)
        #expect(model.currentPage.timeline.selectedMarkTime == RunScript.time(200))
        let timeline = try #require(model.layout.panes[.timeline])
        #expect(TourRenderer.render(model).find("◆ halfway  at 200.0 ms", in: timeline) != nil)
        model.press(.character("h"))
        #expect(model.currentPage.timeline.selectedSpanID == 2)
        model.press(.character("k"), .character("h"))
        #expect(model.currentPage.timeline.selectedSpanID == 1)

        model.press(.character("i"))
        let zoom = try #require(model.currentPage.timeline.secondsPerColumn)
        model.press(.character("i"))
        #expect(model.currentPage.timeline.secondsPerColumn == zoom / 2)
        let start = model.currentPage.timeline.startSeconds
        model.press(.character("L"))
        #expect(model.currentPage.timeline.startSeconds > start)
        model.press(.character("H"), .character("H"))
        #expect(model.currentPage.timeline.startSeconds == 0)
        model.press(.character("o"))
        #expect(model.currentPage.timeline.secondsPerColumn == zoom)
        model.press(.character("0"))
        #expect(model.currentPage.timeline.secondsPerColumn == nil)
        model.press(.character("H"))
        #expect(model.notice == "The whole run is in view; zoom in with i first.")
    }

    @Test("In the knob panel, j and k choose the knob")
    func knobPanelScroll() throws {
        var model = try FixturePages.model()
        model.press(.backTab)
        #expect(model.focus == .knobs)
        model.press(.character("j"))
        #expect(model.currentPage.selectedKnob == 1)
        model.press(.character("j"))
        #expect(model.currentPage.selectedKnob == 1)
        model.press(.character("k"))
        #expect(model.currentPage.selectedKnob == 0)
    }

    @Test("Ctrl-L asks for a full redraw")
    func redrawKey() throws {
        var model = try FixturePages.model()
        #expect(model.update(.key(.redraw)) == [.redrawAll])
    }

    @Test("A notice lasts until the next key")
    func noticeClears() throws {
        var model = try FixturePages.model()
        model.press(.character("s"))
        #expect(model.notice != nil)
        model.press(.character("j"))
        #expect(model.notice == nil)
    }
}
