import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 6's challenge, judged from real runs of its four programs, and its prediction, graded from fixture records.
@Suite("Exercises of page 6: GCD", .bodiesBelowTheRunner)
struct GCDExerciseTests {
    static let challenge = PageExercises.gcd.challenge

    /// A run of `product` as `tour check 6` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExerciseFailsNamingTheQueueThatWaitsForItself() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        #expect(record.ending == .dispatchTrap)
        let post = try #require(record.spansOpenAtEnd.first { $0.name == "post the day's deposits" })
        #expect(post.queue == "tour.gcd.ledger")
        let lane = record.laneName(of: post.thread)
        #expect(verdict.failures.map(\.text) == [
            "the program crashed: libdispatch stopped it (SIGILL, no message)",
            "libdispatch trapped while \"post the day's deposits\" on tour.gcd.ledger (\(lane)) was running: code already on the "
                + "serial queue tour.gcd.ledger called sync on tour.gcd.ledger, which waits until the queue is free, and the queue "
                + "is held by the very block that waits",
            "no deposit ran to its end: \"deposit 10\", \"deposit 20\", \"deposit 30\", \"deposit 40\" never did",
        ])
        #expect(!verdict.passed)
    }

    @Test func theReferenceSolutionPasses() async {
        let (_, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(verdict.findings.map(\.text).contains("the deposits ran one at a time, in the order posted"))
        #expect(verdict.findings.map(\.text).contains("all 4 deposits ran inside \"post the day's deposits\", on its thread"))
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant06GCDEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text) == [
            "no deposit ran to its end: \"deposit 10\", \"deposit 20\", \"deposit 30\", \"deposit 40\" never did",
        ])
    }

    @Test func theFakedSolutionFailsThoughItPrintsTheBalance() async {
        let (record, verdict) = await Self.check("ExerciseVariant06GCDFaked")
        #expect(record.outputText.contains("Balance after the day: 100"))
        #expect(!verdict.passed)
        #expect(verdict.failures.first?.text.hasPrefix("no deposit ran to its end") == true)
    }

    /// Only the first step: the deadlock gone because `post(_:)` no longer runs on the ledger, so each deposit takes the
    /// ledger with a `sync` of its own from the main thread, inside the posting span but not inside one ledger block.
    @Test func postingOffTheLedgerFailsBecauseEachDepositTakesTheLedgerOnItsOwn() async {
        let (record, verdict) = await Self.check("ExerciseVariant06GCDFirstStep")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.findings.contains(CheckFinding(holds: true, "the deposits ran one at a time, in the order posted")))
        #expect(verdict.failures.map(\.text) == [
            "\"post the day's deposits\" ran on com.apple.main-thread, not on the ledger's queue tour.gcd.ledger: each deposit took the "
                + "ledger on its own, so other work could have come between them; make the deposits in one block on the ledger",
        ])
    }

    // MARK: The judge on runs that went wrong in other ways

    /// The deposits of a fixture run, each of 100 ms from `starts` (in ms), on `queue` and `thread`, inside a posting block
    /// on thread 7 from 0 to 1 s.
    static func ledgerRun(starts: [Int], queue: String = "tour.gcd.ledger", thread: Int32 = 7, ending: RunEnding = .exited(code: 0)) throws -> RunRecord {
        var lines = [TraceFixture.line("begin", at: 0, thread: 7, queue: "tour.gcd.ledger", #""id":1,"name":"post the day's deposits""#)]
        for (index, (amount, start)) in zip([10, 20, 30, 40], starts).enumerated() {
            lines.append(TraceFixture.line("begin", at: start, thread: thread, queue: queue, #""id":\#(index + 2),"name":"deposit \#(amount)""#))
            lines.append(TraceFixture.line("end", at: start + 100, thread: thread, queue: queue, #""id":\#(index + 2),"name":"deposit \#(amount)""#))
        }
        lines.append(TraceFixture.line("end", at: 1_000, thread: 7, queue: "tour.gcd.ledger", #""id":1,"name":"post the day's deposits""#))
        return try TraceFixture.record(lines, ending: ending)
    }

    @Test func depositsThatOverlapAreNamedWithTheTimeTheyBeganTogether() throws {
        let findings = PageExercises.gcd.challenge.judge(try Self.ledgerRun(starts: [0, 50, 200, 300]))
        #expect(findings.filter { !$0.holds }.map(\.text) == ["2 deposits ran at once from 0.05 s; the ledger changes the balance one deposit at a time"])
    }

    @Test func depositsOffTheLedgerAndOutsideThePostingBlockAreNamed() throws {
        let findings = PageExercises.gcd.challenge.judge(try Self.ledgerRun(starts: [0, 100, 200, 300], queue: "com.apple.root.default-qos", thread: 8))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "\"deposit 10\" ran on com.apple.root.default-qos, not on the ledger's queue tour.gcd.ledger: the balance is only safe on its queue",
            "\"deposit 10\" ran outside \"post the day's deposits\", on T2, not on the block's thread T1: other work could have come between the deposits",
        ])
    }

    @Test func depositsAfterThePostingBlockEndedAreNamed() throws {
        // As when deposit(_:) uses ledger.async: the posting block only queues the deposits, which run once it has returned.
        let findings = PageExercises.gcd.challenge.judge(try Self.ledgerRun(starts: [1_000, 1_100, 1_200, 1_300]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "\"deposit 10\" ran outside \"post the day's deposits\", from 1.00 s, after the block had ended at 1.00 s: other work could have come between the deposits",
        ])
    }

    @Test func depositsOutOfOrderAreNamed() throws {
        let findings = PageExercises.gcd.challenge.judge(try Self.ledgerRun(starts: [100, 0, 200, 300]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the deposits ran in the order deposit 20, deposit 10, deposit 30, deposit 40, not in the order posted, deposit 10, deposit 20, deposit 30, deposit 40",
        ])
    }

    @Test func aHangNamesWhereItStopped() throws {
        let record = try TraceFixture.record([
            TraceFixture.line("begin", at: 0, thread: 7, queue: "tour.gcd.ledger", #""id":1,"name":"post the day's deposits""#),
        ], ending: .stuck(Stall(openSpans: ["post the day's deposits (T1)"], unfinishedOperations: [], silentSeconds: 3)))
        let findings = PageExercises.gcd.challenge.judge(record)
        #expect(findings.first == CheckFinding(holds: false, "the program hung in \"post the day's deposits\" on tour.gcd.ledger (T1): "
                                               + "a block waits for a queue that only it could free"))
    }

    @Test func aTrapOutsideAnySpanStillSaysWhatLibdispatchStopsFor() throws {
        let findings = PageExercises.gcd.challenge.judge(try TraceFixture.record([], ending: .dispatchTrap))
        #expect(findings.first?.holds == false)
        #expect(findings.first?.text.hasPrefix("libdispatch trapped outside any span: most often code already running on a serial "
                                               + "queue called sync on that same queue (or DispatchQueue.main.sync on the main thread)") == true)
    }

    // MARK: The prediction

    static let prediction = PageExercises.gcd.prediction

    /// A run in which the page's "sync block" span ran on `thread`.
    static func syncBlockRun(on thread: Int32) throws -> RunRecord {
        try TraceFixture.record([
            TraceFixture.line("begin", at: 600, thread: thread, queue: "tour.gcd.worker", #""id":4,"name":"sync block""#),
            TraceFixture.line("end", at: 601, thread: thread, queue: "tour.gcd.worker", #""id":4,"name":"sync block""#),
        ], ending: .exited(code: 0))
    }

    @Test func predictionIsRightForTheMainThreadWhenTheSyncBlockRanThere() throws {
        let observation = Self.prediction.observe(try Self.syncBlockRun(on: TraceFixture.pid))
        #expect(observation.rightChoice == "a")
        #expect(observation.happened.hasPrefix("it ran on the main thread, which called sync"))
    }

    @Test func predictionIsRightForAPoolThreadWhenTheSyncBlockRanOnOne() throws {
        let observation = Self.prediction.observe(try Self.syncBlockRun(on: 4_243))
        #expect(observation.rightChoice == "b")
        #expect(observation.happened == "it ran on T1, a pool thread, on tour.gcd.worker, while the caller waited")
    }

    @Test func aRunThatNeverReachedTheSyncBlockCannotTell() throws {
        let record = try TraceFixture.record([
            TraceFixture.line("begin", at: 10, thread: 4_243, queue: "tour.gcd.worker", #""id":1,"name":"earlier job""#),
        ], ending: .dispatchTrap)
        let observation = Self.prediction.observe(record)
        #expect(observation.rightChoice == nil)
        #expect(observation.happened == "this run never reached the sync block, so it cannot tell")
        #expect(Self.prediction.choices.map(\.key) == ["a", "b"])
    }
}
