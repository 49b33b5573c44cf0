import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 8's challenge, judged from real runs of its four programs, and its judge and prediction from fixture records.
@Suite("Exercises, page 8: Barrier", .bodiesBelowTheRunner)
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

    /// Only the first step: every access on the person's own concurrent queue, in plain `sync` blocks, and no barrier.
    @Test func aConcurrentQueueWithoutABarrierFails() async throws {
        let (record, verdict) = try await Self.checked("ExerciseVariant08BarrierFirstStep")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.findings.contains(CheckFinding(holds: true, "every read and write of the person ran on tour.person, a queue of its own")))
        let failures = verdict.failures.map(\.text)
        #expect(failures.count == 2, "\(failures)")
        let overlap = try #require(failures.first)
        #expect(overlap.hasPrefix("a write of the name (to ") && overlap.contains(" while a read ran on T"), "\(overlap)")
        #expect(failures.last?.contains("waited inside changeName until its write had finished, at ") == true, "\(failures)")
    }
}

/// The check of page 8 under Thread Sanitizer: the reports on the run's standard error become failing findings beside
/// the span judge's, which still reads the same run.
@Suite("Exercises, page 8: the barrier check under Thread Sanitizer", .bodiesBelowTheRunner)
struct BarrierThreadSanitizerTests {
    static let challenge = ExerciseCatalog.exercises(forPage: "barrier")?.challenge

    /// A real Thread Sanitizer build compiles LessonKit again, instrumented: minutes on a loaded two-core machine,
    /// too slow for every test run. A stand-in `swift` on `PATH` "builds" a program that writes a report on its standard
    /// error, as the sanitizer does, and runs the real reference solution (spans and all, through the check's own
    /// runner); the check must judge both.
    @Test func aRaceReportFailsTheCheckThoughEverySpanHolds() async throws {
        let challenge = try #require(Self.challenge)
        #expect(challenge.threadSanitizer)
        let stage = try SanitizerStandIn(running: "Solution08Barrier", report: SanitizerStandIn.raceOnTheLastName)
        defer { stage.remove() }
        let outcome = await ExerciseCheck(packageRoot: stage.root, environment: stage.environment).run(challenge)
        #expect(stage.builds() == ["build --package-path \(stage.root.path) --product Exercise08Barrier --scratch-path "
            + "\(stage.root.path)/.build/tsan --sanitize=thread"])
        #expect(outcome.threadSanitizer)
        let texts = outcome.verdict.findings.map(\.text)
        #expect(texts.contains("each of the 3 writes ran alone: no read or other write of the person ran beside it"), "\(texts)")
        #expect(outcome.verdict.failures.map(\.text) == [
            "Thread Sanitizer found a data race: a write at Exercises/08-Barrier/main.swift:60 (Person.changeName) "
                + "and a previous read at Exercises/08-Barrier/main.swift:65 (Person.name.getter)",
        ])
    }

    @Test func aCleanSanitizedRunOfTheSolutionPasses() async throws {
        let challenge = try #require(Self.challenge)
        let stage = try SanitizerStandIn(running: "Solution08Barrier", report: nil)
        defer { stage.remove() }
        let outcome = await ExerciseCheck(packageRoot: stage.root, environment: stage.environment).run(challenge)
        #expect(outcome.verdict.passed, "\(outcome.verdict.failures.map(\.text))")
        #expect(outcome.verdict.findings.last == CheckFinding(holds: true, "Thread Sanitizer saw no data race"))
    }

    /// The real thing, when asked for with `TOUR_TSAN_TESTS=1`: the check builds the exercise with Thread Sanitizer into
    /// this checkout's `.build/tsan` (as page 8's own Thread Sanitizer test does), as `tour check 8` does, and the
    /// untouched person races.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TOUR_TSAN_TESTS"] == "1", "set TOUR_TSAN_TESTS=1 to build with Thread Sanitizer"))
    func threadSanitizerFindsTheUntouchedPersonsRace() async throws {
        let challenge = try #require(Self.challenge)
        let outcome = await ExerciseCheck(packageRoot: PageCatalog.defaultRoot).run(challenge)
        let races = outcome.verdict.failures.map(\.text).filter { $0.hasPrefix("Thread Sanitizer found") }
        #expect(races.contains { $0.contains("Exercises/08-Barrier/main.swift") }, "\(races)")
    }

    /// The reference solution under the real sanitizer, built into the same `.build/tsan`: no race at all.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TOUR_TSAN_TESTS"] == "1", "set TOUR_TSAN_TESTS=1 to build with Thread Sanitizer"))
    func threadSanitizerFindsNoRaceInTheReferenceSolution() async throws {
        let challenge = try #require(Self.challenge)
        let outcome = await ExerciseCheck(packageRoot: PageCatalog.defaultRoot).run(challenge, product: challenge.solutionProduct)
        #expect(outcome.verdict.passed, "\(outcome.verdict.failures.map(\.text))")
    }
}

/// A stand-in `swift` on a temporary `PATH`, and an empty package root for the check to build in.
///
/// `swift build` logs its arguments and puts a "sanitized" program in the scratch folder: a script that writes `report`
/// on its standard error, as Thread Sanitizer does, and becomes the real program `running` (built with the package),
/// with the arguments and environment it was given.
private struct SanitizerStandIn {
    /// What the sanitizer writes for the untouched person, in the frames `ExerciseCheck.threadSanitizerOptions` asks for.
    static let raceOnTheLastName = """
        ==================
        WARNING: ThreadSanitizer: data race (pid=1)
          Write of size 8 at 0x7b0c00000010 by thread T3:
            #0 Person.changeName Exercises/08-Barrier/main.swift:60:27
            #1 Ledger.write Exercises/08-Barrier/main.swift:118:13
          Previous read of size 8 at 0x7b0c00000010 by thread T7:
            #0 Person.name.getter Exercises/08-Barrier/main.swift:65:13
        SUMMARY: ThreadSanitizer: data race Exercises/08-Barrier/main.swift:60:27 in Person.changeName
        ==================
        ThreadSanitizer: reported 1 warnings
        """

    let folder: URL
    var bin: URL { folder.appendingPathComponent("bin") }
    var root: URL { folder.appendingPathComponent("root") }
    var log: URL { folder.appendingPathComponent("builds.log") }
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "")
        return environment
    }

    init(running product: String, report: String?) throws {
        folder = ScratchSpace.folder.appendingPathComponent("barrier-tsan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let exercise = root.appendingPathComponent("Exercises/08-Barrier")
        try FileManager.default.createDirectory(at: exercise, withIntermediateDirectories: true)
        try "// the learner's file; the stand-in build does not read it\n".write(to: exercise.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let program = BuildProducts.executable(named: product)
        let reportLines = report.map { "cat >&2 <<'REPORT'\n\($0)\nREPORT\n" } ?? ""
        // The report first, then `exec`: a page exits at once unless the host is its parent (`OrphanGuard`).
        let sanitized = "#!/bin/sh\n\(reportLines)exec '\(program)' \"$@\"\n"
        let swift = """
        #!/bin/sh
        echo "$*" >> '\(log.path)'
        scratch=""
        product=""
        previous=""
        for argument in "$@"; do
            if [ "$previous" = --scratch-path ]; then scratch="$argument"; fi
            if [ "$previous" = --product ]; then product="$argument"; fi
            previous="$argument"
        done
        mkdir -p "$scratch/debug"
        cat > "$scratch/debug/$product" <<'PROGRAM'
        \(sanitized)
        PROGRAM
        chmod +x "$scratch/debug/$product"
        echo "Build complete!"
        """
        try writeExecutable(swift, to: bin.appendingPathComponent("swift"))
    }

    /// The arguments of each `swift` call, in order.
    func builds() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The judge on records of persons that went wrong in other ways than the untouched one.
@Suite("Exercises, page 8: the barrier judge on fixture records", .bodiesBelowTheRunner)
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
        #expect(failures.first == "the program got stuck: no progress for 3.0 s in write Charlie Cheesecake (T2)")
        #expect(failures.contains(
            "the write of Charlie Cheesecake held still on T2 from 0.10 s to the end of the run at 3.20 s, waiting for its writer to go on, "
            + "and the writer never came back from changeName: it was waiting for that very write: "
            + "send the write with async(flags: .barrier), so its caller does not wait for it"))
        #expect(!failures.contains { $0.hasPrefix("a read ") }, "the readers at the end were never reached, so they are not judged")
        #expect(failures.contains("no write of Delia Dingle or Eva Evershed ever started; the write of Charlie Cheesecake started on T2 "
            + "at 0.10 s and never finished; 0 of the 6 reads of the name ran to their end"), "\(failures)")
        #expect(try Self.verdict(script).findings.contains(CheckFinding(holds: true,
            "the one write that started ran alone: no read or other write of the person ran beside it")))
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
@Suite("Exercises, page 8: the barrier prediction on fixture records", .bodiesBelowTheRunner)
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

/// A run record built from trace lines as the page writes them (docs/trace-format.md), each on the queue and thread
/// a test names, with times in seconds from the run's start.
fileprivate struct BarrierRecordScript {
    static let pid: Int32 = 500
    static let start = TraceFixture.start
    private(set) var record = RunRecord()
    private var nextSpan = 1

    init() {
        record.apply(.started(pid: Self.pid, time: Self.start))
    }

    static func time(_ seconds: Double) -> UInt64 { start + UInt64((seconds * 1e9).rounded()) }

    private mutating func line(_ kind: String, at seconds: Double, thread: Int32, queue: String, _ fields: String) {
        // Stamped as `TraceFixture` stamps lines: whole milliseconds after the same start.
        let line = TraceFixture.line(kind, at: Int((seconds * 1_000).rounded()), thread: thread, queue: queue, fields)
        switch TraceLineParser.parse(Array(line.utf8)) {
        case .success(let event): record.apply(.trace(event))
        case .failure(let failure): Issue.record("the fixture wrote a bad trace line, \(failure): \(line)")
        }
    }

    /// A span from `from` to `to`, or one still open at the end of the run when `to` is nil.
    mutating func span(_ name: String, thread: Int32, queue: String, from: Double, to: Double?) {
        let id = nextSpan
        nextSpan += 1
        line("begin", at: from, thread: thread, queue: queue, #""id":\#(id),"name":"\#(name)""#)
        if let to { line("end", at: to, thread: thread, queue: queue, #""id":\#(id),"name":"\#(name)""#) }
    }

    mutating func mark(_ name: String, thread: Int32, queue: String, at seconds: Double) {
        line("mark", at: seconds, thread: thread, queue: queue, #""name":"\#(name)""#)
    }

    mutating func end(_ ending: RunEnding, at seconds: Double) {
        record.apply(.ended(ending, time: Self.time(seconds)))
    }
}
