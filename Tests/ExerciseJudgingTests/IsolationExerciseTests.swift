import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 12's challenge, judged from real runs of its five programs, and its prediction, graded from fixture records and
/// from a real run of the page.
@Suite("Exercises of page 12: Isolation", .bodiesBelowTheRunner)
struct IsolationExerciseTests {
    static let challenge = PageExercises.isolation.challenge
    static let mainQueue = "com.apple.main-thread"
    static let globalPool = "Swift global concurrent queue"

    /// A run of `product` as `tour check 12` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    static func span(_ name: String, in record: RunRecord) throws -> Span {
        try #require(record.firstSpan(named: name), "no span named \(name)")
    }

    @Test func theUntouchedExerciseDecodesOnTheMainActorAndTheVerdictSaysSo() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        #expect(record.ending == .exited(code: 0))
        let decode = try Self.span("decode thumbnails", in: record)
        #expect(decode.queue == Self.mainQueue)
        let end = try #require(decode.end)
        #expect(verdict.failures.map(\.text) == [
            "decode thumbnails ran on the main actor's queue (com.apple.main-thread) from \(record.timeText(at: decode.start)) to "
                + "\(record.timeText(at: end)), and the main actor drew 0 frames meanwhile: a nonisolated(nonsending) function "
                + "runs on its caller's actor; make the decode @concurrent",
        ])
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(try Self.span("decode thumbnails", in: record).queue == Self.globalPool)
        #expect(try Self.span("show thumbnails", in: record).queue == Self.mainQueue)
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant12IsolationEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text) == ["the thumbnails were never decoded: refreshGallery must get them from Gallery.decode()"])
    }

    @Test func theFakedSolutionFailsThoughItShowsThumbnailsAndPrintsWhatTheSolutionPrints() async {
        let (record, verdict) = await Self.check("ExerciseVariant12IsolationFaked")
        #expect(record.outputText.contains("Showed 6 thumbnails"))
        #expect(verdict.failures.map(\.text) == ["the thumbnails were never decoded: refreshGallery must get them from Gallery.decode()"])
    }

    /// Only the first step: the decode is off the main actor, and the drawing went with it.
    @Test func drawingOffTheMainActorFails() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant12IsolationFirstStep")
        #expect(record.ending == .exited(code: 0))
        #expect(try Self.span("decode thumbnails", in: record).queue == Self.globalPool)
        #expect(verdict.failures.map(\.text) == [
            "show thumbnails ran on the global pool (Swift global concurrent queue), off the main actor: draw from "
                + "refreshGallery, which is @MainActor, after the decode's await",
        ])
    }

    // MARK: The judge on runs that went wrong in other ways

    /// The refresh task (number 1) from 0 to 100 ms; the decode from 10 to 50 ms on `decodeQueue`, in `decodeTask`; the
    /// drawing from `showAt` on `showQueue`; a frame every 10 ms on the main queue.
    static func refreshRun(decodeQueue: String = globalPool, decodeTask: Int? = 1, showAt: Int = 60,
                           showQueue: String = mainQueue) throws -> RunRecord {
        var lines = [TraceFixture.task(1, "refresh", parent: nil, kind: "unstructured", "start", at: 0, thread: 5_000),
                     TraceFixture.task(1, "refresh", parent: nil, kind: "unstructured", "end", at: 100, thread: 5_000)]
        lines += decodeTask.map { TraceFixture.span(1, "decode thumbnails", task: $0, from: 10, to: 50, thread: 5_001, queue: decodeQueue) }
            ?? TraceFixture.span(1, "decode thumbnails", from: 10, to: 50, thread: 5_001, queue: decodeQueue)
        lines += TraceFixture.span(2, "show thumbnails", task: 1, from: showAt, to: showAt + 5, thread: 5_000, queue: showQueue)
        lines += stride(from: 5, to: 100, by: 10).map { TraceFixture.mark("frame", at: $0, thread: 5_000, queue: mainQueue) }
        return try TraceFixture.record(lines)
    }

    @Test func aDecodeOnThePoolAndADrawingOnTheMainActorPass() throws {
        let findings = Self.challenge.judge(try Self.refreshRun())
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings.filter { !$0.holds })")
        #expect(findings.first?.text.hasSuffix("and the main actor drew 4 frames meanwhile") == true, "\(findings.map(\.text))")
    }

    @Test func aDecodeOutsideTheRefreshTaskIsCaught() throws {
        let findings = Self.challenge.judge(try Self.refreshRun(decodeTask: nil))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "decode thumbnails ran outside the refresh's task: call it with await from refreshGallery, not from a queue or a task of its own",
        ])
    }

    @Test func aDrawingBeforeTheDecodeEndedIsCaught() throws {
        let findings = Self.challenge.judge(try Self.refreshRun(showAt: 20))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "show thumbnails began at 0.02 s, before the decode ended: show what the decode returned",
        ])
    }

    @Test func aRunThatNeverShowsIsCaught() throws {
        let lines = [TraceFixture.task(1, "refresh", parent: nil, kind: "unstructured", "start", at: 0, thread: 5_000)]
            + TraceFixture.span(1, "decode thumbnails", task: 1, from: 10, to: 50, thread: 5_001, queue: Self.globalPool)
        let findings = Self.challenge.judge(try TraceFixture.record(lines))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the thumbnails were never shown: refreshGallery must pass them to Gallery.show",
        ])
    }

    // MARK: The prediction

    static let prediction = PageExercises.isolation.prediction

    /// A run of page 12 whose plain async function ran on `queue`, or never ran.
    static func plainAsyncRun(on queue: String?) throws -> RunRecord {
        let lines = queue.map { TraceFixture.span(1, "plain async", from: 10, to: 11, thread: 5_000, queue: $0) } ?? []
        return try TraceFixture.record(lines)
    }

    @Test(arguments: [("com.apple.main-thread", "a"), ("Swift global concurrent queue", "b")])
    func predictionIsGradedByTheQueueThatRanTheSpan(queue: String, key: String) throws {
        let observation = Self.prediction.observe(try Self.plainAsyncRun(on: queue))
        #expect(observation.rightChoice == key)
        #expect(observation.happened.hasPrefix("its span ran on \(queue), on T"), "\(observation.happened)")
    }

    @Test func runsThatCannotTellSaySo() throws {
        #expect(Self.prediction.observe(try Self.plainAsyncRun(on: nil))
                == .init(rightChoice: nil, happened: "this run ended before the plain async function ran, so it cannot tell"))
        #expect(Self.prediction.observe(try Self.plainAsyncRun(on: "")).rightChoice == nil)
        #expect(Self.prediction.choices.map(\.key) == ["a", "b"])
    }

    /// The page's own run: in this package's Swift 6 mode, the plain function left the main actor for the global pool.
    @Test func thePagesRunBearsOutTheGlobalPool() async {
        let run = await sharedRun(product: "Lesson12Isolation", speed: 4)
        #expect(Self.prediction.observe(run).rightChoice == "b")
    }
}
