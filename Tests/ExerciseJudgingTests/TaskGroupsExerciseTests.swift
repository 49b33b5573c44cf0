import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 10's challenge, judged from real runs of its four programs, and its prediction, graded from fixture records.
@Suite("Exercises of page 10: Task groups", .bodiesBelowTheRunner)
struct TaskGroupsExerciseTests {
    static let challenge = PageExercises.taskGroups.challenge

    /// A run of `product` as `tour check 10` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExerciseRunsAllEightUploadsAtOnceAndTheVerdictSaysSo() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        #expect(record.ending == .exited(code: 0))
        let widest = try #require(record.mostAtOnce(record.spans.filter { $0.name.hasPrefix("upload ") }))
        #expect(widest.count == 8, "every addTask started its child at once, and the uploads suspend")
        #expect(verdict.failures.map(\.text) == [
            "8 uploads ran at once from \(record.timeText(at: widest.since)); the limit is 3: add 3 children, then one more "
                + "each time group.next() returns",
        ])
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        let widest = try #require(record.mostAtOnce(record.spans.filter { $0.name.hasPrefix("upload ") }))
        #expect((2...3).contains(widest.count), "the holds overlap every upload with the next; the group allows three")
        #expect(Set(record.spans.filter { $0.name.hasPrefix("upload ") }.compactMap(\.task)).count == 8)
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant10TaskGroupsEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text) == [
            "no photo was uploaded: each must be sent with upload(photo), in a child added with group.addTracedTask(\"upload \\(photo)\")",
        ])
    }

    @Test func theFakedSolutionFailsThoughItPrintsWhatTheSolutionPrints() async {
        let (record, verdict) = await Self.check("ExerciseVariant10TaskGroupsFaked")
        #expect(record.outputText.contains("Uploaded 8 photos"))
        #expect(!verdict.passed)
        #expect(verdict.failures.first?.text.hasPrefix("no photo was uploaded") == true)
    }

    /// Only the first step: the first `maxUploads` children added, and nothing added as they finish.
    @Test func theFirstThreeChildrenAloneFail() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant10TaskGroupsFirstStep")
        #expect(record.ending?.stall != nil, "the last upload waits for a next that never begins: \(String(describing: record.ending))")
        #expect(verdict.findings.contains(CheckFinding(holds: true, "each upload ran in a child task of its own")))
        let uploaded = try #require(verdict.failures.map(\.text).first { $0.contains(" of the 8 photos were uploaded; ") }, "\(verdict.failures.map(\.text))")
        #expect(uploaded.hasSuffix(" was still waiting for the next upload to begin when the run stopped: an upload that must end before the next begins never ends here, so keep up to 3 going and add the next as one finishes"),
                "\(uploaded)")
    }

    // MARK: The judge on runs that went wrong in other ways

    /// Uploads 1… on threads 5000 and 5001, each in traced child task `tasks[n]` (nil: none) from `spans[n].start` ms
    /// to `spans[n].end` ms (nil: still open when the run ended, stuck, at 4 s).
    static func uploadsRun(_ spans: [(start: Int, end: Int?)], tasks: [Int?]? = nil, kind: String = "child") throws -> RunRecord {
        var lines: [String] = []
        for (index, span) in spans.enumerated() {
            let thread = Int32(5_000 + index % 2)
            let task = tasks.map { $0[index] } ?? index + 1
            if let task, !lines.contains(where: { $0.contains(#""task":\#(task),"name":"upload"#) }) {
                lines.append(TraceFixture.task(task, "upload \(index + 1)", parent: nil, kind: kind, "start", at: span.start, thread: thread))
            }
            let fields = #""id":\#(index + 1),"name":"upload \#(index + 1)""#
            lines.append(TraceFixture.line("begin", at: span.start, thread: thread, queue: "", fields + (task.map { #","task":\#($0)"# } ?? "")))
            if let end = span.end {
                lines.append(TraceFixture.line("end", at: end, thread: thread, queue: "", fields))
            }
        }
        let ending: RunEnding = spans.allSatisfy { $0.end != nil } ? .exited(code: 0) : .stuck(Stall(openSpans: ["upload 3"], unfinishedOperations: [], silentSeconds: 3))
        return try TraceFixture.record(lines, ending: ending, endedAt: TraceFixture.start + 4_000_000_000)
    }

    /// Eight uploads, three at a time, each overlapping the next: what the solution's run looks like.
    static let threeAtATime: [(start: Int, end: Int?)] = (0..<8).map { (($0 / 3) * 100 + $0 % 3 * 10, ($0 / 3) * 100 + 90 + $0 % 3 * 10) }

    @Test func threeAtATimeEachInAChildOfItsOwnPasses() throws {
        let findings = Self.challenge.judge(try Self.uploadsRun(Self.threeAtATime))
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings.filter { !$0.holds })")
        #expect(findings.contains(CheckFinding(holds: true, "at most 3 uploads ran at once, from 0.02 s: the limit of 3 held")))
    }

    @Test func anUploadStuckWaitingForTheNextIsNamed() throws {
        let spans: [(start: Int, end: Int?)] = [(0, 100), (0, 100), (50, nil)]
        let findings = Self.challenge.judge(try Self.uploadsRun(spans))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "2 of the 8 photos were uploaded; \"upload 3\" was still waiting for the next upload to begin when the run stopped: "
                + "an upload that must end before the next begins never ends here, so keep up to 3 going and add the next as one finishes",
        ])
    }

    @Test func uploadsOutsideAnyChildTaskAreCaught() throws {
        let findings = Self.challenge.judge(try Self.uploadsRun(Self.threeAtATime, tasks: Array(repeating: nil, count: 8)))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "\"upload 1\" ran in no child task of a group: add each upload to the group with group.addTracedTask(\"upload \\(photo)\") "
                + "{ await upload(photo) }",
        ])
    }

    @Test func uploadsInAnUnstructuredTaskAreCaught() throws {
        let findings = Self.challenge.judge(try Self.uploadsRun(Self.threeAtATime, kind: "unstructured"))
        #expect(findings.filter { !$0.holds }.map(\.text).first?.hasPrefix("\"upload 1\" ran in no child task of a group") == true)
    }

    @Test func twoUploadsInOneChildAreCaught() throws {
        let findings = Self.challenge.judge(try Self.uploadsRun(Self.threeAtATime, tasks: [1, 1, 2, 3, 4, 5, 6, 7]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "\"upload 1\" and \"upload 2\" ran in one child task, one after the other: give each photo a child of its own",
        ])
    }

    // MARK: The prediction

    static let prediction = PageExercises.taskGroups.prediction

    /// The page's throwing group from 0 ms to `groupEnd` ms (nil: never ended), the throw at 50 ms, `chunks` worker
    /// chunks of 20 ms from 0 ms (the last ending at `lastChunkEnd` when given), and the worker's stop mark when `stop`.
    static func cancellationRun(groupEnd: Int?, chunks: Int, lastChunkEnd: Int? = nil, stop: Bool, childThrows: Bool = true) throws -> RunRecord {
        var lines = TraceFixture.span(1, "withThrowingTaskGroup", from: 0, to: groupEnd)
        for chunk in 1...chunks {
            let end = chunk == chunks ? (lastChunkEnd ?? chunk * 20) : chunk * 20
            lines += TraceFixture.span(chunk + 1, "worker chunk \(chunk)", from: (chunk - 1) * 20, to: end, thread: 5_000, queue: "")
        }
        if childThrows { lines.append(TraceFixture.mark("upload throws", at: 50, thread: 5_001, queue: "")) }
        if stop { lines.append(TraceFixture.mark("worker saw cancellation before chunk \(chunks + 1)", at: chunks * 20 + 1, thread: 5_000, queue: "")) }
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func predictionIsRightForStoppingAtTheNextCheckWhenTheWorkerStopped() throws {
        let observation = Self.prediction.observe(try Self.cancellationRun(groupEnd: 70, chunks: 3, stop: true))
        #expect(observation.rightChoice == "b")
        #expect(observation.happened == "a child threw at 0.05 s; the worker stopped at its check before chunk 4 of 10, at 0.06 s, "
                + "and the group ended after it, at 0.07 s")
    }

    @Test func predictionIsRightForAllTenChunksWhenTheWorkerRanThemAll() throws {
        let observation = Self.prediction.observe(try Self.cancellationRun(groupEnd: 210, chunks: 10, stop: false))
        #expect(observation.rightChoice == "a")
        #expect(observation.happened == "a child threw at 0.05 s, yet the worker computed all 10 chunks, the last ending at 0.20 s")
    }

    @Test func predictionIsRightForNotWaitingWhenAChunkOutlivedTheGroup() throws {
        let observation = Self.prediction.observe(try Self.cancellationRun(groupEnd: 55, chunks: 3, lastChunkEnd: 80, stop: true))
        #expect(observation.rightChoice == "c")
        #expect(observation.happened == "a child threw at 0.05 s, and the group ended at 0.06 s while the worker was still in \"worker chunk 3\"")
    }

    @Test func runsThatCannotTellSaySo() throws {
        let unfinished = Self.prediction.observe(try Self.cancellationRun(groupEnd: nil, chunks: 2, stop: false))
        #expect(unfinished == .init(rightChoice: nil, happened: "this run ended before its throwing group was done, so it cannot tell"))
        let noThrow = Self.prediction.observe(try Self.cancellationRun(groupEnd: 210, chunks: 10, stop: false, childThrows: false))
        #expect(noThrow == .init(rightChoice: nil, happened: "no child threw in this run (failingChild was off), so it cannot tell"))
        #expect(Self.prediction.choices.map(\.key) == ["a", "b", "c"])
    }
}
