import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 14's challenge, judged from real runs of its five programs, and its prediction, graded from fixture records.
@Suite("Exercises of page 14: When the pool runs dry", .bodiesBelowTheRunner)
struct StarvationExerciseTests {
    static let challenge = PageExercises.starvation.challenge
    static let queueWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))

    /// A run of `product` as `tour check 14` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExerciseStarvesTheServiceAndTheVerdictSaysSo() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        try Self.expectTheTasksBlockedEverySlot(record, verdict)
    }

    /// A run whose six tasks blocked every slot of the queue: each gave up, the verdict names the widest wait and the
    /// blocked threads.
    static func expectTheTasksBlockedEverySlot(_ record: RunRecord, _ verdict: CheckVerdict) throws {
        #expect(record.ending == .exited(code: 0))
        let waits = record.spans.filter { $0.name.hasPrefix("await price ") }
        try #require(waits.count == 6)
        let widest = try #require(record.mostAtOnce(waits))
        #expect(widest.count <= Self.queueWidth, "blocked tasks held no more than the queue's slots")
        let blocked = record.spans.filter { $0.name.hasPrefix("blocked waiting for price ") }
        let first = try #require(blocked.min { $0.start < $1.start })
        let gaveUp = record.marks.filter { $0.name.hasPrefix("gave up waiting for price ") }.count
        #expect(gaveUp >= Self.queueWidth, "at least the first tasks' waits ran out: \(gaveUp)")
        let answeredInTime = waits.filter { wait in
            record.marks.contains { $0.name == "price \(wait.name.dropFirst("await price ".count)) answered" && $0.time <= (wait.end ?? 0) }
        }.count
        #expect(verdict.failures.map(\.text) == [
            "\(answeredInTime) of the 6 tasks ended their \"await price N\" after the service answered them; the others stopped "
                + "waiting before any answer came",
            "at most \(widest.count) tasks waited at once, from \(record.timeText(at: widest.since)): the queue here has "
                + "\(Self.queueWidth) slots, and each waiting task held one",
            "\(blocked.count) times a task blocked its thread in \"blocked waiting for price N\", the first on "
                + "\(record.threadDescription(first.thread)) at \(record.timeText(at: first.start)), and \(gaveUp) gave up: the "
                + "answer needs a slot of the queue the blocked tasks hold, so suspend with withCheckedContinuation instead",
        ])
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        let waits = record.spans.filter { $0.name.hasPrefix("await price ") }
        #expect(try #require(record.mostAtOnce(waits)).count == 6, "all six waited at once")
        #expect(record.outputText.contains("Prices: 101, 102, 103, 104, 105, 106"))
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant14StarvationEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text) == [
            "no task ran an \"await price N\" span: the six tasks must ask for their prices inside trace(\"await price \\(item)\")",
        ])
    }

    @Test func theFakedSolutionFailsThoughItPrintsThePrices() async {
        let (record, verdict) = await Self.check("ExerciseVariant14StarvationFaked")
        #expect(record.outputText.contains("Prices: 101, 102, 103, 104, 105, 106"))
        #expect(!verdict.passed)
        #expect(verdict.failures.first?.text.hasPrefix("no task ran an \"await price N\" span") == true)
    }

    /// Only the first step: `price(of:)` made `async` and awaited, but it still blocks on the semaphore inside.
    @Test func anAsyncFunctionThatStillBlocksFailsOnTheBlockedThreads() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant14StarvationFirstStep")
        try Self.expectTheTasksBlockedEverySlot(record, verdict)
    }

    // MARK: The judge on runs that went wrong in other ways

    static let queue = "Swift global concurrent queue"

    /// Six waits on threads 5000…, each from `spans[n].start` ms to `.end` ms (nil: never ended), each item answered
    /// at `answeredAt` ms, none blocked.
    static func waitsRun(_ spans: [(start: Int, end: Int?)], answeredAt: Int = 350) throws -> RunRecord {
        var lines: [String] = []
        for (index, span) in spans.enumerated() {
            let thread = Int32(5_000 + index % 2)
            let fields = #""id":\#(index + 1),"name":"await price \#(index + 1)""#
            lines.append(TraceFixture.line("begin", at: span.start, thread: thread, queue: queue, fields))
            lines.append(TraceFixture.mark("price \(index + 1) answered", at: answeredAt, thread: 5_010, queue: queue))
            if let end = span.end {
                lines.append(TraceFixture.line("end", at: end, thread: thread, queue: queue, fields))
            }
        }
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func aTaskWhoseContinuationWasNeverResumedIsCaught() throws {
        let spans: [(start: Int, end: Int?)] = (0..<6).map { ($0, $0 == 5 ? nil : 400 + $0) }
        let findings = Self.challenge.judge(try Self.waitsRun(spans))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "5 of the 6 tasks ended their \"await price N\" after the service answered them; the others stopped waiting before any answer came",
        ])
    }

    @Test func aTaskThatStoppedWaitingBeforeItsAnswerIsCaught() throws {
        let spans: [(start: Int, end: Int?)] = (0..<6).map { ($0, $0 == 0 ? 100 : 400 + $0) }
        let findings = Self.challenge.judge(try Self.waitsRun(spans))
        #expect(findings.contains(CheckFinding(holds: false, "5 of the 6 tasks ended their \"await price N\" after the service "
                                               + "answered them; the others stopped waiting before any answer came")))
    }

    @Test func sixWaitsAtOnceWithNoneBlockedPass() throws {
        let findings = Self.challenge.judge(try Self.waitsRun((0..<6).map { ($0, 400 + $0) }))
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings.filter { !$0.holds })")
        #expect(findings.contains(CheckFinding(holds: true, "6 tasks waited at once from 0.01 s, more than the queue's "
                                               + "\(Self.queueWidth) slots: a suspended task holds none")))
        #expect(findings.contains(CheckFinding(holds: true, "all 6 tasks waited until the service answered them, the last at 0.41 s")))
    }

    // MARK: The prediction

    static let prediction = PageExercises.starvation.prediction

    /// A run of page 14 whose answer was queued at 100 ms and ran `ranAt` ms, or never.
    static func answerRun(ranAt: Int?) throws -> RunRecord {
        var lines = [TraceFixture.mark("answer queued on DispatchQueue.global()", at: 100, thread: 5_000, queue: "page driver")]
        if let ranAt {
            lines += TraceFixture.span(1, "Dispatch block answers", from: ranAt, to: ranAt + 1, thread: 5_003, queue: "com.apple.root.default-qos")
        }
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func predictionIsRightForAfterAWhileWhenTheBlockWaitedForAThread() throws {
        let observation = Self.prediction.observe(try Self.answerRun(ranAt: 1_090))
        #expect(observation.rightChoice == "b")
        #expect(observation.happened == "the Dispatch block was queued at 0.10 s and ran at 1.09 s, 990.0 ms later")
    }

    @Test func predictionIsRightForAtOnceWhenTheBlockFoundAThread() throws {
        let observation = Self.prediction.observe(try Self.answerRun(ranAt: 102))
        #expect(observation.rightChoice == "a")
        #expect(observation.happened == "the Dispatch block was queued at 0.10 s and ran at 0.10 s, 2.0 ms later")
    }

    @Test func predictionIsRightForNeverWhenTheAnsweringTaskNeverRan() throws {
        let record = try TraceFixture.record([
            TraceFixture.mark("answer queued as a task", at: 100, thread: 5_000, queue: "page driver"),
        ], ending: .stuck(Stall(openSpans: ["task 1 waits on the semaphore (T1)"], unfinishedOperations: [], silentSeconds: 3)))
        let observation = Self.prediction.observe(record)
        #expect(observation.rightChoice == "c")
        #expect(observation.happened == "the answering task, queued at 0.10 s, never ran, and the watchdog stopped the page")
    }

    @Test func aRunThatEndedBeforeItsAnswerRanCannotTell() throws {
        let observation = Self.prediction.observe(try Self.answerRun(ranAt: nil))
        #expect(observation.rightChoice == nil)
        #expect(observation.happened == "this run ended before its Dispatch block ran, so it cannot tell")
        let none = Self.prediction.observe(try TraceFixture.record([], ending: .exited(code: 1)))
        #expect(none.rightChoice == nil)
        #expect(Self.prediction.choices.map(\.key) == ["a", "b", "c"])
    }
}
