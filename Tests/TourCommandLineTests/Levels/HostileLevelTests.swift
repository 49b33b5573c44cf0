import Foundation
import Testing
import PageProtocol
@testable import TourCommandLine
@testable import TourCore
import TourTestSupport

/// Levels as hostile as a real one could be, played through the fixture: a thread that, let go, loops forever between
/// gates is named by the host's watchdog with where it was last seen, on a test clock, without waiting; work done
/// outside the gates is said as ungated work, and the game goes on to its end.
@Suite("Hostile levels", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct HostileLevelTests {
    let folder: LevelFixtureFolder

    init() throws {
        folder = try LevelFixtureFolder()
    }

    @Test func aThreadThatLoopsBetweenGatesIsNamedWithWhereItWasLastSeen() async throws {
        let clock = TestClock()
        let programs = folder.programs(misbehaving: "endless-loop", clock: clock)
        let level = try #require(programs.catalog.levels.first)
        let game = try await offThePool { Result { () throws(LevelProblem) in try programs.play(level, fixed: false) } }.get()
        defer { game.stop() }
        _ = try await offThePool { Result { () throws(LevelProblem) in try game.step(1) } }.get()
        #expect(clock.pendingWakes == 0, "answered: nothing is owed")
        let stepped = Task { await offThePool { Result { () throws(LevelProblem) in try game.step(2) } } }
        // The step is on its way once its watchdog is armed; then the test clock runs it out.
        #expect(await eventually(timeout: 30) { clock.pendingWakes == 1 })
        await clock.advance(by: 10_000_000_000)
        let outcome = await stepped.value
        #expect(throws: LevelProblem(kind: .silent, description: "level lost-update did not answer within 10.000 s and was stopped: "
                                     + "T2 was let go at line 10 (load count) and reached no gate after it: an endless loop between gates?")) {
            try outcome.get()
        }
    }

    @Test func plainPlaySaysTheLoopingThreadAndEndsWithoutHanging() async throws {
        let clock = TestClock()
        let said = LevelCommandLines()
        guard case .play(let options) = try TourCommand.parse(["play", "lost-update", "--plain"]) else { throw LevelTestFailure.notParsed([]) }
        let programs = folder.programs(misbehaving: "endless-loop", clock: clock)
        let input = TypedLines(["2"])
        let status = Task { await offThePool { LevelCommand.play(options, programs: programs, input: input.next, output: said.output) } }
        // The start's answer came (its lines are said), and the step typed after it armed the watchdog again.
        #expect(await eventually(timeout: 30) { said.lines.contains { $0.hasPrefix("Thread 2 T2") } && clock.pendingWakes == 1 })
        await clock.advance(by: 10_000_000_000)
        #expect(await status.value == .couldNotStart)
        #expect(said.errors.last?.hasSuffix("T2 was let go at line 10 (load count) and reached no gate after it: an endless loop between gates?") == true)
    }

    @Test func workOutsideTheGatesIsSaidAsUngatedAndTheGameGoesOnToItsWin() async throws {
        let (status, said) = try await folder.play(["lost-update"], typing: ["1", "2", "1", "2"], misbehaving: "escape")
        #expect(status == .endedAsExpected)
        let ungated = said.lines.filter { $0.hasPrefix("Ungated:") }
        #expect(ungated == ["Ungated: a thread the level did not start passed store count after step 0.",
                            "Ungated: T1 printed 'T1 was here' after step 1.",
                            "Ungated: T1 printed 'T1 was here' after step 3."], "each said once, when it comes")
        #expect(said.lines.contains { $0.hasPrefix("You won") })
        #expect(said.wins == ["lost-update in 4 steps"])
    }
}
