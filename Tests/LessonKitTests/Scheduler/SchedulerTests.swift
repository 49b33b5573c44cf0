import Foundation
import PageProtocol
import Testing
@testable import LessonKit
import TourTestSupport

/// The scheduler's engine on tiny programs of real threads: the depth-first search's schedule counts for each
/// preemption bound, PCT's replay from a seed, deadlocks and their wait-for graphs, and blocked threads never offered.
/// Every run is driven off Swift Testing's threads (`awaitBlocking`): the driver blocks while the level's threads step.
@Suite("Scheduler", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct SchedulerTests {
    /// Two threads, each `count += 1` once: a load and a store apiece.
    static let twoIncrements = Level(description(threads: 2)) { run in
        let count = run.shared("count", 0)
        for thread in 1...2 {
            run.thread(thread) { count.store(count.load() + 1) }
        }
        return { count.value == 2 ? nil : LevelFailure(kind: .lostUpdate, message: "count is \(count.value)") }
    }

    /// T1 takes A then B, T2 takes B then A.
    static let oppositeLocks = Level(description(threads: 2)) { run in
        let a = run.lock("A")
        let b = run.lock("B")
        for (thread, first, second) in [(1, a, b), (2, b, a)] {
            run.thread(thread) {
                first.lock()
                second.lock()
                second.unlock()
                first.unlock()
            }
        }
        return { nil }
    }

    static func description(threads: Int) -> LevelDescription {
        LevelDescription(name: "test", version: 1, title: "test", page: nil, introduction: "", hints: [], goal: "", fix: "",
                         threads: (1...threads).map { "T\($0)" })
    }

    /// Every interleaving of two two-step threads, by its preemptions: 1122 and 2211 have none; 1221 and 2112 one;
    /// 1212 and 2121 two.
    @Test(arguments: [(0, 2), (1, 4), (2, 6)])
    func theSearchRunsEveryScheduleWithinTheBound(bound: Int, expected: Int) async {
        let schedules = await awaitBlocking("search") { () -> [[Int]] in
            var schedules: [[Int]] = []
            let complete = Exploration(level: Self.twoIncrements, fixed: false).searchBounded(bound) {
                schedules.append($0.steps.map(\.thread))
                return true
            }
            #expect(complete)
            return schedules
        }
        #expect(schedules.count == expected)
        #expect(Set(schedules).count == expected, "no schedule is run twice")
        let report = await awaitBlocking("report") { Exploration(level: Self.twoIncrements, fixed: false).explore(.boundedPreemptions(bound)) }
        #expect(report.schedules == expected)
        #expect(report.failing == expected - 2, "all but 1122 and 2211 lose an update")
        #expect(report.exhaustive)
    }

    @Test func pctWithASeedDrawsTheSameSchedulesAgain() async {
        func draw(seed: UInt64) async -> [[Int]] {
            await awaitBlocking("pct") { () -> [[Int]] in
                var schedules: [[Int]] = []
                Exploration(level: Self.oppositeLocks, fixed: false).searchPCT(count: 30, seed: seed, depth: 3) {
                    schedules.append($0.steps.map(\.thread))
                    return true
                }
                return schedules
            }
        }
        let first = await draw(seed: 7)
        let again = await draw(seed: 7)
        #expect(first.count == 30)
        #expect(first == again)
        #expect(Set(first).count > 1, "PCT draws more than one schedule")
    }

    @Test func aDeadlockIsExplainedByItsWaitForGraph() async throws {
        let outcome = await awaitBlocking("deadlock") { () -> Exploration.Outcome in
            var script = [1, 2]
            return Exploration(level: Self.oppositeLocks, fixed: false).runOnce { enabled, _ in
                script.isEmpty ? enabled[0] : script.removeFirst()
            }
        }
        let failure = try #require(outcome.failure)
        #expect(failure.kind == .deadlock)
        #expect(failure.waitFor == [
            WaitForEdge(thread: 1, holds: ["A"], waitsFor: "lock B", heldBy: 2),
            WaitForEdge(thread: 2, holds: ["B"], waitsFor: "lock A", heldBy: 1),
        ])
        #expect(outcome.steps.map(\.action) == ["lock A", "lock B"])
        #expect(failure.message == "2 threads alive and none can step")
        #expect(failure.waitFor.map { $0.sentence(threads: ["T1", "T2"]) } == [
            "T1 holds A and waits for lock B, which T2 holds", "T2 holds B and waits for lock A, which T1 holds",
        ])
    }

    @Test func aBlockedThreadIsNeverOffered() async {
        let (enabled, blocked) = await awaitBlocking("blocked") { () -> ([Int], LevelThreadState) in
            let driver = LevelDriver(Self.oppositeLocks, fixed: false)
            driver.step(1)
            driver.step(1)
            let state = (driver.enabled, driver.state().threads[1])
            driver.drain()
            return state
        }
        #expect(enabled == [1])
        #expect(blocked.status == .blocked)
        #expect(blocked.blockedOn == "lock B")
        // And in a whole search, no schedule steps a thread at a lock another holds: every run ends joined, none
        // with a step taken by a blocked thread (the driver's precondition), and the deadlocks are found.
        let report = await awaitBlocking("search") { Exploration(level: Self.oppositeLocks, fixed: false).explore(.boundedPreemptions(2)) }
        #expect(report.failures["deadlock", default: 0] > 0)
    }

    /// T1 loads, starts a `Thread` of its own that stores ungated (the run did not start it) and waits for it, prints,
    /// then stores.
    static let escaping = Level(description(threads: 1)) { run in
        let count = run.shared("count", 0)
        run.thread(1) {
            let value = count.load()
            let escaped = DispatchSemaphore(value: 0)
            Thread {
                count.store(value + 10)
                escaped.signal()
            }.start()
            escaped.wait()
            LessonKit.print("T1 goes on\nwith a second line")
            count.store(value + 1)
        }
        return { nil }
    }

    @Test func workOutsideTheGatesIsReportedByWhoDidItAndWhenAndEachStepByItsGate() async throws {
        let (afterLoad, atEnd) = await awaitBlocking("escaping") { () -> (PlayState, PlayState) in
            let driver = LevelDriver(Self.escaping, fixed: false)
            driver.step(1)
            let afterLoad = driver.state()
            driver.step(1)
            return (afterLoad, driver.state())
        }
        #expect(afterLoad.ungated == [UngatedWork(thread: nil, afterStep: 1, what: "passed store count"),
                                      UngatedWork(thread: 1, afterStep: 1, what: "printed 'T1 goes on\\nwith a second line'")])
        #expect(afterLoad.ungated?.last?.sentence(threads: ["T1"]) == "T1 printed 'T1 goes on\\nwith a second line' after step 1")
        #expect(atEnd.ended && atEnd.failure == nil)
        #expect(atEnd.steps.map(\.kind) == [.load, .store])
        #expect(atEnd.shared == [SharedValueState(name: "count", value: "1")], "the gated store came last")
    }

    @Test func workOutsideTheGatesIsKeptToItsLatest() async throws {
        let chatty = Level(Self.description(threads: 1)) { run in
            run.thread(1) { for line in 1...100 { LessonKit.print("line \(line)") } }
            return { nil }
        }
        let state = await awaitBlocking("chatty") { LevelDriver(chatty, fixed: false).state() }
        #expect(state.ungated?.count == UngatedWork.kept)
        #expect(state.ungated?.last?.what == "printed 'line 100'")
    }

    @Test func theModesAreReadAsTheProtocolSaysAndBadOnesRefused() throws {
        #expect(try LevelMain.mode(["--describe"]) == .describe)
        #expect(try LevelMain.mode(["--play", "--fixed"]) == .play(fixed: true))
        #expect(try LevelMain.mode(["--explore", "--fixed", "--preemptions", "1"]) == .explore(fixed: true, strategy: .preemptions(1)))
        #expect(try LevelMain.mode(["--explore", "--random", "5", "--seed", "9"]) == .explore(fixed: false, strategy: .random(count: 5, seed: 9)))
        #expect(throws: LevelMain.ArgumentProblem.self) { try LevelMain.mode(["--explore", "--random", "5"]) }
        #expect(throws: LevelMain.ArgumentProblem.self) { try LevelMain.mode(["--explore", "--preemptions", "-1"]) }
        #expect(throws: LevelMain.ArgumentProblem.self) { try LevelMain.mode(["--play", "3"]) }
        #expect(throws: LevelMain.ArgumentProblem.self) { try LevelMain.mode(["--walk"]) }
    }

    @Test func theLevelFormatDocListsTheModesLevelMainTakes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/level-format.md"), encoding: .utf8)
        for line in LevelMain.usage.split(separator: "\n") {
            let mode = line.replacingOccurrences(of: "usage: ", with: "").trimmingCharacters(in: .whitespaces)
            #expect(doc.contains(mode), "docs/level-format.md lists '\(mode)'")
        }
    }
}
