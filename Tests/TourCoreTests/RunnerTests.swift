@preconcurrency import Glibc
import Foundation
import Synchronization
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport
import PageProtocol

/// The real runner on `RunnerFixture` (Tests/Fixtures/RunnerFixture/main.swift), a program that misbehaves on demand;
/// the environment variable FIXTURE picks the misbehaviour. Every test waits for the run's real end, the watchdog's
/// verdict or an event the page sends; none sleeps for a fixed time. The time limits only turn a hang into a failure.
@Suite("Runner on the fixture", .bodiesBelowTheRunner, .timeLimit(.minutes(3)))
struct RunnerTests {
    static let product = "RunnerFixture"

    private func run(_ scenario: String, stuckAfter: Double = 3, silentLimit: Double = 15,
                     environment: [String: String] = [:], limits: RunRecord.Limits = RunRecord.Limits()) async -> RunRecord {
        await recordRun(product: Self.product, stuckAfter: stuckAfter, silentLimit: silentLimit,
                  environment: environment.merging(["FIXTURE": scenario]) { $1 }, limits: limits)
    }

    private func stderrLines(_ record: RunRecord) -> [String] {
        record.output.filter { $0.stream == .stderr }.map(\.text)
    }

    @Test func cleanExit() async throws {
        let record = await run("clean")
        #expect(record.ending == .exited(code: 0))
        #expect(record.endedAsExpected)
        let pid = try #require(record.pid)
        #expect(record.page == Self.product)
        #expect(record.speed == 1)
        #expect(record.outputText == ["first line", "second line"])
        #expect(record.output.allSatisfy { $0.stream == .stdout && $0.thread == pid && $0.queue == "com.apple.main-thread" })
        let span = try #require(record.spans(named: "clean span").first)
        #expect(record.spans.count == 1)
        #expect(span.thread == pid)
        let end = try #require(span.end)
        #expect(span.start <= end)
        let mark = try #require(record.marks.first)
        #expect(record.marks.map(\.name) == ["inside the span"])
        #expect(span.start <= mark.time && mark.time <= end)
        // `peek(#line)`: the result's text is the number of the line that reported it.
        let result = try #require(record.results.first)
        #expect(record.results.count == 1)
        #expect(result.file == "main.swift")
        #expect(result.kind == .peek)
        #expect(result.text == String(result.line))
        #expect(result.count == 1)
        #expect(record.rejectedTraceLines == 0)
        #expect(record.threads.map(\.name) == ["main"])
    }

    /// `echo-commands`: announces that it takes commands, echoes each stdin line, and ends when its input closes.
    @Test func commandsReachThePageAndClosingTheInputEndsIt() async throws {
        let lines = Mutex<[String]>([])
        let echoed = Occurrences()
        let request = RunRequest(executable: BuildProducts.executable(named: Self.product),
                                 extraEnvironment: ["FIXTURE": "echo-commands"], sendsCommands: true)
        let run = PageRun.start(request) { event in
            guard case .output(let line) = event else { return }
            lines.withLock { $0.append(line.text) }
            if line.text.hasPrefix("got: ") { echoed.signal() }
        }
        #expect(run.send("scroll +1"))
        #expect(run.send("scroll -4"))
        for _ in 0..<2 { #expect(await echoed.next(timeout: 60)) }
        run.closeInput()
        #expect(await run.ended() == .exited(code: 0))
        #expect(lines.withLock { $0 } == ["commands from host: 1", "got: scroll +1", "got: scroll -4", "input closed"])
        #expect(!run.send("too late"), "a run that ended has no input to write to")
    }

    @Test func aRunWithoutCommandsHasNoInputToWriteTo() async {
        let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: Self.product),
                                           extraEnvironment: ["FIXTURE": "clean"])) { _ in }
        #expect(!run.send("scroll +1"))
        await run.ended()
    }

    @Test func nonZeroExit() async {
        let record = await run("exit3")
        #expect(record.ending == .exited(code: 3))
        #expect(!record.endedAsExpected)
        #expect(record.outputText == ["exiting with 3"])
    }

    @Test func fatalErrorWithItsMessageAndLocation() async throws {
        let record = await run("fatal")
        // The fixture marks the line of its `fatalError` just before it, so the location is exact.
        let mark = try #require(record.marks.first { $0.name.hasPrefix("fatal error at line ") })
        let line = mark.name.dropFirst("fatal error at line ".count)
        #expect(record.ending == .fatalError(message: "Fatal error: boom", location: "RunnerFixture/main.swift:\(line)"))
        #expect(stderrLines(record).first == "RunnerFixture/main.swift:\(line): Fatal error: boom")
    }

    @Test func syncOntoTheCurrentSerialQueueIsADispatchTrap() async {
        let record = await run("dispatch-deadlock")
        #expect(record.ending == .dispatchTrap)
        #expect(stderrLines(record) == [])
        #expect(record.marks.map(\.name) == ["on the serial queue"])
        #expect(record.marks.first?.queue == "fixture.serial")
    }

    /// `ObservedOperation` reports Foundation's changes from inside the getters Foundation reads, so a `finished` line
    /// must come before everything the change sets off, whichever thread read the getter first.
    @Test func finishedIsReportedBeforeWhatItCauses() async throws {
        let record = await run("operation-chains")
        #expect(record.ending == .exited(code: 0))
        for index in 0..<200 {
            let first = try #require(record.operations.first { $0.name == "first \(index)" })
            let second = try #require(record.operations.first { $0.name == "second \(index)" })
            let finished = try #require(first.firstTime(of: .finished))
            let ready = try #require(second.firstTime(of: .ready))
            let executing = try #require(second.firstTime(of: .executing))
            #expect(ready >= finished, "second \(index) was released after first \(index) finished")
            #expect(executing >= finished)
            let completion = try #require(record.marks.first { $0.name == "completion of first \(index)" })
            #expect(completion.time >= finished)
            #expect(first.changes.map(\.state) == [.ready, .executing, .finished], "each of Foundation's changes once, in order")
            let span = try #require(record.spans(named: "first \(index)").first)
            #expect(span.thread == first.changes[1].thread, "the span begins on the lane that reported executing")
            let spanEnd = try #require(span.end)
            #expect(spanEnd <= finished)
        }
    }

    @Test func anIntegerOverflowIsTheProgramsOwnTrapNotLibdispatchs() async {
        let record = await run("overflow")
        #expect(record.ending == .silentTrap(.pageCode(image: "RunnerFixture")))
        #expect(stderrLines(record) == [], "an overflow prints nothing: only the crash report tells it from a dispatch trap")
        #expect(record.marks.map(\.name) == ["about to overflow"])
    }

    @Test(arguments: ["deep-recursion", "deep-recursion-worker"])
    func aDeepRecursionIsAStackOverflow(scenario: String) async {
        let record = await run(scenario)
        #expect(record.ending == .stackOverflow(signal: SIGSEGV))
        #expect(record.marks.count == 1, "the mark before the recursion was flushed by the handler on its alternate stack")
    }

    @Test func stuckNamesTheOpenSpan() async throws {
        let record = await run("stuck", stuckAfter: 0.3)
        let stall = try #require(record.ending?.stall, "ended \(String(describing: record.ending)), not stuck")
        #expect(stall.openSpans == ["waiting forever (main)"], "named by its lane, as the rest of the host names threads")
        #expect(stall.unfinishedOperations == [])
        #expect(stall.dependencyCycle == [])
        #expect(stall.silentSeconds >= 0.3)
        // The span is kept, open, in the record.
        #expect(record.spans(named: "waiting forever").map(\.end) == [nil])
    }

    @Test func stuckOperationNamesTheOperation() async throws {
        let record = await run("stuck-operation", stuckAfter: 0.3)
        let stall = try #require(record.ending?.stall, "ended \(String(describing: record.ending)), not stuck")
        #expect(stall.unfinishedOperations == ["never-finishes"])
        #expect(stall.openSpans == ["wait for all operations (main)"])
        #expect(record.ending?.headline.hasSuffix("in never-finishes, wait for all operations (main)") == true)
        #expect(record.operations.map(\.name) == ["never-finishes"])
        #expect(record.operations.first?.changes.map(\.state) == [.executing])
    }

    @Test func floodIsCountedInFullAndKeptWithinTheLimits() async {
        var limits = RunRecord.Limits()
        limits.outputLines = 1_000
        let record = await run("flood", limits: limits)
        #expect(record.ending == .exited(code: 0))
        #expect(record.output.count + record.droppedOutputLines == 200_000)
        #expect(record.output.count >= limits.outputLines)
        #expect(record.output.count <= limits.outputLines + limits.outputLines / 10)
        // The lines kept are the newest, in order, with none missing.
        let firstKept = 200_000 - record.output.count
        #expect(record.outputText == (firstKept..<200_000).map { "flood \($0)" })
        #expect(record.output.allSatisfy { $0.stream == .stdout })
        // started + 200,000 lines + ended; the flood bypasses LessonKit, so there is no hello.
        #expect(record.eventCount == 200_002)
    }

    @Test func traceFloodFromFourThreadsArrivesWhole() async throws {
        let total = 100_000
        let check = FloodCheck(workers: 4)
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: Self.product),
                       extraEnvironment: ["FIXTURE": "trace-flood", "EVENTS": String(total)]),
            handler: check.handle
        )
        #expect(await run.ended() == .exited(code: 0))
        let result = check.result
        #expect(result.problems == [])
        #expect(result.rejected == [])
        #expect(result.marks == total)
        #expect(result.perWorker == [25_000, 25_000, 25_000, 25_000])
        #expect(result.longMarks == 4 * (0..<25_000).filter { $0 % 97 == 0 }.count)
        #expect(Set(result.threadOfWorker.values).count == 4)
    }

    @Test func badTraceLinesAreRejectedCountedAndSkipped() async throws {
        let log = EventLog()
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: Self.product), extraEnvironment: ["FIXTURE": "bad-trace"]),
            handler: log.handle
        )
        #expect(await run.ended() == .exited(code: 0))
        let record = log.recorder.record
        let header = #"{"e":"mark","t":1,"tid":1,"q":""#
        #expect(log.rejections == [
            TraceLineParser.Failure.malformed("expected '{'", offset: 0).description,
            TraceLineParser.Failure.notUTF8.description,
            TraceLineParser.Failure.malformed("nested objects and arrays are not part of the format",
                                              offset: (header + #"","name":"#).utf8.count).description,
            TraceLineParser.Failure.missingField("t").description,
            TraceLineParser.Failure.oversized(bytes: 102_400).description,
        ])
        #expect(record.rejectedTraceLines == 5)
        #expect(record.lastRejection == TraceLineParser.Failure.oversized(bytes: 102_400).description)
        #expect(record.marks.map(\.name) == ["after bad lines"])
        #expect(record.knobs.map(\.name) == ["size"])
        #expect(record.outputText == ["bad-trace done"])
        // No bad line leaked into the record as a thread of its own.
        #expect(record.threads.count == 1)
    }

    @Test func closingTheTraceChannelEndsNormallyWithItsOutput() async {
        // What LessonKit sent just before the close may or may not have left its buffer; only the end and the
        // output are certain.
        let record = await run("close-trace")
        #expect(record.ending == .exited(code: 0))
        #expect(record.outputText == ["after closing the trace channel", "still here"])
        #expect(record.rejectedTraceLines == 0)
    }

    @Test func aForkedChildHoldingThePipesDoesNotHoldTheRun() async throws {
        let record = await run("fork")
        #expect(record.ending == .exited(code: 0))
        let pid = try #require(record.pid)
        let mark = try #require(record.marks.first { $0.name.hasPrefix("forked ") })
        let child = try #require(pid_t(mark.name.dropFirst("forked ".count)))
        #expect(child > 0)
        #expect(await groupIsGone(pid))
        #expect(processIsGone(child))
    }

    /// `dependency-chain`: a 200,000-long chain of dependencies behind an executing operation, then silence. The
    /// watchdog's cycle search once recursed along it and overflowed the stack of its thread, killing the host.
    @Test func aLongDependencyChainEndsStuckWithABoundedExplanationAndTheHostLivesOn() async throws {
        let record = await run("dependency-chain", stuckAfter: 1)
        let stall = try #require(record.ending?.stall, "expected the watchdog to stop the page, got \(String(describing: record.ending))")
        #expect(stall.unfinishedOperations == ["chain 0"])
        #expect(record.dependencies.count == record.limits.dependencies)
        #expect(record.drops.dependencies == 200_000 - record.limits.dependencies)
        let ending = try #require(record.ending)
        #expect(ending.headline == "stuck: no progress for \(String(format: "%.1f", stall.silentSeconds)) s in chain 0")
        #expect(ending.explanation.contains("Operations that started and never finished: chain 0."))
        // What plain mode and the interface say of the dropped ones, each a sentence of its own.
        #expect(record.dropNotes().contains("180,000 dependencies beyond the cap of 20,000 were dropped"))
        #expect(record.dropNotes().allSatisfy { $0.count <= 600 }, "\(record.dropNotes().map(\.count).max() ?? 0) characters in one note")
        // The host is still here, and runs the next page as usual.
        #expect(await run("clean").ending == .exited(code: 0))
    }

    @Test func anOverlongStdoutLineIsCutWithANote() async {
        let record = await run("long-line")
        #expect(record.ending == .exited(code: 0))
        #expect(record.outputText == [String(repeating: "L", count: 65_536) + " … [line of 1048576 bytes cut to 65536]"])
    }

    @Test func stopEndsAPageThatIgnoresSIGTERM() async throws {
        let log = EventLog(signalWhen: Self.isMark("ignoring SIGTERM"))
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: Self.product), stuckAfter: 300, silentLimit: 300,
                       extraEnvironment: ["FIXTURE": "ignore-term"]),
            handler: log.handle
        )
        // Only once SIGTERM is ignored does the stop prove anything: SIGKILL after the grace period must end it.
        try #require(await log.awaitedEventArrived())
        run.stop()
        #expect(await run.ended() == .stopped)
        #expect(log.recorder.record.ending == .stopped)
        #expect(processIsGone(run.pid))
    }

    @Test func stopEndsAStuckPageAsStopped() async throws {
        let log = EventLog(signalWhen: { event in
            if case .trace(let trace) = event, case .begin(_, "waiting forever", _) = trace.kind { return true }
            return false
        })
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: Self.product), stuckAfter: 300, silentLimit: 300,
                       extraEnvironment: ["FIXTURE": "stuck"]),
            handler: log.handle
        )
        try #require(await log.awaitedEventArrived())
        #expect(run.ending == nil)
        run.stop()
        #expect(await run.ended() == .stopped)
        // Stopping again after the end changes nothing.
        run.stop()
        #expect(await run.ended() == .stopped)
        #expect(log.recorder.record.spans(named: "waiting forever").map(\.end) == [nil])
    }

    @Test func stoppingARunLeavesNoProcessBehind() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pids").path

        let log = EventLog(signalWhen: Self.isMark("pid file written"))
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: Self.product), stuckAfter: 300, silentLimit: 300,
                       extraEnvironment: ["FIXTURE": "pid-file", "PID_FILE": pidFile]),
            handler: log.handle
        )
        // The page writes the file (by rename, so it is whole) before it sends the mark this waits for.
        try #require(await log.awaitedEventArrived())
        let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(pids.count == 2)
        #expect(pids[0] == run.pid)
        #expect(kill(pids[0], 0) == 0)
        #expect(kill(pids[1], 0) == 0)

        run.stop()
        #expect(await run.ended() == .stopped)
        #expect(processIsGone(pids[0]))
        #expect(await groupIsGone(run.pid))
        #expect(processIsGone(pids[1]))
    }

    @Test func aMissingProgramFailsToStart() async {
        let log = EventLog()
        let run = PageRun.start(RunRequest(executable: "/nonexistent/RunnerFixture"), handler: log.handle)
        let ending = await run.ended()
        #expect(ending == .failedToStart("/nonexistent/RunnerFixture is missing or not executable; build it with `swift build`"))
        #expect(log.recorder.record.ending == ending)
        #expect(run.pid == 0)
        // Stopping a run that never started must not signal process group 0, which is the test's own.
        run.stop()
    }

    static func isMark(_ name: String) -> @Sendable (HostEvent) -> Bool {
        { event in
            if case .trace(let trace) = event { return trace.kind == .mark(name: name) }
            return false
        }
    }
}

/// Collects a run into a record, keeps every rejection's reason, and signals once an awaited event arrives.
private final class EventLog: @unchecked Sendable {
    let recorder = RunRecorder()
    private let lock = NSLock()
    private var storedRejections: [String] = []
    private let awaited: @Sendable (HostEvent) -> Bool
    private var signalled = false
    private let arrived = Occurrences()

    init(signalWhen awaited: @escaping @Sendable (HostEvent) -> Bool = { _ in false }) {
        self.awaited = awaited
    }

    var rejections: [String] { lock.withLock { storedRejections } }

    func handle(_ event: HostEvent) {
        recorder.apply(event)
        let signal = lock.withLock { () -> Bool in
            if case .rejectedTraceLine(let reason, _) = event { storedRejections.append(reason) }
            guard !signalled, awaited(event) else { return false }
            signalled = true
            return true
        }
        if signal { arrived.signal() }
    }

    /// Waits for the awaited event; false if it did not come within a generous bound.
    func awaitedEventArrived(timeout: Double = 30) async -> Bool {
        await arrived.next(timeout: timeout)
    }
}

/// Checks every mark of the trace flood as it arrives: "tf <worker> <index> <length> <payload>", each worker's
/// indices in order, the payload exactly `length` copies of its letter, one thread per worker.
/// A torn or interleaved line would either be rejected or break one of these rules.
private final class FloodCheck: @unchecked Sendable {
    struct Result: Equatable {
        var marks = 0
        var longMarks = 0
        var perWorker: [Int]
        var threadOfWorker: [Int: Int32] = [:]
        var rejected: [String] = []
        var problems: [String] = []
    }

    private let lock = NSLock()
    private var state: Result

    init(workers: Int) {
        state = Result(perWorker: Array(repeating: 0, count: workers))
    }

    var result: Result { lock.withLock { state } }

    func handle(_ event: HostEvent) {
        lock.withLock {
            switch event {
            case .rejectedTraceLine(let reason, _):
                state.rejected.append(reason)
            case .trace(let trace):
                if case .mark(let name) = trace.kind { check(name, thread: trace.thread) }
            default:
                break
            }
        }
    }

    private func problem(_ text: String) {
        if state.problems.count < 10 { state.problems.append(text) }
    }

    private func check(_ name: String, thread: Int32) {
        state.marks += 1
        let parts = name.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "tf", let worker = Int(parts[1]), let index = Int(parts[2]), let length = Int(parts[3]),
              state.perWorker.indices.contains(worker) else {
            return problem("unexpected mark \(name.prefix(60))")
        }
        if index != state.perWorker[worker] {
            problem("worker \(worker) sent \(index) after \(state.perWorker[worker] - 1)")
        }
        state.perWorker[worker] = index + 1
        let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8((worker + index) % 26)))
        let payload = parts[4]
        // How many of its bytes are the letter, counted by `strspn`: walked in this unoptimised test code, by
        // characters or by bytes, the payloads were most of the test's CPU.
        let lettered = String(payload).withCString { strspn($0, String(letter)) }
        if payload.utf8.count != length || lettered != length {
            problem("worker \(worker) event \(index): payload of \(payload.utf8.count) bytes, expected \(length) × \(letter)")
        }
        if length > 4_096 { state.longMarks += 1 }
        if let known = state.threadOfWorker[worker], known != thread {
            problem("worker \(worker) moved from thread \(known) to \(thread)")
        }
        state.threadOfWorker[worker] = thread
    }
}
