import ExerciseJudging
import Foundation
import PageProtocol
import Synchronization
import Testing
import TourCore
import TourTestSupport

/// The check runner on a scratch copy of the package: it builds the learner's file, runs it as a page and judges it;
/// a file that does not compile fails with the compiler's first error and its place.
@Suite("Exercise check runner", .bodiesBelowTheRunner)
struct ExerciseCheckRunnerTests {
    @Test func theRunnerBuildsTheLearnersFileRunsItAndJudgesItsRecord() async throws {
        let scratch = try await ScratchPackage.make(withTour: false)
        defer { scratch.remove() }
        let challenge = PageExercises.async.challenge
        let check = ExerciseCheck(packageRoot: scratch.root, productsDirectory: scratch.productsDirectory)
        let exercise = scratch.root.appendingPathComponent(challenge.file)
        let untouched = try String(contentsOf: exercise, encoding: .utf8)

        // A typo: the check fails with the compiler's error, its file and its line, and runs nothing.
        let broken = untouched.replacingOccurrences(of: "        // Your code here (step 2).", with: "        self.finnish()")
        #expect(broken != untouched)
        try Data(broken.utf8).write(to: exercise)
        let line = try #require(broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("self.finnish()") }) + 1
        // Both checks come after this test's slow copy, the second after the first (`PageRunSlots.Urgency.followUp`).
        let failed = await PageRunSlots.shared.withSlot(.followUp, label: "check: broken exercise") { await check.run(challenge) }
        #expect(failed.record == nil)
        #expect(failed.build.status == .failed)
        #expect(failed.verdict.findings.count == 1)
        let finding = try #require(failed.verdict.failures.first).text
        #expect(finding.hasPrefix("Exercises/03-Async/main.swift does not compile: Exercises/03-Async/main.swift:\(line):"), "\(finding)")
        #expect(finding.contains("error: value of type 'ImageLoad' has no member 'finnish'"), "\(finding)")

        // The reference solution in the learner's file: rebuilt, run, and it passes.
        try Data(try String(contentsOf: scratch.root.appendingPathComponent(challenge.solutionFile), encoding: .utf8).utf8).write(to: exercise)
        let stages = StageLog()
        let passed = await PageRunSlots.shared.withSlot(.followUp, label: "check: solution") {
            await check.run(challenge, progress: stages.note)
        }
        #expect(passed.build.status == .succeeded)
        #expect(passed.verdict.passed, "\(passed.verdict.failures.map(\.text))")
        #expect(stages.stages == [.building(product: challenge.product, sanitized: false), .running(product: challenge.product)])
        #expect(passed.build.route == .direct, "one file changed: only its compile jobs and a link")
    }

    @Test func aCancelledCheckStopsItsRun() async throws {
        let scratch = try await ScratchPackage.make(withTour: false)
        defer { scratch.remove() }
        let challenge = PageExercises.async.challenge
        let check = ExerciseCheck(packageRoot: scratch.root, productsDirectory: scratch.productsDirectory)
        let started = Occurrences()
        let task = Task {
            await check.run(challenge, progress: { stage in if case .running = stage { started.signal() } })
        }
        #expect(await started.next(timeout: 300), "the untouched exercise builds and starts")
        task.cancel()
        let outcome = await task.value
        // The untouched exercise hangs; a cancelled check stops it, rather than waiting for the watchdog.
        #expect(outcome.record?.ending == .stopped || outcome.record?.ending?.stall != nil, "\(String(describing: outcome.record?.ending))")
        #expect(!outcome.verdict.passed)
    }
}

/// The stages a check went through, in order.
final class StageLog: Sendable {
    private let log = Mutex<[ExerciseCheck.Stage]>([])
    var stages: [ExerciseCheck.Stage] { log.withLock { $0 } }
    func note(_ stage: ExerciseCheck.Stage) { log.withLock { $0.append(stage) } }
}

@Suite("Thread Sanitizer reports", .bodiesBelowTheRunner)
struct ThreadSanitizerReportTests {
    /// A report as a Thread Sanitizer build of a racy program wrote it with `ExerciseCheck.threadSanitizerOptions`
    /// (Swift 6.3.1, Linux), cut after its first stacks.
    static let report = """
        ==================
        WARNING: ThreadSanitizer: data race (pid=1973)
          Write of size 8 at 0x720800000050 by thread T1:
            #0 $s4racyyyYbcfU_ Exercises/08-Barrier/main.swift:8:17
            #1 $sIegh_IeyBh_TR /<compiler-generated>
            #2 _____interceptor_dispatch_group_async_block_invoke /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_libdispatch.cpp:361:5
            #3 _dispatch_worker_thread.cold.5 queue.c

          Previous read of size 8 at 0x720800000050 by thread T3:
            #0 $s4racyyyYbcfU0_ Exercises/08-Barrier/main.swift:11:18
            #1 $sIegh_IeyBh_TR /<compiler-generated>

          Location is heap block of size 32 at 0x720800000040 allocated by main thread:
            #0 malloc /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:686:5
            #2 main Exercises/08-Barrier/main.swift:5:14

          Thread T1 'oot.default-qos' (tid=1976, running) created by main thread at:
            #0 pthread_create /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1094:3

        SUMMARY: ThreadSanitizer: data race Exercises/08-Barrier/main.swift:8:17 in $s4racyyyYbcfU_
        ==================
        Bo
        """

    @Test func aReportNamesBothAccessesAndTheirLinesInThePackage() throws {
        let reports = ThreadSanitizerReport.parse(Self.report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.kind == "data race")
        #expect(report.accesses.map(\.kind) == ["write", "previous read"], "the heap block's line is where, not who")
        #expect(report.accesses.map(\.by) == ["thread T1", "thread T3"])
        #expect(report.accesses.map(\.place) == ["Exercises/08-Barrier/main.swift:8", "Exercises/08-Barrier/main.swift:11"])
        #expect(report.summary.hasPrefix("Thread Sanitizer found a data race: a write at Exercises/08-Barrier/main.swift:8 ("))
        #expect(report.summary.contains("and a previous read at Exercises/08-Barrier/main.swift:11"))
    }

    @Test func eachReportOfASanitizedRunIsAFailingFindingAndACleanRunSaysSo() throws {
        let challenge = Challenge(id: "race", title: "t", task: "t", folder: "08-Barrier", hints: ["a", "b"], threadSanitizer: true) { _ in [] }
        var record = RunRecord()
        record.apply(.started(pid: 1, time: 1_000))
        for (index, line) in Self.report.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            record.apply(.output(OutputLine(stream: .stderr, text: String(line), time: 2_000 + UInt64(index))))
        }
        record.apply(.ended(.exited(code: 0), time: 9_000))
        let raced = CheckVerdict(of: record, for: challenge, threadSanitizerReports: ThreadSanitizerReport.all(in: record))
        #expect(!raced.passed)
        #expect(raced.failures.map(\.text).first?.hasPrefix("Thread Sanitizer found a data race") == true)
        let clean = CheckVerdict(of: record, for: challenge, threadSanitizerReports: [])
        #expect(clean.passed && clean.findings.last?.text == "Thread Sanitizer saw no data race")
        let unsanitized = CheckVerdict(of: record, for: challenge)
        #expect(unsanitized.findings.count == 1, "a run without the sanitizer proves nothing about races, so it says nothing")
    }
}

@Suite("Prediction grader", .bodiesBelowTheRunner)
struct PredictionGraderTests {
    /// A prediction whose answer is read from the run: whether a mark named "main" came from the main thread.
    static let prediction = Prediction(
        id: "where", question: "Where does the completion block run?",
        choices: [Prediction.Choice(key: "a", text: "the completion block runs on the main thread"),
                  Prediction.Choice(key: "b", text: "it runs on a pool thread")]
    ) { record in
        guard let mark = record.marks.first else { return Prediction.Observation(rightChoice: nil, happened: "no completion block ran") }
        let pool = record.isBackgroundThread(mark.thread)
        return Prediction.Observation(rightChoice: pool ? "b" : "a",
                                      happened: "it ran on \(record.laneName(of: mark.thread))\(pool ? ", a pool thread" : "")")
    }

    static func run(markOn thread: Int32?) throws -> RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: 100, time: 1_000))
        if let thread {
            record.apply(.trace(try TraceLineParser.parse(Array(#"{"e":"mark","t":2000,"tid":\#(thread),"q":"q","name":"done"}"#.utf8)).get()))
        }
        record.apply(.ended(.exited(code: 0), time: 3_000))
        return record
    }

    @Test func aWrongAnswerIsExplainedByWhatTheRunDid() throws {
        var record = RunRecord()
        record.apply(.started(pid: 100, time: 1_000))
        record.apply(.trace(try TraceLineParser.parse(Array(#"{"e":"mark","t":1500,"tid":103,"q":"q","name":"done"}"#.utf8)).get()))
        record.apply(.ended(.exited(code: 0), time: 3_000))
        let grade = try Self.prediction.grade(answer: "a", from: record)
        #expect(grade.outcome == .wrong)
        #expect(grade.message == "You said (a) the completion block runs on the main thread; it ran on T1, a pool thread. The answer was (b) it runs on a pool thread.")
    }

    @Test func aRightAnswerAndAnUnknownOne() throws {
        let right = try Self.prediction.grade(answer: " A ", from: try Self.run(markOn: 100))
        #expect(right.outcome == .right && right.answer.key == "a", "keys ignore case and spaces")
        #expect(right.message == "Right. You said (a) the completion block runs on the main thread; it ran on main.")
        let unknown = try Self.prediction.grade(answer: "b", from: try Self.run(markOn: nil))
        #expect(unknown.outcome == .unknown)
        #expect(unknown.message == "You said (b) it runs on a pool thread; this run cannot tell: no completion block ran.")
    }

    @Test func anUnknownKeyIsRefusedByNameWithTheValidKeys() throws {
        do {
            _ = try Self.prediction.grade(answer: "c", from: RunRecord())
            Issue.record("the key c was accepted")
        } catch {
            #expect(error.key == "c" && error.validKeys == ["a", "b"])
            #expect(error.description == "'c' is not an answer to the prediction 'where'; the answers are a, b (see tour predict <page>)")
        }
    }
}
