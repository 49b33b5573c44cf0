import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 8's challenge, judged from real runs of its four programs, and its judge and prediction from fixture records.
@Suite("Exercises, page 8: Barrier")
struct BarrierExerciseTests {
    static let exercises = ExerciseCatalog.exercises(forPage: "barrier")

    static func checked(_ product: String) async throws -> (record: RunRecord, verdict: CheckVerdict) {
        let challenge = try #require(exercises?.challenge)
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExerciseFailsWithTheOverlapNamed() async throws {
        let (record, verdict) = try await Self.checked("Exercise08Barrier")
        #expect(record.ending == .exited(code: 0), "the untouched person races, but the program ends")
        #expect(!verdict.passed)
        let failures = verdict.failures.map(\.text)
        let overlap = try #require(failures.first { $0.hasPrefix("a write of the name (to ") })
        #expect(overlap.contains(" while a read ran on T"), "a read is named first: \(overlap)")
        #expect(overlap.contains("3 of the 3 writes had company"), "every write is held until a read has started: \(overlap)")
        #expect(overlap.contains("and writes ran beside each other too"), "the three writers write at once: \(overlap)")
        #expect(failures.contains { $0.contains("waited inside changeName until its write had finished, at ") && $0.contains(", and so did the writers of ") })
        #expect(failures.contains { $0.contains("the queues of the clients that called it") })
        #expect(verdict.findings.contains(CheckFinding(holds: true, "all 3 writes and 6 reads of the person ran to their end")))
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = try await Self.checked("Solution08Barrier")
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(verdict.findings.count == 6, "the ending and five findings: \(verdict.findings.map(\.text))")
        #expect(verdict.findings.contains(CheckFinding(holds: true, "every read and write of the person ran on tour.person, a queue of its own")))
        #expect(record.spans.filter { $0.name == "read name" }.count == 6)
    }

    @Test func anEmptiedBodyFails() async throws {
        let (record, verdict) = try await Self.checked("ExerciseVariant08BarrierEmptied")
        let stall = try #require(record.ending.flatMap { ending -> Stall? in if case .stuck(let stall) = ending { stall } else { nil } },
                                 "the readers wait for writes that never come, so the run is stuck; it ended \(String(describing: record.ending))")
        #expect(stall.openSpans.contains { $0.hasPrefix("reader 1 waits for write Charlie Cheesecake") })
        #expect(!verdict.passed)
        #expect(verdict.failures.map(\.text).contains(
            "no write of Charlie Cheesecake, Delia Dingle or Eva Evershed ever started; 0 of the 6 reads of the name ran to their end: "
            + "changeName and name must still store and read the names through Ledger.write and Ledger.read"))
    }

    @Test func aSolutionThatOnlyPrintsFails() async throws {
        let (record, verdict) = try await Self.checked("ExerciseVariant08BarrierFaked")
        #expect(record.ending == .exited(code: 0))
        #expect(record.outputText.last == "Final name: Eva Evershed")
        #expect(!verdict.passed)
        #expect(verdict.failures.first?.text.hasPrefix("no write of Charlie Cheesecake") == true)
    }
}

/// The judge on records of persons that went wrong in other ways than the untouched one.
@Suite("Exercises, page 8: the barrier judge on fixture records")
struct BarrierJudgeFixtureTests {
    static let challenge = ExerciseCatalog.exercises(forPage: "barrier")?.challenge

    fileprivate static func verdict(_ script: BarrierRecordScript) throws -> CheckVerdict {
        CheckVerdict(of: script.record, for: try #require(challenge))
    }

    /// The person of the reference solution, with its times written out: one write after another on "tour.person",
    /// each writer going on first, then the readers, then two reads side by side and the final one.
    fileprivate static func safeRun(readQueue: String = "tour.person", writeQueue: String = "tour.person", readersAtTheEnd: Bool = true) -> BarrierRecordScript {
        var script = BarrierRecordScript()
        for (index, name) in ["Charlie Cheesecake", "Delia Dingle", "Eva Evershed"].enumerated() {
            let start = 0.1 + Double(index) * 0.1
            let writer = Int32(10 + index), reader = Int32(20 + index)
            script.mark("writer went on from write \(name)", thread: writer, queue: "tour.exercise.writer\(index + 1)", at: start - 0.05)
            script.span("write \(name)", thread: 30, queue: writeQueue, from: start, to: start + 0.06)
            script.span("read name", thread: reader, queue: readQueue, from: start + 0.07, to: start + 0.09)
        }
        guard readersAtTheEnd else { return script }
        script.span("read name", thread: 24, queue: readQueue, from: 0.5, to: 0.52)
        script.span("read name", thread: 25, queue: readQueue, from: 0.5, to: 0.52)
        script.span("read name", thread: BarrierRecordScript.pid, queue: readQueue, from: 0.6, to: 0.62)
        return script
    }

    @Test func theJudgeHoldsForAPersonBehindABarrier() throws {
        var script = Self.safeRun()
        script.end(.exited(code: 0), at: 0.7)
        let verdict = try Self.verdict(script)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(verdict.findings.contains(CheckFinding(holds: true, "two reads ran side by side from 0.50 s, on T8 and T9: readers do not keep each other waiting")))
    }

    @Test func aWriteSentWithSyncKeepsItsWriterWaitingAndIsNamed() throws {
        var script = BarrierRecordScript()
        // Sent with sync(flags: .barrier): the write holds still for its writer, who waits for the write.
        script.span("reader 1 waits for write Charlie Cheesecake", thread: 20, queue: "tour.exercise.reader1", from: 0.05, to: 0.16)
        script.span("write Charlie Cheesecake", thread: 10, queue: "tour.person", from: 0.1, to: nil)
        script.end(.stuck(Stall(openSpans: ["write Charlie Cheesecake (T2)"], unfinishedOperations: [], silentSeconds: 3)), at: 3.2)
        let failures = try Self.verdict(script).failures.map(\.text)
        #expect(failures.first == "the program stuck: no progress for 3.0 s in write Charlie Cheesecake (T2)")
        #expect(failures.contains(
            "the write of Charlie Cheesecake held still on T2 from 0.10 s to the end of the run at 3.20 s, waiting for its writer to go on, "
            + "and the writer never came back from changeName: it was waiting for that very write: "
            + "send the write with async(flags: .barrier), so its caller does not wait for it"))
        #expect(!failures.contains { $0.hasPrefix("a read ") }, "the readers at the end were never reached, so they are not judged")
    }

    @Test func readsThatTakeTurnsStarveThePairAtTheEnd() throws {
        var script = Self.safeRun(readQueue: "tour.person.serial", writeQueue: "tour.person.serial", readersAtTheEnd: false)
        script.span("read name", thread: 24, queue: "tour.person.serial", from: 0.7, to: nil)
        script.end(.stuck(Stall(openSpans: ["read name (T8)"], unfinishedOperations: [], silentSeconds: 3)), at: 3.8)
        let failures = try Self.verdict(script).failures.map(\.text)
        #expect(failures.contains { $0.hasPrefix("a read on T8 from 0.70 s to the end of the run at 3.80 s waited for a second read to run beside it") })
    }

    @Test func aBarrierOnAGlobalQueueIsNamed() throws {
        var script = Self.safeRun(writeQueue: "com.apple.root.default-qos")
        script.end(.exited(code: 0), at: 0.7)
        let failures = try Self.verdict(script).failures.map(\.text)
        #expect(failures.contains { $0.hasPrefix("the person's reads and writes ran on com.apple.root.default-qos, a global queue, which ignores the barrier flag") })
    }

    @Test func aWriteBesideAnotherWriteIsNamedAsSuch() throws {
        var script = BarrierRecordScript()
        script.span("write Charlie Cheesecake", thread: 10, queue: "tour.person", from: 0.1, to: 0.2)
        script.span("write Delia Dingle", thread: 11, queue: "tour.person", from: 0.15, to: 0.25)
        script.end(.exited(code: 0), at: 0.3)
        let failures = try Self.verdict(script).failures.map(\.text)
        #expect(failures.contains("a write of the name (to Charlie Cheesecake) ran on T1 from 0.10 s to 0.20 s while the write of "
            + "Delia Dingle ran on T2 from 0.15 s to 0.25 s: the two can leave half of each, and Thread Sanitizer calls it a data race; "
            + "2 of the 2 writes had company"), "\(failures)")
    }
}

/// The prediction, graded from records of the page's barrier experiment: each answer right once, and a run that cannot tell.
@Suite("Exercises, page 8: the barrier prediction on fixture records")
struct BarrierPredictionTests {
    static let prediction = ExerciseCatalog.exercises(forPage: "barrier")?.prediction

    /// The experiment's five blocks on `queue`, with the barrier alone or sharing its time with block 3.
    fileprivate static func experiment(_ script: inout BarrierRecordScript, queue: String, barrierAlone: Bool, from start: Double) {
        let thread: Int32 = queue == "custom queue" ? 40 : 50
        script.span("\(queue) block 1", thread: thread, queue: queue, from: start, to: start + 0.5)
        script.span("\(queue) block 2", thread: thread + 1, queue: queue, from: start, to: start + 0.5)
        script.span("\(queue) barrier", thread: thread, queue: queue, from: start + 0.5, to: start + 1)
        let third = barrierAlone ? start + 1 : start + 0.5
        script.span("\(queue) block 3", thread: thread + 1, queue: queue, from: third, to: third + 0.5)
        script.span("\(queue) block 4", thread: thread, queue: queue, from: third + 0.5, to: third + 1)
    }

    static func observed(ownAlone: Bool, globalAlone: Bool) throws -> Prediction.Observation {
        var script = BarrierRecordScript()
        experiment(&script, queue: "custom queue", barrierAlone: ownAlone, from: 1)
        experiment(&script, queue: "global queue", barrierAlone: globalAlone, from: 3)
        script.end(.exited(code: 0), at: 6)
        return try #require(prediction).observe(script.record)
    }

    @Test func eachAnswerIsRightWhenTheRunShowsIt() throws {
        let prediction = try #require(Self.prediction)
        #expect(prediction.choices.map(\.key) == ["a", "b", "c", "d"])
        #expect(try Self.observed(ownAlone: true, globalAlone: true).rightChoice == "a")
        #expect(try Self.observed(ownAlone: true, globalAlone: false).rightChoice == "b")
        #expect(try Self.observed(ownAlone: false, globalAlone: false).rightChoice == "c")
        #expect(try Self.observed(ownAlone: false, globalAlone: true).rightChoice == "d")
    }

    @Test func whatHappenedIsToldWithTheRunsOwnFigures() throws {
        let observation = try Self.observed(ownAlone: true, globalAlone: false)
        #expect(observation.happened == "on the page's own queue nothing ran beside the barrier (1.50 s to 2.00 s); "
            + "on the global queue block 3 ran beside the barrier (3.50 s to 4.00 s), from 3.50 s")
    }

    @Test func aRunWithoutTheExperimentCannotTell() throws {
        var script = BarrierRecordScript()
        // people=unsafe: only the unsafe person's changes, no barrier experiment.
        script.span("change to Charlie Cheesecake", thread: 10, queue: "tour.barrier.client1", from: 0.1, to: 0.4)
        script.end(.exited(code: 0), at: 1)
        let observation = try #require(Self.prediction).observe(script.record)
        #expect(observation.rightChoice == nil)
        #expect(observation.happened.hasPrefix("this run has no barrier experiment to read"))
    }
}

/// A run record built from the events a page would send, with times in seconds from the run's start.
fileprivate struct BarrierRecordScript {
    static let pid: Int32 = 500
    static let start: UInt64 = 1_000_000_000
    private(set) var record = RunRecord()
    private var nextSpan = 1

    init() {
        apply(.started(pid: Self.pid, time: Self.start))
    }

    static func time(_ seconds: Double) -> UInt64 { start + UInt64((seconds * 1e9).rounded()) }

    private mutating func apply(_ event: HostEvent) {
        record.apply(event)
    }

    /// A span from `from` to `to`, or one still open at the end of the run when `to` is nil.
    mutating func span(_ name: String, thread: Int32, queue: String, from: Double, to: Double?) {
        let id = nextSpan
        nextSpan += 1
        apply(.trace(PageEvent(time: Self.time(from), thread: thread, queue: queue, kind: .begin(id: id, name: name))))
        if let to { apply(.trace(PageEvent(time: Self.time(to), thread: thread, queue: queue, kind: .end(id: id, name: name)))) }
    }

    mutating func mark(_ name: String, thread: Int32, queue: String, at seconds: Double) {
        apply(.trace(PageEvent(time: Self.time(seconds), thread: thread, queue: queue, kind: .mark(name: name))))
    }

    mutating func end(_ ending: RunEnding, at seconds: Double) {
        apply(.ended(ending, time: Self.time(seconds)))
    }
}
