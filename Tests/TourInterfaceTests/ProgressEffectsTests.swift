import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// The interface remembers pages opened and run only by asking the loop to (`.recordProgress`), and starts on the
/// page the progress says was left.
@Suite("Progress effects", .bodiesBelowTheRunner)
struct ProgressEffectsTests {
    @Test func theFirstPageShownIsThePageLeft() async throws {
        let catalog = try FixturePages.catalog()
        var progress = ProgressRecord()
        progress.apply(.opened(page: catalog.pages[1].slug), at: Date(timeIntervalSince1970: 0))
        var model = TourModel.load(catalog, speed: 1, size: Size(width: 120, height: 40), glyphs: .unicode,
                                   pictureDepth: .colors256, progress: progress)
        #expect(model.current == 1)
        #expect(model.update(.launched).contains(.recordProgress(.opened(page: catalog.pages[1].slug))))
        var gone = ProgressRecord()
        gone.lastPage = "no-such-page"
        #expect(TourModel.load(catalog, speed: 1, size: Size(width: 120, height: 40), glyphs: .unicode,
                               pictureDepth: .colors256, progress: gone).current == 0, "a page since removed starts at the first")
    }

    @Test func runningAPageRecordsARunBeforeItStarts() async throws {
        var model = try FixturePages.model()
        let effects = model.update(.key(.character("r")))
        let slug = model.currentPage.page.slug
        let recorded = try #require(effects.firstIndex(of: .recordProgress(.ran(page: slug))))
        let started = try #require(effects.firstIndex { if case .start = $0 { true } else { false } })
        #expect(recorded < started)
        #expect(effects.last.map { if case .start = $0 { true } else { false } } == true, "the run's start stays last")
    }

    @Test func aProgressProblemIsSaidInTheStatusLine() async throws {
        var model = try FixturePages.model()
        #expect(model.update(.progressProblem("progress file /x/progress.json is not valid JSON")).isEmpty)
        #expect(model.notice == "progress file /x/progress.json is not valid JSON")
    }
}
