import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 2's prediction, graded from fixture records, and its challenge, judged from real runs and from records of
/// wrong solutions.
@Suite("Exercises of page 2: Queue", .bodiesBelowTheRunner)
struct QueueExerciseTests {
    static let exercises = ExerciseCatalog.exercises(forPage: "queue")

    /// The page's downloads queue suspended at 400 ms and resumed at 1400 ms, with download 1 running from 390 ms
    /// and the others as `lines` say.
    static func suspendedRun(_ lines: [String]) throws -> RunRecord {
        try TraceFixture.record([
            TraceFixture.state("download 1", 1, "ready", at: 380),
            TraceFixture.state("download 1", 1, "executing", at: 390, thread: 101, queue: "downloads"),
            TraceFixture.mark("queue suspended", at: 400),
        ] + lines + [
            TraceFixture.mark("queue resumed", at: 1400),
        ])
    }

    @Test func predictionIsRightForNoneWhenTheRunningDownloadOutlastedTheSuspension() throws {
        let prediction = try #require(Self.exercises).prediction
        let seen = prediction.observe(try Self.suspendedRun([
            TraceFixture.state("download 1", 1, "finished", at: 1500, thread: 101, queue: "downloads"),
        ]))
        #expect(seen == .init(rightChoice: "a", happened: "0 of 1 finished while it was suspended, from 0.40 s to 1.40 s"))
    }

    @Test func predictionIsRightForOneWhenOnlyTheRunningDownloadFinished() throws {
        let prediction = try #require(Self.exercises).prediction
        let seen = prediction.observe(try Self.suspendedRun([
            TraceFixture.state("download 1", 1, "finished", at: 690, thread: 101, queue: "downloads"),
            TraceFixture.state("download 2", 2, "ready", at: 381),
            TraceFixture.state("download 2", 2, "executing", at: 1401, thread: 101, queue: "downloads"),
        ]))
        #expect(seen == .init(rightChoice: "b", happened: "1 of 2 finished while it was suspended, from 0.40 s to 1.40 s (download 1); the next, download 2, began at 1.40 s, after the resume"))
    }

    @Test func predictionIsRightForMoreThanOneWhenTheQueueWentOn() throws {
        let prediction = try #require(Self.exercises).prediction
        let seen = prediction.observe(try Self.suspendedRun([
            TraceFixture.state("download 1", 1, "finished", at: 690, thread: 101, queue: "downloads"),
            TraceFixture.state("download 2", 2, "ready", at: 381),
            TraceFixture.state("download 2", 2, "executing", at: 691, thread: 101, queue: "downloads"),
            TraceFixture.state("download 2", 2, "finished", at: 990, thread: 101, queue: "downloads"),
        ]))
        #expect(seen == .init(rightChoice: "c", happened: "2 of 2 finished while it was suspended, from 0.40 s to 1.40 s (download 1, download 2); the next, download 2, began at 0.69 s"))
    }

    @Test func predictionCannotTellFromARunThatEndedBeforeTheQueueWasSuspended() throws {
        let prediction = try #require(Self.exercises).prediction
        let run = try TraceFixture.record([
            TraceFixture.state("download 1", 1, "ready", at: 380),
            TraceFixture.state("download 1", 1, "executing", at: 390, thread: 101, queue: "downloads"),
        ])
        let seen = prediction.observe(run)
        #expect(seen.rightChoice == nil)
        #expect(seen.happened == "this run ended before the downloads queue was suspended and resumed, so it cannot tell")
    }

    /// The demo page itself: its run is readable, and graded by what happened in it. Which answer is right there
    /// rests on the page's sleeps (a download of 0.3 s in a pause of 1 s), so a loaded machine may change it, and
    /// this test does not ask for one. One round of the widths, which the prediction does not read, rather than three:
    /// half the page's CPU (`tour run 2 --plain --speed 4`: 1.4 s against 2.8 s).
    @Test func predictionReadsTheDemoPagesOwnRun() async throws {
        let prediction = try #require(Self.exercises).prediction
        let run = await recordRun(product: "Lesson02Queue", knobs: [("rounds", "1")], speed: 4)
        let seen = prediction.observe(run)
        #expect(prediction.choices.map(\.key).contains(try #require(seen.rightChoice, "\(seen.happened)")))
        #expect(seen.happened.contains(" of 4 finished while it was suspended, from "), "\(seen.happened)")
    }

    static func check(_ product: String) async throws -> CheckVerdict {
        let challenge = try #require(exercises).challenge
        let run = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                  speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return CheckVerdict(of: run, for: challenge)
    }

    @Test func untouchedExerciseFailsBecauseThePreviewStartsLast() async throws {
        let challenge = try #require(Self.exercises).challenge
        let verdict = try await Self.check(challenge.product)
        let failures = verdict.failures.map(\.text)
        try #require(failures.count == 2, "only the order is wrong: \(failures)")
        let previewLast = #/the preview started third, at \d+\.\d\d s, after backup \(at \d+\.\d\d s\) and filter \(at \d+\.\d\d s\): give it a higher queuePriority than the others/#
        #expect(failures[0].wholeMatch(of: previewLast) != nil, "\(failures[0])")
        let backupFirst = #/the backup started at \d+\.\d\d s, before the filter at \d+\.\d\d s: give the backup a lower queuePriority than the filter \(among equal priorities the one added first goes first\)/#
        #expect(failures[1].wholeMatch(of: backupFirst) != nil, "\(failures[1])")
    }

    @Test func referenceSolutionPasses() async throws {
        let challenge = try #require(Self.exercises).challenge
        let verdict = try await Self.check(challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
    }

    @Test func exerciseWithItsBodyDeletedFails() async throws {
        let verdict = try await Self.check("ExerciseVariant02QueueEmptied")
        #expect(verdict.failures.map(\.text) == [
            "no job named \"backup\" reported a state: the program must add its three Jobs to the queue",
        ])
    }

    @Test func outputFakedWithoutTheWorkFails() async throws {
        let verdict = try await Self.check("ExerciseVariant02QueueFaked")
        #expect(verdict.failures.map(\.text) == [
            "no job named \"backup\" reported a state: the program must add its three Jobs to the queue",
        ])
    }

    /// Only the first step: the preview raised, the backup left beside the filter, so the backup, added first, goes first.
    @Test func raisingOnlyThePreviewFailsBecauseTheBackupStartsBeforeTheFilter() async throws {
        let verdict = try await Self.check("ExerciseVariant02QueueFirstStep")
        #expect(verdict.findings.contains { $0.holds && $0.text.hasPrefix("the preview started first, at ") })
        let failures = verdict.failures.map(\.text)
        try #require(failures.count == 1, "\(failures)")
        let expected = #/the backup started at \d+\.\d\d s, before the filter at \d+\.\d\d s: give the backup a lower queuePriority than the filter \(among equal priorities the one added first goes first\)/#
        #expect(failures[0].wholeMatch(of: expected) != nil, "\(failures[0])")
    }

    /// The three jobs as a wrong solution might run them: each `(name, executing, finished)` in milliseconds on
    /// the queue's worker, after the marks of adding them at `addedAt`.
    static func jobsRun(_ jobs: [(String, Int, Int)], addedAt: [Int] = [10, 11, 12], extra: [String] = []) throws -> RunRecord {
        let adds = zip(["backup", "filter", "preview"], addedAt).map { TraceFixture.mark("added \($0)", at: $1) }
        let states = jobs.enumerated().flatMap { index, job in [
            TraceFixture.state(job.0, index + 1, "executing", at: job.1, thread: 101 + Int32(index), queue: "exercise2.jobs"),
            TraceFixture.state(job.0, index + 1, "finished", at: job.2, thread: 101 + Int32(index), queue: "exercise2.jobs"),
        ] }
        return try TraceFixture.record(adds + states + extra)
    }

    @Test func aQueueWiderThanOneFailsWithTheJobsThatRanTogether() throws {
        let judge = try #require(Self.exercises).challenge.judge
        let findings = judge(try Self.jobsRun([("preview", 20, 120), ("filter", 21, 121), ("backup", 122, 222)]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "preview and filter ran at once from 0.02 s: on a queue with room for more than one they start together, and priority decides nothing; keep maxConcurrentOperationCount = 1",
        ])
    }

    @Test func aQueueThatWasNotSuspendedFailsWhenItStartedAJobBeforeThePreviewWasAdded() throws {
        let judge = try #require(Self.exercises).challenge.judge
        let findings = judge(try Self.jobsRun([("backup", 11, 111), ("preview", 112, 212), ("filter", 213, 313)], addedAt: [10, 20, 40]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "backup began executing at 0.01 s, before the preview was added at 0.04 s: the queue started it before it had all three to choose from; keep the queue suspended while the jobs are added",
            "the preview started second, at 0.11 s, after backup (at 0.01 s): give it a higher queuePriority than the others",
            "the backup started at 0.01 s, before the filter at 0.21 s: give the backup a lower queuePriority than the filter (among equal priorities the one added first goes first)",
        ])
    }

    @Test func anOrderMadeByDependenciesFails() throws {
        let judge = try #require(Self.exercises).challenge.judge
        let dependency = TraceFixture.line("dep", at: 5, #""op":"filter","oid":2,"on":"preview","onid":1"#)
        let findings = judge(try Self.jobsRun([("preview", 20, 120), ("filter", 121, 221), ("backup", 222, 322)], extra: [dependency]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "filter waits for preview (addDependency): the order must come from queuePriority alone; remove the dependency",
        ])
    }

    @Test func jobsAddedInAnotherOrderFail() throws {
        let judge = try #require(Self.exercises).challenge.judge
        let findings = judge(try Self.jobsRun([("preview", 20, 120), ("filter", 121, 221), ("backup", 222, 322)], addedAt: [12, 11, 10]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the jobs were added in the order preview, filter, backup; keep backup, filter, preview, so that only queuePriority moves the preview forward",
        ])
    }
}
