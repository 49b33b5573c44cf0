import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 3's exercises: the challenge judged from real runs of the exercise, its solution and its two test variants,
/// the judge's other findings from fixture runs, and the prediction graded from fixture runs and from the page's demo.
@Suite("Page 3 exercises", .bodiesBelowTheRunner)
struct AsyncExerciseTests {
    static let exercises = PageExercises.async
    static var challenge: Challenge { exercises.challenge }

    /// A run of `product` as the check runs the challenge's program, judged.
    static func verdict(of product: String) async -> (CheckVerdict, RunRecord) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) }, speed: challenge.speed,
                                     stuckAfter: challenge.stuckAfter)
        return (CheckVerdict(of: record, for: challenge), record)
    }

    @Test func theUntouchedExerciseHangsAndTheCheckSaysTheQueueIsStillWaiting() async throws {
        let (verdict, record) = await Self.verdict(of: Self.challenge.product)
        #expect(!verdict.passed)
        let stall = try #require(record.ending?.stall, "the untouched operation never finishes, so the watchdog calls it stuck")
        #expect(stall.unfinishedOperations == ["load astronaut"])
        let texts = verdict.failures.map(\.text)
        #expect(texts.contains { $0.hasPrefix("the program got stuck:") }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("the queue is still waiting for load astronaut: it went executing at ") && $0.contains(" s and never finished") },
                "\(texts)")
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (verdict, record) = await Self.verdict(of: Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text)); ending \(String(describing: record.ending))")
        #expect(verdict.findings.count == 5, "the ending and four things the judge looked at: \(verdict.findings.map(\.text))")
    }

    @Test func theEmptiedExerciseFails() async throws {
        let (verdict, record) = await Self.verdict(of: "ExerciseVariant03AsyncEmptied")
        #expect(record.ending == .exited(code: 0), "it ends at once, doing nothing")
        #expect(!verdict.passed)
        #expect(verdict.failures.map(\.text) == ["no operation named \"load astronaut\" went executing: the queue never started the image load"])
    }

    @Test func theFakedExerciseFailsThoughItPrintsWhatTheSolutionPrints() async throws {
        let (verdict, record) = await Self.verdict(of: "ExerciseVariant03AsyncFaked")
        #expect(record.outputText.contains { $0.hasPrefix("The queue waited for the photo") }, "it prints what the solution prints")
        #expect(!verdict.passed)
        #expect(verdict.failures.map(\.text) == ["no operation named \"load astronaut\" went executing: the queue never started the image load"])
    }

    /// Only the first step: `finish()` written, but never called, so the queue still waits for the operation forever.
    @Test func aFinishThatNothingCallsFails() async throws {
        let (verdict, record) = await Self.verdict(of: "ExerciseVariant03AsyncFirstStep")
        #expect(record.ending?.stall?.unfinishedOperations == ["load astronaut"], "\(String(describing: record.ending))")
        let executing = try #require(record.operation(named: "load astronaut")?.firstTime(of: .executing))
        #expect(verdict.failures.map(\.text).contains(
            "the queue is still waiting for load astronaut: it went executing at \(record.timeText(at: executing)) and never finished; nothing calls finish()"),
                "\(verdict.failures.map(\.text))")
    }

    // MARK: - The judge on runs made to order

    /// The solution's run: executing at 0.1 s on T1, the download on T2 from 0.1 to 0.6 s, finished there at 0.6 s,
    /// and the queue's wait on main from 0.05 to 0.61 s; `finish` moves the finish, `waitEnds` the wait's end.
    static func imageLoad(finishedAt finish: Double? = 0.6, finishedOn finishThread: Int32 = 102, waitEnds: Double? = 0.61) throws -> RunRecord {
        var run = FixtureRun()
        run.begin(1, "waitUntilAllOperationsAreFinished", at: 0.05, thread: FixtureRun.pid)
        run.op("load astronaut", 1, .executing, at: 0.1, thread: 101)
        run.begin(2, "network load astronaut", at: 0.1, thread: 102)
        run.end(2, "network load astronaut", at: 0.6, thread: 102)
        if let finish { run.op("load astronaut", 1, .finished, at: finish, thread: finishThread) }
        if let waitEnds { run.end(1, "waitUntilAllOperationsAreFinished", at: waitEnds, thread: FixtureRun.pid) }
        return try run.record()
    }

    @Test func aFinishFromTheCallbackAfterTheDownloadHolds() throws {
        let findings = Self.challenge.judge(try Self.imageLoad())
        #expect(findings.allSatisfy { $0.holds }, "\(findings.map(\.text))")
        #expect(findings.map(\.text).contains("it finished at 0.60 s, after its download ended at 0.60 s"))
    }

    @Test func finishingBeforeTheDownloadEndsIsNamedWithBothTimes() throws {
        let findings = Self.challenge.judge(try Self.imageLoad(finishedAt: 0.2, finishedOn: 101, waitEnds: 0.21))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "it finished at 0.20 s, before its download ended at 0.60 s: the queue stopped waiting before the photo arrived",
            "it finished on T1, but the download called back on T2: finish() belongs in the callback, not in a thread that waits for it",
        ])
    }

    @Test func aFinishTheQueueWasNeverToldOfIsNamed() throws {
        let findings = Self.challenge.judge(try Self.imageLoad(waitEnds: nil))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "load astronaut said it finished at 0.60 s, but the queue's wait never ended: the queue was not told (didChangeValue(forKey: \"isFinished\"), after the state changed)",
        ])
    }

    @Test func aFinishOnAnotherThreadAfterTheDownloadIsABlockedThread() throws {
        let findings = Self.challenge.judge(try Self.imageLoad(finishedAt: 0.6, finishedOn: 101))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "it finished on T1, but the download called back on T2: finish() belongs in the callback, not in a thread that waits for it",
        ])
    }

    // MARK: - The prediction

    /// The demo's too-early loader: finished at `finished`, its download from 0.3 s to `downloadEnds`.
    static func tooEarly(finished: Double?, downloadEnds: Double?) throws -> RunRecord {
        var run = FixtureRun()
        run.op("too-early load coffee", 1, .executing, at: 0.05, thread: 101)
        if let finished { run.op("too-early load coffee", 1, .finished, at: finished, thread: 101) }
        run.begin(1, "network load coffee", at: 0.3, thread: 102)
        if let downloadEnds { run.end(1, "network load coffee", at: downloadEnds, thread: 102) }
        return try run.record()
    }

    @Test func aFinishBeforeTheDownloadEndsBearsOutA() throws {
        let prediction = Self.exercises.prediction
        let record = try Self.tooEarly(finished: 0.06, downloadEnds: 0.8)
        #expect(prediction.observe(record).rightChoice == "a")
        let right = try prediction.grade(answer: "a", from: record)
        #expect(right.outcome == .right)
        let wrong = try prediction.grade(answer: "b", from: record)
        #expect(wrong.outcome == .wrong)
        #expect(wrong.message == "You said (b) the download ends, then the queue calls the operation finished; the queue called too-early load coffee "
                + "finished at 0.06 s, and its download ended only at 0.80 s, on T2: returning from main() is finishing. "
                + "The answer was (a) the queue calls the operation finished, while the photo is still on its way.")
    }

    @Test func aFinishAfterTheDownloadBearsOutB() throws {
        let record = try Self.tooEarly(finished: 0.9, downloadEnds: 0.8)
        let grade = try Self.exercises.prediction.grade(answer: "b", from: record)
        #expect(grade.outcome == .right)
        #expect(grade.message.hasPrefix("Right. You said (b) the download ends, then the queue calls the operation finished; its download ended at 0.80 s"))
    }

    @Test func aRunThatCannotTellGradesUnknown() throws {
        for record in [try Self.tooEarly(finished: nil, downloadEnds: 0.8), try Self.tooEarly(finished: 0.06, downloadEnds: nil)] {
            let grade = try Self.exercises.prediction.grade(answer: "a", from: record)
            #expect(grade.outcome == .unknown && !grade.isKnown)
            #expect(grade.message.contains("this run cannot tell"), "\(grade.message)")
        }
    }

    @Test func thePagesOwnDemoRunShowsTheQueueCallingItFinishedFirst() async throws {
        let record = await sharedRun(product: "Lesson03Async", speed: 4)
        let observation = Self.exercises.prediction.observe(record)
        #expect(observation.rightChoice == "a", "\(observation.happened)")
    }
}
