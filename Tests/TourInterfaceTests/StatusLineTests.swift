import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// The bottom row: a one-off notice is read whole, even at 80 columns.
@Suite("Status line", .bodiesBelowTheRunner)
struct StatusLineTests {
    @Test("At 80×24 the first launch's notice shows whole, and the run's state gives way to it", arguments: [80, 120])
    func aNoticeShowsWhole(width: Int) throws {
        var model = try FixturePages.model(width: width, height: width == 80 ? 24 : 40)
        let notice = "Built in 49 s; later launches open at once."
        model.notice = notice
        let screen = TourRenderer.render(model)
        let bottom = try #require(screen.lines(in: Rect(x: 0, y: screen.size.height - 1, width: width, height: 1)).first)
        #expect(bottom.contains(notice), "the bottom row is \(bottom)")
        #expect(bottom.contains("1/"), "the page still shows: \(bottom)")
    }
}
