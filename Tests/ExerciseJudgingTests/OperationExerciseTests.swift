import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 1's prediction, graded from fixture records, and its challenge, judged from real runs of the learner's
/// untouched file, the reference solution and the two variants that must fail.
@Suite("Exercises of page 1: Operation", .bodiesBelowTheRunner)
struct OperationExerciseTests {
    static let exercises = ExerciseCatalog.exercises(forPage: "operation")

    /// The completion block's mark on thread `tid` running `queue`, after "filter coffee" finished on main.
    static func completionBlockRun(tid: Int32, queue: String) throws -> RunRecord {
        try TraceFixture.record([
            TraceFixture.state("filter coffee", 3, "ready", at: 10),
            TraceFixture.state("filter coffee", 3, "executing", at: 10),
            TraceFixture.state("filter coffee", 3, "finished", at: 150),
            TraceFixture.mark("completion block", at: 152, thread: tid, queue: queue),
        ])
    }

    @Test func predictionIsRightForMainWhenTheBlockRanOnTheMainThread() throws {
        let prediction = try #require(Self.exercises).prediction
        let seen = prediction.observe(try Self.completionBlockRun(tid: TraceFixture.pid, queue: "com.apple.main-thread"))
        #expect(seen == .init(rightChoice: "a", happened: "it ran on the main thread, on the queue com.apple.main-thread, 2.0 ms after the operation finished"))
    }

    @Test func predictionIsRightForAPoolThreadWhenTheBlockRanOnAGlobalQueue() throws {
        let prediction = try #require(Self.exercises).prediction
        let seen = prediction.observe(try Self.completionBlockRun(tid: 101, queue: "com.apple.root.default-qos"))
        #expect(seen == .init(rightChoice: "b", happened: "it ran on T1, a pool thread, on the queue com.apple.root.default-qos, 2.0 ms after the operation finished"))
    }

    @Test func predictionIsRightForAThreadOfItsOwnWhenTheBlockRanOnNoQueue() throws {
        let prediction = try #require(Self.exercises).prediction
        let seen = prediction.observe(try Self.completionBlockRun(tid: 102, queue: ""))
        #expect(seen == .init(rightChoice: "c", happened: "it ran on T1, a thread of its own, on no queue, 2.0 ms after the operation finished"))
    }

    @Test func predictionCannotTellFromARunThatEndedBeforeTheCompletionBlock() throws {
        let prediction = try #require(Self.exercises).prediction
        let run = try TraceFixture.record([
            TraceFixture.state("filter coffee", 3, "ready", at: 10),
            TraceFixture.state("filter coffee", 3, "executing", at: 10),
        ])
        let seen = prediction.observe(run)
        #expect(seen.rightChoice == nil)
        #expect(seen.happened == "this run ended before the completion block ran, so it cannot tell")
    }

    /// The demo page itself, as the learner runs it after answering: the observation reads that run, whatever the machine.
    @Test func predictionReadsTheDemoPagesOwnRun() async throws {
        let prediction = try #require(Self.exercises).prediction
        let run = await sharedRun(product: "Lesson01Operation", speed: 10)
        let seen = prediction.observe(run)
        #expect(seen.rightChoice == "b", "Foundation schedules the completion block on a global queue: \(seen.happened)")
        #expect(prediction.choices.map(\.key).contains(try #require(seen.rightChoice)))
    }

    /// Runs `product` as the check would run the challenge's program, and judges it.
    static func check(_ product: String) async throws -> CheckVerdict {
        let challenge = try #require(exercises).challenge
        let run = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                  speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return CheckVerdict(of: run, for: challenge)
    }

    @Test func untouchedExerciseFailsBecauseBandsBeganAfterTheCancel() async throws {
        let challenge = try #require(Self.exercises).challenge
        let verdict = try await Self.check(challenge.product)
        #expect(!verdict.passed)
        let failures = verdict.failures.map(\.text)
        try #require(failures.count == 1, "only the bands after the cancel are wrong: \(failures)")
        let expected = #/7 bands began after cancel\(\) at \d+\.\d\d s \(band 2 to band 8\): main\(\) went on to the next band without looking at isCancelled; a cancelled filter starts no new band/#
        #expect(failures[0].wholeMatch(of: expected) != nil, "\(failures[0])")
        #expect(verdict.findings.contains { $0.holds && $0.text.hasPrefix("cancel() reached it at ") && $0.text.hasSuffix(", while band 1 was at work") },
                "the hold in band 1 made the cancel land while it worked")
        #expect(verdict.findings.contains { $0.holds && $0.text.hasPrefix("with nothing to cancel it, \"uncancelled filter\" ran all 8 bands and finished at ") },
                "the untouched filter runs every band when nobody cancels it")
    }

    @Test func referenceSolutionPasses() async throws {
        let challenge = try #require(Self.exercises).challenge
        let verdict = try await Self.check(challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(verdict.findings.contains { $0.text == "no band began after the cancel: it stopped after band 1" })
        #expect(verdict.findings.contains { $0.holds && $0.text.hasPrefix("with nothing to cancel it, \"uncancelled filter\" ran all 8 bands and finished at ") })
    }

    @Test func exerciseWithItsBodyDeletedFails() async throws {
        let verdict = try await Self.check("ExerciseVariant01OperationEmptied")
        let failures = verdict.failures.map(\.text)
        // The ending's wording is CheckVerdict's; what matters here is that the watchdog named the wait for band 1.
        #expect(verdict.findings.first?.holds == false && failures.first?.contains("waiting for band 1 to begin") == true,
                "the main thread waits for band 1 forever, and the watchdog ends it: \(failures)")
        #expect(failures.contains { $0.hasPrefix("\"banded filter\" began executing at ") && $0.hasSuffix(", a pool thread, but ran no band: its main() did no work") },
                "\(failures)")
        #expect(failures.contains("nothing cancelled \"uncancelled filter\", yet it ran no band: with no cancel, main() must run band 1 to band 8, each once, and stop early only once isCancelled is true"),
                "\(failures)")
    }

    @Test func outputFakedWithoutTheWorkFails() async throws {
        let verdict = try await Self.check("ExerciseVariant01OperationFaked")
        #expect(verdict.findings.first?.holds == true, "it ran to its end")
        #expect(verdict.failures.map(\.text) == [
            "no operation named \"uncancelled filter\" reported a state: keep the program's first run, BandedBlur.runUncancelled, which shows what main() does when nothing cancels it",
            "no operation named \"banded filter\" reported a state: the program must run its BandedFilterOperation on the queue",
        ])
    }

    /// Only the first step, taken the short way: a `main()` that is only `runBand(1)`, so it stops after the band the
    /// cancel lands in, cancelled or not. The run with nothing to cancel it shows it stopping early.
    @Test func aMainThatOnlyRunsBandOneFailsForTheFilterNobodyCancelled() async throws {
        let verdict = try await Self.check("ExerciseVariant01OperationFirstStep")
        #expect(verdict.failures.map(\.text) == [
            "nothing cancelled \"uncancelled filter\", yet it ran only band 1: with no cancel, main() must run band 1 to band 8, each once, and stop early only once isCancelled is true",
        ])
        #expect(verdict.findings.contains { $0.text == "no band began after the cancel: it stopped after band 1" },
                "the cancelled run alone cannot tell it from the solution")
    }

    /// The shortcut a learner found in a trial: a `main()` that is only `runBand(1)`. The cancel always lands in band 1,
    /// so the cancelled run alone cannot tell it from the solution; the run with nothing to cancel it can. These are
    /// the trace lines that program writes (the test variant `FirstStep` runs it for real).
    @Test func aMainThatOnlyRunsBandOneFailsTheRunWithNoCancel() throws {
        let judge = try #require(Self.exercises).challenge.judge
        let worker: Int32 = 101
        let queue = "exercise1.filters"
        func band(_ event: String, _ id: Int, at milliseconds: Int) -> String {
            TraceFixture.line(event, at: milliseconds, thread: worker, queue: queue, #""id":\#(id),"name":"band 1""#)
        }
        let run = try TraceFixture.record([
            TraceFixture.state("uncancelled filter", 1, "ready", at: 5),
            TraceFixture.state("uncancelled filter", 1, "executing", at: 6, thread: worker, queue: queue),
            band("begin", 1, at: 7),
            band("end", 1, at: 60),
            TraceFixture.state("uncancelled filter", 1, "finished", at: 61, thread: worker, queue: queue),
            TraceFixture.state("banded filter", 2, "ready", at: 70),
            TraceFixture.state("banded filter", 2, "executing", at: 71, thread: worker, queue: queue),
            band("begin", 2, at: 72),
            TraceFixture.state("banded filter", 2, "cancelled", at: 73),
            band("end", 2, at: 125),
            TraceFixture.state("banded filter", 2, "finished", at: 126, thread: worker, queue: queue),
        ])
        #expect(judge(run).filter { !$0.holds }.map(\.text) == [
            "nothing cancelled \"uncancelled filter\", yet it ran only band 1: with no cancel, main() must run band 1 to band 8, each once, and stop early only once isCancelled is true",
        ])
    }

    /// A learner who took the hold out of band 1 and cancelled before the queue started the filter: the check says
    /// where the cancel landed, and that no band was stopped by it, rather than passing a filter that never ran.
    @Test func aCancelBeforeTheFilterBeganIsNamedAsSuch() throws {
        let judge = try #require(Self.exercises).challenge.judge
        let worker: Int32 = 101
        let queue = "exercise1.filters"
        let run = try TraceFixture.record([
            TraceFixture.state("banded filter", 1, "ready", at: 5),
            TraceFixture.state("banded filter", 1, "cancelled", at: 6),
            TraceFixture.state("banded filter", 1, "executing", at: 10, thread: worker, queue: queue),
            TraceFixture.line("begin", at: 11, thread: worker, queue: queue, #""id":1,"name":"band 1""#),
            TraceFixture.line("end", at: 60, thread: worker, queue: queue, #""id":1,"name":"band 1""#),
            TraceFixture.state("banded filter", 1, "finished", at: 61, thread: worker, queue: queue),
        ])
        #expect(judge(run).filter { !$0.holds }.map(\.text) == [
            "no operation named \"uncancelled filter\" reported a state: keep the program's first run, BandedBlur.runUncancelled, which shows what main() does when nothing cancels it",
            "cancel() came at 0.01 s, before the filter began executing: keep the hold in band 1, so the cancel lands while it works",
            "1 band began after cancel() at 0.01 s (band 1): main() went on to the next band without looking at isCancelled; a cancelled filter starts no new band",
        ])
    }
}
