import Presenting
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
        // `tour notes` hears which level has the screen before the game takes the terminal, and the loop with it.
        let effects = model.update(.key(.character("B")))
        #expect(effects.last == .playLevel("lost-update"))
        let told = effects.compactMap { effect -> PresenterSnapshot? in if case .publishPresenterSnapshot(let snapshot) = effect { snapshot } else { nil } }
        #expect(told.count == 1)
        #expect(told.first?.notes.first?.hasPrefix("On the screen now: level lost-update") == true)
        // The game's end: the notes are the page's again, and the talk goes on where it was.
        let back = model.update(.levelPlayed(problem: nil))
        #expect(back.contains { if case .publishPresenterSnapshot(let snapshot) = $0 { !snapshot.notes.contains { $0.hasPrefix("On the screen now") } } else { false } })
        #expect(model.presenter != nil)
        #expect(model.notice == nil)
        _ = model.update(.levelPlayed(problem: "the level would not start"))
        #expect(model.notice == "the level would not start")
    }
}
