import Testing
@testable import LessonKit
import TourTestSupport

/// A page states the length of a simulated wait as it applies at the run's speed.
@Suite("Simulated waits in words", .bodiesBelowTheRunner)
struct SimulatedTests {
    @Test func realTimeNamesOneFigure() {
        #expect(Simulated.describe(0.5, atSpeed: 1) == "0.5 s")
        #expect(Simulated.describe(2.5, atSpeed: 1) == "2.5 s")
        #expect(Simulated.describe(0.05, atSpeed: 1) == "50 ms")
    }

    @Test func aSpeedFactorNamesBothFigures() {
        #expect(Simulated.describe(0.5, atSpeed: 4) == "0.5 s at 1×, 125 ms at 4×")
        #expect(Simulated.describe(2.5, atSpeed: 4) == "2.5 s at 1×, 0.62 s at 4×")
        #expect(Simulated.describe(0.1, atSpeed: 0.5) == "100 ms at 1×, 200 ms at 0.5×")
        #expect(Simulated.describe(0.05, atSpeed: 8) == "50 ms at 1×, 6.2 ms at 8×")
    }
}
