import ExerciseJudging
import Foundation
import Testing
import TourCore
import TourTestSupport

/// What every exercise in the catalog must have, whatever its page: a learner meets each of these.
@Suite("Exercise catalog", .bodiesBelowTheRunner)
struct ExerciseCatalogTests {
    @Test(arguments: ExerciseCatalog.all.map(\.page))
    func eachPageHasAPredictionWithChoicesAndAChallengeWithTwoHints(page: String) throws {
        let exercises = try #require(ExerciseCatalog.exercises(forPage: page))
        let keys = exercises.prediction.choices.map(\.key)
        #expect(keys.count >= 2, "a prediction needs at least two answers to choose from")
        #expect(Set(keys).count == keys.count, "each answer has a key of its own")
        #expect(!keys.contains("r"), "r in the tutorial's question runs the page without answering")
        #expect(exercises.challenge.hints.count >= 2, "hints go from a nudge to nearly the answer")
        #expect(!exercises.challenge.task.isEmpty)
    }

    @Test func eachPageAppearsOnce() {
        let pages = ExerciseCatalog.all.map(\.page)
        #expect(Set(pages).count == pages.count)
    }
}
