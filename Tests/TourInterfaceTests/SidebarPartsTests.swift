import Testing
import TourCore
import TourTestSupport
@testable import TourInterface

/// The sidebar shows the pages under their parts' titles, and a click still opens the page drawn under it.
@Suite("Sidebar parts", .bodiesBelowTheRunner)
struct SidebarPartsTests {
    /// A model of the four pages, every source read before their folder goes.
    private static func model(width: Int = 120, height: Int = 40) throws -> TourModel {
        let folder = try PartedCatalog()
        var model = TourModel.load(folder.catalog, speed: 1, size: Size(width: width, height: height), glyphs: .unicode,
                                   pictureDepth: .colors256, exercises: [])
        model.readEverySource()
        return model
    }

    @Test func theListShowsEachPartsTitleAboveItsFirstPage() async throws {
        let model = try Self.model()
        let list = try #require(model.layout.sidebar).inside
        let frame = TourRenderer.render(model)
        let rows = (list.y..<(list.y + 6)).map { frame.text(ofRow: $0) }
        let titles = ["Operations and Dispatch", "1 Operation", "2 Queue", "Swift Concurrency", "3 Tasks", "4 Task groups"]
        for (row, title) in zip(rows, titles) {
            #expect(row.contains(title), "'\(row)' should show \(title)")
        }
        #expect(model.sidebarRows == [.part("Operations and Dispatch"), .page(0), .page(1), .part("Swift Concurrency"), .page(2), .page(3)])
        #expect(try #require(model.layout.sidebar).height == 6 + 2, "the box has room for the titles too")
    }

    @Test func aClickOnAPageOpensItAndAClickOnAPartsTitleDoesNothing() async throws {
        var model = try Self.model()
        let list = try #require(model.layout.sidebar).inside
        _ = model.update(.mouse(MouseEvent(.click, x: list.x + 3, y: list.y + 4)))
        #expect(model.current == 2, "the row under part two's title is page 3")
        _ = model.update(.mouse(MouseEvent(.click, x: list.x + 3, y: list.y + 3)))
        #expect(model.current == 2, "a part's title opens no page")
    }

    @Test func theCompactStripDividesThePartsAndItsColumnsStillOpenTheirPages() async throws {
        var model = try Self.model(width: 80, height: 24)
        let strip = try #require(model.layout.sidebar)
        let columns = model.stripColumns
        #expect(columns[2].lowerBound == columns[1].upperBound + ScreenLayout.stripPartGap, "a gap before part two's first page")
        #expect(columns[1].lowerBound == columns[0].upperBound, "none inside a part")
        let frame = TourRenderer.render(model)
        #expect(frame.text(ofRow: strip.y).contains("  │ 3"), "'\(frame.text(ofRow: strip.y))'")
        _ = model.update(.mouse(MouseEvent(.click, x: columns[2].lowerBound + 1, y: strip.y)))
        #expect(model.current == 2)
        _ = model.update(.mouse(MouseEvent(.click, x: columns[1].upperBound, y: strip.y)))
        #expect(model.current == 2, "a click in the gap opens no page")
    }
}
