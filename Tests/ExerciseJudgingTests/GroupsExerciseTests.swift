import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 7's challenge, judged from real runs of its four programs, and its prediction, graded from fixture records.
@Suite("Exercises of page 7: Groups", .bodiesBelowTheRunner)
struct GroupsExerciseTests {
    static let challenge = PageExercises.groups.challenge

    /// A run of `product` as `tour check 7` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExerciseDeadlocksAndTheVerdictSaysWhoWaitedForWhom() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        let stall = try #require(record.ending?.stall, "the watchdog stops the deadlocked program")
        #expect(stall.openSpans.contains("wait for the jobs (main)"))
        let wait = try #require(record.spansOpenAtEnd.first { $0.name == "wait for the jobs" })
        let job = try #require(record.spansOpenAtEnd.first { $0.name == "make the thumbnails" })
        let failures = verdict.failures.map(\.text)
        try #require(failures.count == 5, "\(failures)")
        #expect(failures[0].hasPrefix("the program got stuck: no progress for "))
        #expect(Array(failures.dropFirst()) == [
            "the program hung in a deadlock: the main thread sat in \"wait for the jobs\" from \(record.timeText(at: wait.start)), "
                + "waiting for the group, while \"make the thumbnails\" (\(record.laneName(of: job.thread))) waited in "
                + "DispatchQueue.main.sync for the main queue, which only the main thread could serve",
            "the main thread blocked in \"wait for the jobs\" from \(record.timeText(at: wait.start)) and never got out: while it "
                + "waits, nothing on the main queue can run",
            "only 2 of the 3 jobs ran to their end: \"make the thumbnails\" never ended",
            "the summary never ran: nothing sent \"show the summary\" once the jobs were done, or the program ended before the "
                + "main queue was served",
        ])
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        let summary = try #require(record.firstSpan(named: "show the summary"))
        #expect(summary.queue == "com.apple.main-thread")
        #expect(!record.isMainThread(summary.thread), "after dispatchMain() a pool thread serves the main queue")
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant07GroupsEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(!verdict.passed)
        #expect(verdict.failures.last?.text.hasPrefix("the summary never ran") == true)
    }

    @Test func theFakedSolutionFailsThoughItPrintsTheSummary() async {
        let (record, verdict) = await Self.check("ExerciseVariant07GroupsFaked")
        #expect(record.outputText.contains("All three jobs are done: photos fetched, albums read, thumbnails made."))
        #expect(verdict.failures.map(\.text) == [
            "only 0 of the 3 jobs ran to their end: \"fetch the photos\" never started, \"read the albums\" never started, "
                + "\"make the thumbnails\" never started",
            "the summary never ran: nothing sent \"show the summary\" once the jobs were done, or the program ended before the "
                + "main queue was served",
        ])
    }

    /// Only the first step: the group notifies the main queue, but nothing keeps the main thread serving it, so the
    /// program reaches its end and exits before the jobs and the summary.
    @Test func notifyWithoutServingTheMainQueueFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant07GroupsFirstStep")
        #expect(record.ending == .exited(code: 0), "the main thread falls off the end of the program")
        let failures = verdict.failures.map(\.text)
        #expect(failures.last == "the summary never ran: nothing sent \"show the summary\" once the jobs were done, or the program ended before the "
                + "main queue was served", "\(failures)")
        #expect(failures.first?.hasPrefix("only ") == true && failures.first?.contains(" of the 3 jobs ran to their end: ") == true,
                "the jobs had no time to end: \(failures)")
    }

    // MARK: The judge on runs that went wrong in other ways

    /// A run whose three jobs end at 300 ms, the third reading the size on the main queue, and whose summary runs from
    /// `summaryAt` ms on `summaryQueue`.
    static func jobsRun(summaryAt: Int, summaryQueue: String) throws -> RunRecord {
        let jobs = [("fetch the photos", 0, 300), ("read the albums", 0, 200), ("make the thumbnails", 0, 250)]
        var lines: [String] = []
        for (index, (name, start, end)) in jobs.enumerated() {
            let thread = Int32(5_000 + index)
            lines.append(TraceFixture.line("begin", at: start, thread: thread, queue: "com.apple.root.default-qos", #""id":\#(index + 1),"name":"\#(name)""#))
            if name == "make the thumbnails" {
                lines.append(TraceFixture.line("begin", at: 10, thread: thread, queue: "com.apple.main-thread", #""id":9,"name":"read the thumbnail size""#))
                lines.append(TraceFixture.line("end", at: 11, thread: thread, queue: "com.apple.main-thread", #""id":9,"name":"read the thumbnail size""#))
            }
            lines.append(TraceFixture.line("end", at: end, thread: thread, queue: "com.apple.root.default-qos", #""id":\#(index + 1),"name":"\#(name)""#))
        }
        lines.append(TraceFixture.line("begin", at: summaryAt, thread: 6_000, queue: summaryQueue, #""id":20,"name":"show the summary""#))
        lines.append(TraceFixture.line("end", at: summaryAt + 1, thread: 6_000, queue: summaryQueue, #""id":20,"name":"show the summary""#))
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func aSummaryThatBeganBeforeTheLastJobEndedIsCaught() throws {
        let findings = Self.challenge.judge(try Self.jobsRun(summaryAt: 100, summaryQueue: "com.apple.main-thread"))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the summary began at 0.10 s, before the last job ended at 0.30 s: it must wait until all three have left the group",
        ])
    }

    @Test func aSummaryOnAnotherQueueIsCaught() throws {
        let findings = Self.challenge.judge(try Self.jobsRun(summaryAt: 301, summaryQueue: "com.apple.root.default-qos"))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the summary ran on com.apple.root.default-qos, not on the main queue com.apple.main-thread: the queue you give notify is where its block runs",
        ])
        #expect(findings.contains(CheckFinding(holds: true, "the summary began at 0.30 s, after the last job ended at 0.30 s")))
    }

    @Test func aSummaryAfterTheJobsOnTheMainQueuePasses() throws {
        let findings = Self.challenge.judge(try Self.jobsRun(summaryAt: 301, summaryQueue: "com.apple.main-thread"))
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings.filter { !$0.holds })")
    }

    // MARK: The prediction

    static let prediction = PageExercises.groups.prediction

    /// A run of page 7 whose notify block marked "notify" on `thread`, on the main queue.
    static func notifyRun(on thread: Int32) throws -> RunRecord {
        try TraceFixture.record([
            TraceFixture.line("mark", at: 4_100, thread: 5_001, queue: "tour.groups.background", #""name":"leave: change background""#),
            TraceFixture.line("mark", at: 4_101, thread: thread, queue: "com.apple.main-thread", #""name":"notify""#),
        ], ending: .exited(code: 0))
    }

    @Test func predictionIsRightForAPoolThreadWhenNotifyRanOnOne() throws {
        let observation = Self.prediction.observe(try Self.notifyRun(on: 5_002))
        #expect(observation.rightChoice == "b")
        #expect(observation.happened == "it ran on T2, a pool thread, on com.apple.main-thread: after dispatchMain() the main "
                + "queue is served by pool threads")
    }

    @Test func predictionIsRightForTheMainThreadWhenNotifyRanThere() throws {
        let observation = Self.prediction.observe(try Self.notifyRun(on: TraceFixture.pid))
        #expect(observation.rightChoice == "a")
        #expect(observation.happened == "it ran on the main thread, on com.apple.main-thread")
    }

    @Test func aRunThatEndedBeforeTheGroupNotifiedCannotTell() throws {
        let record = try TraceFixture.record([
            TraceFixture.line("mark", at: 4_100, thread: 5_001, queue: "tour.groups.background", #""name":"leave: change background""#),
        ], ending: .dispatchTrap)
        let observation = Self.prediction.observe(record)
        #expect(observation.rightChoice == nil)
        #expect(observation.happened == "this run ended before the group notified, so it cannot tell")
        #expect(Self.prediction.choices.map(\.key) == ["a", "b"])
    }
}
