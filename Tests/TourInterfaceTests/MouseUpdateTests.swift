import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

@Suite("Mouse", .bodiesBelowTheRunner)
struct MouseUpdateTests {
    @Test("A click on a page in the sidebar opens it; in the compact layout, a click on its number in the strip")
    func clickPage() throws {
        var model = try FixturePages.model()
        let list = try #require(model.layout.sidebar).inside
        _ = model.update(.mouse(MouseEvent(.click, x: list.x + 3, y: list.y + 1)))
        #expect(model.current == 1)

        var compact = try FixturePages.model(width: 80, height: 24)
        let second = ScreenLayout.stripColumns(pageNumbers: [1, 2])[1]
        _ = compact.update(.mouse(MouseEvent(.click, x: second.lowerBound + 1, y: 0)))
        #expect(compact.current == 1)
    }

    @Test("A click in a pane focuses it")
    func clickFocus() throws {
        var model = try FixturePages.model()
        for pane in [Pane.output, .timeline, .knobs, .page] {
            let box = try #require(model.layout.panes[pane])
            _ = model.update(.mouse(MouseEvent(.click, x: box.x + 2, y: box.y + 2)))
            #expect(model.focus == pane)
        }
    }

    @Test("In the compact layout a click on a tab shows that pane")
    func clickTab() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        let box = try #require(model.layout.panes[.output])
        let timelineTab = try #require(ScreenLayout.tabColumns(in: box).first { $0.pane == .timeline })
        _ = model.update(.mouse(MouseEvent(.click, x: timelineTab.columns.lowerBound + 1, y: box.y)))
        #expect(model.focus == .timeline)
        #expect(model.layout.panes[.timeline] == box)
    }

    @Test("The wheel scrolls the pane under the pointer, focused or not")
    func wheel() throws {
        var model = try FixturePages.model(width: 80, height: 24)
        let page = try #require(model.layout.panes[.page])
        _ = model.update(.mouse(MouseEvent(.wheelDown, x: page.x + 5, y: page.y + 5)))
        #expect(model.currentPage.pageScroll == 3)
        _ = model.update(.mouse(MouseEvent(.wheelUp, x: page.x + 5, y: page.y + 5)))
        #expect(model.currentPage.pageScroll == 0)

        model.run(.finishedQueueRun)
        let output = try #require(model.layout.panes[.output])
        _ = model.update(.mouse(MouseEvent(.wheelUp, x: output.x + 5, y: output.y + 3)))
        #expect(model.currentPage.outputScrollBack == 3)
        #expect(model.focus == .page)
    }

    @Test("A click on a page's own @next link goes to the next page")
    func clickLink() throws {
        var model = try FixturePages.model()
        model.press(.character("G"))
        let screen = TourRenderer.render(model)
        let link = try #require(screen.find("Dispatch (n)"))
        _ = model.update(.mouse(MouseEvent(.click, x: link.x + 2, y: link.y)))
        #expect(model.current == 1)
    }

    @Test("A click on a bar selects its span")
    func clickSpan() throws {
        var model = try FixturePages.model()
        model.run(.finishedQueueRun)
        let timeline = try #require(model.layout.panes[.timeline])
        let bar = try #require(TourRenderer.render(model).find("helper", in: timeline))
        _ = model.update(.mouse(MouseEvent(.click, x: bar.x + 1, y: bar.y)))
        #expect(model.focus == .timeline)
        #expect(model.currentPage.timeline.selectedSpanID == 2)
        #expect(model.currentPage.timeline.selectedLane == 1)
    }

    @Test("While the help is open a click closes it; while quitting is asked, clicks do nothing")
    func clickOverlays() throws {
        var model = try FixturePages.model()
        model.press(.character("?"))
        _ = model.update(.mouse(MouseEvent(.click, x: 1, y: 2)))
        #expect(model.overlay == nil)
        #expect(model.current == 0)
        model.press(.character("r"), .character("q"))
        _ = model.update(.mouse(MouseEvent(.click, x: 1, y: 2)))
        #expect(model.overlay == .confirmQuit)
    }
}
