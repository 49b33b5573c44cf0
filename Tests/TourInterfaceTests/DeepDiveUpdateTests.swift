import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// `o`, `O` and a click open and close the deep dives of the fixture page `Internals` (markers on lines 6 and 23).
@Suite("Deep dives", .bodiesBelowTheRunner)
struct DeepDiveUpdateTests {
    static let first = 6
    static let second = 23

    /// The internals page at 80×24, where its pane is shorter than the page.
    private func internals(width: Int = 80, height: Int = 24) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height, withDeepDives: true)
        model.press(.character("n"), .character("n"))
        try #require(model.currentPage.page.title == "Internals")
        return model
    }

    private func rows(_ model: TourModel) -> [PageRow] {
        model.pageLayout().rows
    }

    /// The text of the page pane's top row.
    private func topRow(_ model: TourModel) -> String {
        rows(model)[model.currentPage.pageScroll].text
    }

    private func header(of line: Int, in model: TourModel) throws -> Int {
        try #require(rows(model).firstIndex { $0.deepDive == line && $0.togglesDeepDive })
    }

    @Test("o opens the first deep dive below the top of the pane, and o again folds it; the page stays put")
    func openAndCloseTheNextOne() throws {
        // At 120×40 the open deep dive fits below the title, so nothing needs to scroll.
        var model = try internals(width: 120, height: 40)
        let folded = rows(model).count
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives == [Self.first])
        #expect(model.currentPage.pageScroll == 0)
        #expect(rows(model).count == folded + 8, "the folded row became a box of 9 rows")
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives.isEmpty)
        #expect(rows(model).count == folded)
        #expect(model.currentPage.pageScroll == 0)
    }

    @Test("With the first deep dive above the top of the pane, o opens the next one")
    func skipsDeepDivesAboveTheTop() throws {
        var model = try internals()
        model.currentPage.pageScroll = try header(of: Self.first, in: model) + 1
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives == [Self.second])
    }

    @Test("Reading inside an open deep dive, o folds it and leaves its folded row at the top")
    func closingFromInside() throws {
        var model = try internals()
        model.press(.character("o"))
        let header = try header(of: Self.first, in: model)
        model.currentPage.pageScroll = header + 4
        #expect(topRow(model).contains("Two kinds of source:"))
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives.isEmpty)
        #expect(model.currentPage.pageScroll == header)
        #expect(topRow(model).hasPrefix("▸ Deep dive: What wakes a sleeping loop."))
    }

    @Test("A deep dive below the pane scrolls into view when o opens it, and an opened one shows as much as fits")
    func bringsTheDeepDiveIntoView() throws {
        var model = try internals()
        // Just past the first deep dive: the second one is below the bottom of the pane.
        model.currentPage.pageScroll = try header(of: Self.first, in: model) + 1
        let visible = try #require(model.layout.panes[.page]).inside.height
        try #require(try header(of: Self.second, in: model) >= model.currentPage.pageScroll + visible)
        model.press(.character("o"))
        let second = try header(of: Self.second, in: model)
        let last = try #require(rows(model).lastIndex { $0.deepDive == Self.second })
        let scroll = model.currentPage.pageScroll
        #expect(scroll <= second && last < scroll + visible, "the whole open deep dive is in the pane")

        // At the top of the page, the first one opens below the title: the pane moves just enough to show all of it.
        model.press(.character("g"), .character("o"))
        let first = try header(of: Self.first, in: model)
        let firstLast = try #require(rows(model).lastIndex { $0.deepDive == Self.first })
        #expect(model.currentPage.pageScroll == max(0, min(first, firstLast - visible + 1)))
        #expect(model.currentPage.pageScroll <= first)
    }

    @Test("O opens every deep dive, then folds them all, keeping the row at the top of the pane where it was")
    func openAndCloseAll() throws {
        var model = try internals()
        model.currentPage.pageScroll = try #require(rows(model).firstIndex { $0.text.hasPrefix("A paragraph between") })
        model.press(.character("O"))
        #expect(model.currentPage.openDeepDives == [Self.first, Self.second])
        #expect(topRow(model).hasPrefix("A paragraph between"), "the first deep dive opened above the top without moving it")
        #expect(model.notice == "2 deep dives open; O folds them again.")
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives == [Self.first], "o took the one below the top")
        model.press(.character("O"))
        #expect(model.currentPage.openDeepDives == [Self.first, Self.second], "O opens all while any is folded")
        model.press(.character("O"))
        #expect(model.currentPage.openDeepDives.isEmpty)
        #expect(topRow(model).hasPrefix("A paragraph between"))
    }

    @Test("Opening and closing keeps the code lines numbered, so each result stays beside its line")
    func resultsStayOnTheirLines() throws {
        var model = try internals(width: 120, height: 40)
        model.run(Self.resultsRun)
        for open in [false, true] {
            var screen = TourRenderer.render(model)
            let waits = try #require(screen.find("15 let waits = peek(2)"))
            #expect(screen.text(ofRow: waits.y).contains("│ 2 "), "open: \(open)")
            model.press(.character("G"))
            screen = TourRenderer.render(model)
            let threads = try #require(screen.find("26 let threads = peek(3)"))
            #expect(screen.text(ofRow: threads.y).contains("│ 3 "), "open: \(open)")
            model.press(.character("g"), .character("O"))
        }
    }

    @Test("A click on a folded deep dive opens it, on an open one's top border closes it, and on its text does nothing")
    func clicks() throws {
        var model = try internals()
        let inner = try #require(model.layout.panes[.page]).inside
        let header = try header(of: Self.first, in: model)
        func click(row: Int) {
            _ = model.update(.mouse(MouseEvent(.click, x: inner.x + 5, y: inner.y + row - model.currentPage.pageScroll)))
        }
        click(row: header)
        #expect(model.currentPage.openDeepDives == [Self.first])
        click(row: header + 1)
        #expect(model.currentPage.openDeepDives == [Self.first])
        click(row: header)
        #expect(model.currentPage.openDeepDives.isEmpty)
    }

    @Test("o and O say so on a page without deep dives, and while the timeline has the focus o zooms it out")
    func whereOHasOtherWork() throws {
        var plain = try FixturePages.model()
        plain.press(.character("o"))
        #expect(plain.notice == "This page has no deep dives.")
        plain.press(.character("O"))
        #expect(plain.notice == "This page has no deep dives.")

        var model = try internals()
        model.run(Self.resultsRun)
        model.press(.tab, .tab, .character("i"))
        #expect(model.focus == .timeline)
        #expect(model.currentPage.timeline.secondsPerColumn != nil)
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives.isEmpty)
        #expect(model.currentPage.timeline.secondsPerColumn == nil, "o zoomed back out to the whole run")
    }

    @Test("With another pane zoomed, o leaves the hidden page alone and says how to see it")
    func pageNotOnScreen() throws {
        var model = try internals()
        model.press(.tab, .character("z"), .character("o"))
        #expect(model.currentPage.openDeepDives.isEmpty)
        #expect(model.notice == "The page is not on screen: Esc shows it, then o opens its deep dives.")
    }

    @Test("Below the last deep dive, o says where the others are")
    func nothingBelow() throws {
        var model = try internals()
        model.press(.character("G"))
        model.currentPage.pageScroll = try header(of: Self.second, in: model) + 1
        model.press(.character("o"))
        #expect(model.currentPage.openDeepDives.isEmpty)
        #expect(model.notice == "No deep dive below this point; g goes to the top.")
    }

    /// A run that reports the internals page's two results.
    static var resultsRun: RunScript {
        var script = RunScript()
        script.result(line: 15, "2", at: 1)
        script.result(line: 26, "3", at: 2)
        script.end(.exited(code: 0), at: 3)
        return script
    }
}
