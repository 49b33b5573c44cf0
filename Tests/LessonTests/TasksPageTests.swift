import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 9 proves what it teaches about tasks from its own trace: each test reads the events of a real run.
@Suite("Page 9: Tasks", .bodiesBelowTheRunner)
struct TasksPageTests {
    static let speed = 5.0
    /// One run with the default knobs serves every claim but the crash.
    static let run = Task { await recordRun(product: "Lesson09Tasks", speed: speed) }
    /// The run that resumes a continuation twice, and crashes as announced.
    static let resumedTwice = Task { await recordRun(product: "Lesson09Tasks", knobs: [("resumeTwice", "true")], speed: speed) }

    static let taskCount = 8
    static let jobSeconds = 0.5
    /// How many tasks the global executor runs at once: the runtime sets its queue's width to -3,
    /// `DISPATCH_QUEUE_WIDTH_MAX_LOGICAL_CPUS`, which libdispatch on Linux reads as `sysconf(_SC_NPROCESSORS_CONF)`.
    static let taskWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))
    /// The run whose Dispatch blocks compute, so the pool adds no thread and the task waits for a block to end.
    static let computingBlocks = Task { await recordRun(product: "Lesson09Tasks", knobs: [("gcdBlocksCompute", "true")], speed: speed) }

    static func span(_ name: String, in run: RunRecord) throws -> (span: Span, end: UInt64) {
        let span = try #require(run.spans(named: name).first, "no span named \(name)")
        return (span, try #require(span.end, "\(name) never ended"))
    }

    static func mark(_ name: String, in run: RunRecord) throws -> Mark {
        try #require(run.marks.first { $0.name == name }, "no mark named \(name)")
    }

    static func line(startingWith prefix: String, in run: RunRecord) throws -> OutputLine {
        try #require(run.output.first { $0.text.hasPrefix(prefix) }, "no line starting with \(prefix)")
    }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    // MARK: - From callbacks to await

    @Test func topLevelCodeLeavesTheMainThreadAtItsFirstAwaitButStaysOnTheMainActor() async throws {
        let run = await Self.run.value
        let before = try Self.line(startingWith: "Before the first await", in: run)
        let after = try Self.line(startingWith: "After the first await", in: run)
        #expect(before.thread == run.pid, "top-level code begins on the main thread")
        #expect(before.text.hasSuffix("the main thread: true"))
        #expect(after.thread != run.pid, "after the first await a pool thread serves the main actor")
        #expect(after.queue == "com.apple.main-thread")
        #expect(after.text.hasSuffix("the main thread: false"))
    }

    @Test func theCallbackAndTheAwaitVersionFilterTheSamePhoto() async throws {
        let run = await Self.run.value
        let line = try Self.line(startingWith: "Filtered with callbacks: ", in: run)
        let sizes = line.text.dropFirst("Filtered with callbacks: ".count).components(separatedBy: "; with await: ")
        #expect(sizes.count == 2 && sizes[0] == sizes[1] && sizes[0] != "nothing", "\(line.text)")
        #expect(run.spans(named: "tilt-shift coffee").count == 2)
    }

    @Test func theMainActorTicksWhileItAwaitsAndNeverWhileItBlocks() async throws {
        let run = await Self.run.value
        let awaiting = try Self.span("awaiting a download", in: run)
        let blocking = try Self.span("blocking the main actor", in: run)
        let ticks = run.marks.filter { $0.name == "tick" }
        let whileAwaiting = ticks.filter { $0.time > awaiting.span.start && $0.time < awaiting.end }
        let whileBlocking = ticks.filter { $0.time > blocking.span.start && $0.time < blocking.end }
        #expect(whileAwaiting.count >= 2, "the ticking task ran while the page awaited: \(whileAwaiting.count) ticks")
        #expect(whileBlocking.isEmpty, "a main-actor task cannot run while the main actor blocks")
        #expect(ticks.allSatisfy { $0.queue == "com.apple.main-thread" })
        #expect(run.outputText.contains("The ticker ticked \(ticks.count) times in all; the timeline shows where"))
    }

    // MARK: - Task {} and Task.detached

    @Test func taskInheritsTheMainActorAndTaskLocalsAndDetachedDoesNot() async throws {
        let run = await Self.run.value
        let inheriting = try Self.span("Task {} body", in: run).span
        let detached = try Self.span("Task.detached body", in: run).span
        #expect(inheriting.queue == "com.apple.main-thread")
        #expect(detached.queue == "Swift global concurrent queue")
        #expect(run.outputText.contains("Task {} sees Request.id = request 42, on com.apple.main-thread"))
        #expect(run.outputText.contains("Task.detached sees Request.id = none, on Swift global concurrent queue"))
    }

    // MARK: - The global executor

    @Test func blockingTasksRunAQueuesWidthAtATimeAndTakeThatManyRounds() async throws {
        let run = await Self.run.value
        let jobs = run.spans.filter { $0.name.hasPrefix("usleep task ") }
        try #require(jobs.count == Self.taskCount)
        let widest = try #require(run.mostAtOnce(jobs)).count
        #expect(widest <= Self.taskWidth, "the queue never ran more than its width: \(widest)")
        #expect(widest == min(Self.taskWidth, Self.taskCount), "the queue is as wide as the cores: \(widest)")
        #expect(jobs.allSatisfy { $0.queue == "Swift global concurrent queue" })
        let rounds = (Self.taskCount + Self.taskWidth - 1) / Self.taskWidth
        // From the trace's order: no more than the width at once, so some job waited for others to end, rounds deep.
        #expect(jobs.rounds >= rounds, "\(jobs.rounds) jobs ran one after another, not \(rounds) rounds")
        #expect(run.outputText.contains("The tasks' queue here is \(Self.taskWidth) wide (sysconf(_SC_NPROCESSORS_CONF)), so \(Self.taskCount) blocking tasks take \(rounds) rounds"))
        let line = try Self.line(startingWith: "\(Self.taskCount) tasks blocking in usleep", in: run)
        #expect(line.text.contains(", at most \(widest) at once, on \(Set(jobs.map(\.thread)).count) threads"), "\(line.text)")
    }

    @Test func suspendedTasksHoldNoThreadSoMoreThanTheQueuesWidthWaitAtOnce() async throws {
        let run = await Self.run.value
        let jobs = run.spans.filter { $0.name.hasPrefix("Task.sleep task ") }
        try #require(jobs.count == Self.taskCount)
        let widest = try #require(run.mostAtOnce(jobs)).count
        #expect(widest > Self.taskWidth, "\(widest) suspended tasks waited at once on a queue \(Self.taskWidth) wide")
        let line = try Self.line(startingWith: "\(Self.taskCount) tasks suspended in Task.sleep", in: run)
        #expect(line.text.hasSuffix(", at most \(widest) at once"), "\(line.text)")
    }

    // MARK: - One pool for tasks and Dispatch

    /// The Dispatch blocks that fill the pool, the task started behind them, and the line the page printed about it.
    static func blocksAndTheTaskBehindThem(in run: RunRecord) throws
        -> (blocks: [(span: Span, end: UInt64)], task: Span, created: Mark, line: String) {
        let blocks = try run.spans.filter { $0.name.hasPrefix("Dispatch block ") }.map { block in
            (block, try #require(block.end, "\(block.name) never ended"))
        }
        let line = try Self.line(startingWith: "\(blocks.count) Dispatch block", in: run).text
        return (blocks, try Self.span("task behind the Dispatch blocks", in: run).span,
                try Self.mark("Task.detached behind the blocks", in: run), line)
    }

    @Test func dispatchBlocksRunOnTheThreadsThatRanTheTasksAndFillThePoolBeforeTheTaskStarts() async throws {
        let run = await Self.run.value
        let (blocks, task, created, _) = try Self.blocksAndTheTaskBehindThem(in: run)
        try #require(!blocks.isEmpty, "the page sent no Dispatch block")
        #expect(blocks.allSatisfy { $0.span.queue == "com.apple.root.default-qos" })
        #expect(task.queue == "Swift global concurrent queue")
        #expect(blocks.allSatisfy { $0.span.start <= created.time }, "every block was running before the task was made")
        #expect(blocks.allSatisfy { $0.end > created.time }, "and none had ended")
        let taskThreads = Set(run.spans.filter { $0.queue == "Swift global concurrent queue" && $0.start < created.time }.map(\.thread))
        #expect(blocks.allSatisfy { taskThreads.contains($0.span.thread) },
                "the blocks ran on threads that had run tasks: \(blocks.map(\.span.thread)) against \(taskThreads.sorted())")
    }

    /// Whether the pool's once-a-second check or the end of a block comes first varies; either way the task started
    /// only when a thread came to it, and the page names which.
    @Test func aTaskBehindBlockingDispatchBlocksStartsOnlyWhenABlockEndsOrThePoolGrows() async throws {
        let run = await Self.run.value
        let (blocks, task, created, line) = try Self.blocksAndTheTaskBehindThem(in: run)
        #expect(task.start > created.time)
        if let freed = blocks.first(where: { $0.span.thread == task.thread }) {
            #expect(task.start >= freed.end, "the task ran on a block's thread only after that block ended")
            #expect(line.hasSuffix("and ran on the thread a block freed"), "\(line)")
        } else {
            let earlier = run.spans.filter { $0.thread == task.thread && $0.start < task.start }.count
                + run.marks.filter { $0.thread == task.thread && $0.time < task.start }.count
            #expect(earlier == 0, "a thread the pool added has done nothing before the task: \(earlier) earlier events")
            #expect(line.hasSuffix("and ran on a thread the pool added"), "\(line)")
            #expect(blocks.allSatisfy { $0.span.thread != task.thread })
        }
        #expect(line.hasPrefix("\(blocks.count) Dispatch block\(blocks.count == 1 ? "" : "s") blocked for "), "\(line)")
    }

    @Test func aTaskBehindComputingDispatchBlocksWaitsForABlockToEndAndTakesItsThread() async throws {
        let run = await Self.computingBlocks.value
        #expect(run.ending == .exited(code: 0))
        let (blocks, task, _, line) = try Self.blocksAndTheTaskBehindThem(in: run)
        let firstEnd = try #require(blocks.map(\.end).min())
        #expect(task.start >= firstEnd, "no thread came to the task before a block ended")
        let freed = try #require(blocks.first { $0.span.thread == task.thread }, "the task ran on the thread of a block")
        #expect(task.start >= freed.end)
        #expect(line.hasPrefix("\(blocks.count) Dispatch block\(blocks.count == 1 ? "" : "s") computing for "), "\(line)")
        #expect(line.hasSuffix("and ran on the thread a block freed"), "\(line)")
    }

    // MARK: - Thread hops

    /// Which thread a resumption gets is the scheduler's choice, and the page says so ("may"): on a loaded machine a
    /// run once handed all twelve back to the threads they had left. A run with no hop is followed by up to two more,
    /// and one of the three must show one; every run must count what its own trace shows.
    @Test func aTaskResumesOnAnotherThreadAndThePageCountsWhatTheTraceShows() async throws {
        var run = await Self.run.value
        var hopCounts: [Int] = []
        while true {
            var resumptions = 0
            var hops = 0
            for task in 1...4 {
                let steps = (1...4).compactMap { step in run.spans(named: "task \(task), step \(step)").first }
                try #require(steps.count == 4, "task \(task) ran every step")
                #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.start < $1.start })
                resumptions += steps.count - 1
                hops += zip(steps, steps.dropFirst()).filter { $0.thread != $1.thread }.count
            }
            #expect(run.outputText.contains("In this run \(hops) of \(resumptions) resumptions came back on another thread than the step before"))
            hopCounts.append(hops)
            if hops >= 1 || hopCounts.count == 3 { break }
            run = await recordRun(product: "Lesson09Tasks", speed: Self.speed, urgency: .followUp)
        }
        #expect(hopCounts.last! >= 1, "no resumption changed threads in \(hopCounts.count) runs")
    }

    // MARK: - Cancellation

    @Test func aCancelledTaskRunsItsChunkToTheEndAndStopsAtItsNextCheck() async throws {
        let run = await Self.run.value
        let cancel = try Self.mark("cancel() the chunked task", in: run)
        let third = try Self.span("chunk 3", in: run)
        #expect(third.span.start < cancel.time && third.end > cancel.time, "cancel() arrived while chunk 3 ran, and did not cut it short")
        let saw = try Self.mark("saw Task.isCancelled before chunk 4", in: run)
        #expect(saw.time >= third.end)
        #expect(run.spans.filter { $0.name.hasPrefix("chunk ") }.map(\.name) == ["chunk 1", "chunk 2", "chunk 3"])
        #expect(run.outputText.contains("The chunked task did 3 of 6 chunks"))
    }

    @Test func aCancelledTaskSleepEndsAtOnceWithCancellationError() async throws {
        let run = await Self.run.value
        let cancel = try Self.mark("cancel() the sleeper", in: run)
        let sleep = try Self.span("Task.sleep for 10 s", in: run)
        #expect(sleep.span.start < cancel.time && cancel.time <= sleep.end, "cancelled while it slept")
        // A share of its own length, not a time: a loaded machine may wake the cancelled task late, but not by the
        // whole of the 2 s it had left to sleep.
        #expect(Double(sleep.end - sleep.span.start) / 1e9 < 10 / Self.speed, "the sleep ended before its time")
        #expect(try Self.mark("CancellationError", in: run).time >= sleep.end)
        #expect(run.outputText.contains("The sleeping task stopped by CancellationError"))
    }

    @Test func aCancelledTaskAwaitingAContinuationWaitsUntilItIsResumed() async throws {
        let run = await Self.run.value
        let wait = try Self.span("awaiting a continuation", in: run)
        let cancel = try Self.mark("cancel() the continuation's task", in: run)
        let open = try Self.mark("open() its gate", in: run)
        #expect(wait.span.start < cancel.time && cancel.time < open.time, "cancelled while it waited, resumed after")
        #expect(wait.end >= open.time, "the cancel did not end the wait; the open did")
        #expect(run.outputText.contains("The task awaiting a continuation waited until it was resumed; Task.isCancelled then: true"))
    }

    // MARK: - Continuations

    @Test func aContinuationResumedByTheCallbackReturnsItsValue() async throws {
        let run = await Self.run.value
        let awaited = try Self.span("await photoSize(named: rocket)", in: run)
        let download = try #require(run.spans(named: "network load rocket").first)
        let downloadEnd = try #require(download.end)
        #expect(download.start >= awaited.span.start && downloadEnd <= awaited.end, "the await lasted as long as the download")
        #expect(run.outputText.contains { $0.hasPrefix("The rocket photo, through a continuation: ") && !$0.hasSuffix("not found") })
    }

    @Test func aContinuationNeverResumedWarnsOnStandardErrorAndItsTaskNeverEnds() async throws {
        let run = await Self.run.value
        let warning = "SWIFT TASK CONTINUATION MISUSE: photoSizeFromTheForgetfulService(named:) leaked its continuation without resuming it. This may cause tasks waiting on it to remain suspended forever."
        let line = try #require(run.output.first { $0.stream == .stderr && $0.text == warning }, "\(run.output.filter { $0.stream == .stderr }.map(\.text))")
        let done = try Self.line(startingWith: "Done:", in: run)
        #expect(line.time < done.time, "the warning came when the continuation went, before the page ended")
        #expect(run.outputText.contains("The task that awaited the unicorn has ended: false"))
    }

    @Test func aContinuationResumedTwiceCrashesWithTheRuntimesMessage() async throws {
        let run = await Self.resumedTwice.value
        #expect(run.ending?.isCrash == true)
        #expect(run.endedAsExpected, "the page announced the crash")
        _ = try Self.mark("retina: answering a second time", in: run)
        let errors = run.output.filter { $0.stream == .stderr }.map(\.text)
        let message = "_Concurrency/CheckedContinuation.swift:169: Fatal error: SWIFT TASK CONTINUATION MISUSE: photoSizeFromTheBuggyService(named:) tried to resume its continuation more than once, returning Optional(\""
        #expect(errors.contains { $0.hasPrefix(message) && $0.hasSuffix("\")!") }, "\(errors.prefix(5))")
    }
}
