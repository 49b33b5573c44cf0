@testable import Presenting
import Testing
@testable import TourCore
@testable import TourCommandLine

/// A theme is chosen once, by name, where the tour starts: `--theme`, a talk's `theme` step, or `TOUR_THEME`; a wrong
/// name is said with the right ones.
@Suite("Choosing a colour theme", .bodiesBelowTheRunner)
struct ThemeChoiceTests {
    @Test("TOUR_THEME names a theme; unset or empty names none; a wrong one is said")
    func environment() throws {
        #expect(try ThemeName.fromEnvironment(["TOUR_THEME": "contrast"]) == .contrast)
        #expect(try ThemeName.fromEnvironment([:]) == nil)
        #expect(try ThemeName.fromEnvironment(["TOUR_THEME": ""]) == nil)
        #expect(throws: ThemeProblem(description: "TOUR_THEME takes dark, light or contrast, not 'sepia'")) {
            try ThemeName.fromEnvironment(["TOUR_THEME": "sepia"])
        }
    }

    @Test("A talk's script chooses its theme once, with a theme step")
    func scriptTheme() throws {
        let catalog = try PageCatalog.load()
        let pages = catalog.pages.map(TalkPage.init(reading:))
        let script = try TalkScript.parse("theme light\npage 1\nrun\n")
        #expect(TalkStep.theme(of: script) == .light)
        #expect(TalkStep.theme(of: try TalkScript.parse("page 1\n")) == nil)
        _ = try TalkPlan.check(script, pages: pages, catalog: catalog)
        let twice = try #require(throws: TalkScriptProblems.self) {
            try TalkPlan.check(try TalkScript.parse("theme light\npage 1\ntheme dark\n"), pages: pages, catalog: catalog)
        }
        #expect(twice.problems.map(\.description) == ["line 3: the talk has one theme, chosen by its first `theme` step; remove this one"])
        let wrong = try #require(throws: TalkScriptProblems.self) { try TalkScript.parse("theme beige\n") }
        #expect(wrong.problems.map(\.description) == ["line 1: `theme` takes dark, light or contrast, not 'beige'"])
    }
}
