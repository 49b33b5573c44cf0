import Testing
@testable import TourInterface
import TourTestSupport

/// `B` on a page with a level of "be the scheduler": the page's title says so, the key asks the shell to play it (the
/// page's levels in turn), on stage too, and a page without one says where the levels are. The shell lends the terminal
/// to the game and draws the tutorial again as it was (`TourLoopTests`).
@Suite("The level key", .bodiesBelowTheRunner)
struct LevelKeyTests {
    @Test func onAPageWithLevelsBPlaysThemInTurnAndTheTitleSaysWhichIsNext() throws {
        var model = try FixturePages.model(width: 120, height: 40)
        model.showLevels([("lost-update", 1), ("global-barrier", 1), ("lock-order", 7)])
        #expect(model.pages[0].levels == ["lost-update", "global-barrier"])
        #expect(model.pages[1].levels.isEmpty)
        #expect(TourRenderer.render(model).lines.contains { $0.contains("1 Queue (B plays level lost-update, then the next of 2)") })
        #expect(model.update(.key(.character("B"))) == [.playLevel("lost-update")])
        #expect(TourRenderer.render(model).lines.contains { $0.contains("(B plays level global-barrier, then the next of 2)") })
        #expect(model.update(.key(.character("B"))) == [.playLevel("global-barrier")])
        #expect(model.update(.key(.character("B"))) == [.playLevel("lost-update")])
    }

    @Test func onAPageWithoutALevelBSaysWhereTheLevelsAre() throws {
        var model = try FixturePages.model()
        model.showLevels([("lost-update", 1)])
        model.press(.character("n"))
        #expect(model.update(.key(.character("B"))).isEmpty)
        #expect(model.notice?.hasPrefix("This page has no level to play: tour levels lists them all") == true)
        #expect(!TourRenderer.render(model).lines.contains { $0.contains("B plays") })
    }

    @Test func onStageTheSpeakerPlaysThePagesLevelForTheRoom() throws {
        var model = try FixturePages.model()
        model.showLevels([("lost-update", 1)])
        model.press(.character("P"))
        #expect(model.presenter != nil)
        #expect(model.update(.key(.character("B"))) == [.playLevel("lost-update")])
        #expect(model.presenter != nil, "back from the game, the talk goes on where it was")
    }
}
