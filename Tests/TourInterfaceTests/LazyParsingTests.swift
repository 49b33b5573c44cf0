import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// Launching parses only the page on screen: the first frame waits for page 1 alone, the other pages are read and
/// parsed ahead, off the loop's queue, after it; a page reached before its turn is read before its own frame.
/// Runs on the checkout's own pages, read and never written.
@Suite("Lazy parsing", .bodiesBelowTheRunner)
struct LazyParsingTests {
    /// Carries out what the loop would before its next frame: the reads of pages on screen. Reads ahead are what the
    /// loop starts after the frame; they are returned, not carried out.
    private static func performBeforeFrame(_ effects: [TourEffect], on model: inout TourModel) -> [[Page]] {
        var readsAhead: [[Page]] = []
        for effect in effects {
            switch effect {
            case .readSource(let page):
                let more = model.update(.editLoop(.sourceRead(page: page, page.readParsedSource())))
                readsAhead += performBeforeFrame(more, on: &model)
            case .readSourcesAhead(let pages):
                readsAhead.append(pages)
            default:
                break
            }
        }
        return readsAhead
    }

    private static func launchedModel(width: Int = 120, height: Int = 40) throws -> (TourModel, readsAhead: [[Page]]) {
        let catalog = try PageCatalog.load()
        try #require(catalog.pages.count >= 8, "the checkout's pages, eight of part one and more")
        var model = TourModel.load(catalog, speed: 1, size: Size(width: width, height: height), glyphs: .unicode,
                                   pictureDepth: .colors256)
        let readsAhead = performBeforeFrame(model.update(.launched), on: &model)
        return (model, readsAhead)
    }

    @Test("The first frame shows page 1 in full while the other pages are not parsed yet; they are read ahead after it")
    func firstFrameShowsPageOneAlone() async throws {
        let (model, readsAhead) = try Self.launchedModel()
        #expect(model.pages[0].text != nil)
        #expect(model.pages.dropFirst().allSatisfy { $0.text == nil }, "only the page shown is parsed before the first frame")
        #expect(readsAhead == [Array(model.pages.dropFirst().map(\.page))])

        let frame = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        #expect(frame.find("Operation", in: page) != nil)
        #expect(frame.find("An Operation is one unit of work", in: page) != nil)
        let knobs = try #require(model.layout.panes[.knobs])
        #expect(frame.find("executionBlocks", in: knobs) != nil, "page 1's knobs come from its full parse")
        // The page list comes from each page's header, read without parsing the pages.
        let sidebar = try #require(model.layout.sidebar)
        #expect(frame.find("8 Barrier", in: sidebar) != nil)
    }

    @Test("A click on page 8 right after launch, before any page was read ahead, shows page 8 fully in the next frame",
          arguments: [(120, 40), (80, 24)])
    func pageEightRightAfterLaunch(width: Int, height: Int) async throws {
        var (model, readsAhead) = try Self.launchedModel(width: width, height: height)
        let pageEight = model.pages[7].page
        let sidebar = try #require(model.layout.sidebar)
        let click = model.layout.mode == .full
            ? MouseEvent(.click, x: sidebar.inside.x + 1, y: sidebar.inside.y + (try #require(model.sidebarRows.firstIndex(of: .page(7)))))
            : MouseEvent(.click, x: model.stripColumns[7].lowerBound, y: sidebar.y)
        let effects = model.update(.mouse(click))
        try #require(model.current == 7)
        #expect(effects.contains(.readSource(pageEight)), "the page is read for its own frame, not left to the read ahead")
        readsAhead += Self.performBeforeFrame(effects, on: &model)

        let frame = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        #expect(frame.find("Barrier", in: page) != nil)
        #expect(frame.find("Running work concurrently is half the job", in: page) != nil)
        #expect(model.currentPage.declaredKnobs.map(\.name) == ["people", "clients", "threadSanitizer"])

        // The reads ahead finish later; page 8's, from before the click, does not replace the read made for its frame.
        let shown = try #require(model.currentPage.text)
        for pages in readsAhead {
            for page in pages { _ = model.update(.sourceReadAhead(page: page, page.readParsedSource())) }
        }
        #expect(model.currentPage.text === shown)
        #expect(model.pages.allSatisfy { $0.text != nil }, "every page is parsed once the reads ahead are in")
    }

    @Test("A page read ahead never replaces a text read since: an edit may have come in between")
    func readAheadNeverReplacesANewerRead() async throws {
        var (model, _) = try Self.launchedModel()
        let pageTwo = model.pages[1].page
        let before = ParsedPageSource(Page.SourceTexts(main: "//: # Before the edit\nlet a = 1\n"))
        let after = ParsedPageSource(Page.SourceTexts(main: "//: # After the edit\nlet a = 2\n"))
        _ = model.update(.editLoop(.sourceRead(page: pageTwo, after)))
        _ = model.update(.sourceReadAhead(page: pageTwo, before))
        #expect(model.pages[1].document.title == "After the edit")
    }
}
