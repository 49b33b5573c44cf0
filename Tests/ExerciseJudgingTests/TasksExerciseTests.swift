import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 9's challenge, judged from real runs of its four programs, and its prediction, graded from fixture records.
@Suite("Exercises of page 9: Tasks", .bodiesBelowTheRunner)
struct TasksExerciseTests {
    static let challenge = PageExercises.tasks.challenge
    /// How many tasks the global executor runs at once: libdispatch reads the runtime's width -3 as this count.
    static let taskWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))

    /// A run of `product` as `tour check 9` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExerciseBlocksAQueuesWidthAtATimeAndTheVerdictSaysSo() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        try Self.expectTheTasksBlockedAQueuesWidthAtATime(record, verdict)
    }

    /// A run whose eight tasks blocked their threads: the verdict names the widest wait and the blocked threads.
    static func expectTheTasksBlockedAQueuesWidthAtATime(_ record: RunRecord, _ verdict: CheckVerdict) throws {
        #expect(record.ending == .exited(code: 0))
        let waits = record.spans.filter { $0.name.hasPrefix("await thumbnail ") }
        let widest = try #require(record.mostAtOnce(waits))
        #expect(widest.count <= Self.taskWidth, "blocked tasks ran no more than the queue's width at once")
        let blocked = record.spans.filter { $0.name.hasPrefix("blocked waiting for ") }
        let first = try #require(blocked.min { $0.start < $1.start })
        #expect(verdict.failures.map(\.text) == [
            "at most \(widest.count) requests waited at once, from \(record.timeText(at: widest.since)): the global executor here "
                + "runs \(Self.taskWidth) tasks at once, and each task blocked waiting held its thread and its place",
            "8 times a task blocked its thread in \"blocked waiting for N\", the first on \(record.threadDescription(first.thread)) "
                + "at \(record.timeText(at: first.start)): suspend with withCheckedContinuation instead of waiting on the semaphore",
        ])
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        let waits = record.spans.filter { $0.name.hasPrefix("await thumbnail ") }
        #expect(try #require(record.mostAtOnce(waits)).count == 8, "all eight waited at once")
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant09TasksEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text) == [
            "no task ran an \"await thumbnail N\" span: the eight tasks must ask for their thumbnails inside trace(\"await thumbnail \\(number)\")",
        ])
    }

    @Test func theFakedSolutionFailsThoughItPrintsTheSizes() async {
        let (record, verdict) = await Self.check("ExerciseVariant09TasksFaked")
        #expect(record.outputText.contains("Thumbnail sizes: 61, 62, 63, 64, 65, 66, 67, 68"))
        #expect(!verdict.passed)
        #expect(verdict.failures.first?.text.hasPrefix("no task ran an \"await thumbnail N\" span") == true)
    }

    /// Only the first step: `thumbnailSize(_:)` written, but the tasks still block on the semaphore.
    @Test func anUnusedContinuationFailsBecauseTheTasksStillBlock() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant09TasksFirstStep")
        try Self.expectTheTasksBlockedAQueuesWidthAtATime(record, verdict)
    }

    // MARK: The judge on runs that went wrong in other ways

    /// Eight waits on threads 5000…, each from `starts[n]` ms to `ends[n]` ms (nil: never ended), none blocked.
    static func waitsRun(_ spans: [(start: Int, end: Int?)]) throws -> RunRecord {
        var lines: [String] = []
        for (index, span) in spans.enumerated() {
            let thread = Int32(5_000 + index % 2)
            let fields = #""id":\#(index + 1),"name":"await thumbnail \#(index + 1)""#
            lines.append(TraceFixture.line("begin", at: span.start, thread: thread, queue: "Swift global concurrent queue", fields))
            if let end = span.end {
                lines.append(TraceFixture.line("end", at: end, thread: thread, queue: "Swift global concurrent queue", fields))
            }
        }
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func aTaskWhoseContinuationWasNeverResumedIsCaught() throws {
        let spans: [(start: Int, end: Int?)] = (0..<8).map { ($0, $0 == 7 ? nil : 400 + $0) }
        let findings = Self.challenge.judge(try Self.waitsRun(spans))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "7 of the 8 tasks got their thumbnail's size; a continuation that is never resumed leaves its task waiting for good",
        ])
    }

    @Test func eightWaitsAtOnceWithNoneBlockedPass() throws {
        let findings = Self.challenge.judge(try Self.waitsRun((0..<8).map { ($0, 400 + $0) }))
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings.filter { !$0.holds })")
        #expect(findings.contains(CheckFinding(holds: true, "8 requests waited at once from 0.01 s, more than the "
                                               + "\(Self.taskWidth) tasks the global executor runs at once: a suspended task holds no thread")))
    }

    // MARK: The prediction

    static let prediction = PageExercises.tasks.prediction

    /// A run of page 9 at 5× whose blocking batch ran `jobs` of 100 ms each, `atOnce` at a time, from 0 ms.
    static func batchRun(atOnce: Int, jobs: Int = 8) throws -> RunRecord {
        var lines = [
            TraceFixture.line("hello", at: 0, #""v":1,"page":"Lesson09Tasks","pid":\#(TraceFixture.pid),"speed":5"#),
            TraceFixture.line("begin", at: 0, thread: 5_000, queue: "Swift global concurrent queue", #""id":1,"name":"\#(jobs) tasks that block""#),
        ]
        var end = 0
        for job in 0..<jobs {
            let start = (job / atOnce) * 100
            end = start + 100
            let fields = #""id":\#(job + 2),"name":"usleep task \#(job + 1)""#
            let thread = Int32(5_001 + job % atOnce)
            lines.append(TraceFixture.line("begin", at: start, thread: thread, queue: "Swift global concurrent queue", fields))
            lines.append(TraceFixture.line("end", at: end, thread: thread, queue: "Swift global concurrent queue", fields))
        }
        lines.append(TraceFixture.line("end", at: end + 1, thread: 5_000, queue: "Swift global concurrent queue", #""id":1,"name":"\#(jobs) tasks that block""#))
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func predictionIsRightForRoundsWhenTheTasksWentAQueuesWidthAtATime() throws {
        let observation = Self.prediction.observe(try Self.batchRun(atOnce: 2))
        #expect(observation.rightChoice == "b")
        #expect(observation.happened == "the 8 tasks took 401.0 ms, 4.0 times one task's 100.0 ms, at most 2 at once")
    }

    @Test func predictionIsRightForHalfASecondWhenEveryTaskGotAThread() throws {
        let observation = Self.prediction.observe(try Self.batchRun(atOnce: 8))
        #expect(observation.rightChoice == "a")
        #expect(observation.happened == "the 8 tasks took 101.0 ms, 1.0 times one task's 100.0 ms, at most 8 at once")
    }

    @Test func aRunThatEndedBeforeItsBlockingBatchCannotTell() throws {
        let record = try TraceFixture.record([
            TraceFixture.line("hello", at: 0, #""v":1,"page":"Lesson09Tasks","pid":\#(TraceFixture.pid),"speed":5"#),
            TraceFixture.line("begin", at: 0, thread: 5_000, queue: "Swift global concurrent queue", #""id":1,"name":"8 tasks that block""#),
        ], ending: .exited(code: 1))
        let observation = Self.prediction.observe(record)
        #expect(observation.rightChoice == nil)
        #expect(observation.happened == "this run ended before its blocking batch was done, so it cannot tell")
        #expect(Self.prediction.choices.map(\.key) == ["a", "b"])
    }
}
