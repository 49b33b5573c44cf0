import ExerciseJudging
import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 14 proves what it teaches about a dry pool from its own trace: each test reads the events of a real run.
@Suite("Page 14: When the pool runs dry", .bodiesBelowTheRunner)
struct StarvationPageTests {
    static let product = "Lesson14Starvation"
    static let speed = 2.0
    /// One run with the default knobs serves every claim but the experiments'.
    static let run = Task { await recordRun(product: product, speed: speed) }
    /// The answer sent by a task, which never runs: stuck, as announced.
    static let answeredByATask = Task { await recordRun(product: product, knobs: [("answeredBy", "task")], speed: speed, asleep: true) }
    /// Twice the default jobs, each on a serial queue of its own.
    static let moreJobs = Task { await recordRun(product: product, knobs: [("jobs", "16")], speed: speed) }
    /// The blocking blocks on `DispatchQueue.global()`.
    static let onTheGlobalQueue = Task { await recordRun(product: product, knobs: [("gcdQueue", "global")], speed: speed) }

    static let jobs = 8
    /// The width of the tasks' queue, read where the Swift runtime reads it on Linux.
    static let queueWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))

    static func span(_ name: String, in run: RunRecord) throws -> (span: Span, end: UInt64) {
        let span = try #require(run.spans(named: name).first, "no span named \(name)")
        return (span, try #require(span.end, "\(name) never ended"))
    }

    static func mark(_ name: String, in run: RunRecord) throws -> Mark {
        try #require(run.marks.first { $0.name == name }, "no mark named \(name)")
    }

    static func line(startingWith prefix: String, in run: RunRecord) throws -> String {
        try #require(run.outputText.first { $0.hasPrefix(prefix) }, "no line starting with \(prefix)")
    }

    /// The whole numbers in `text`, in order (a minus sign kept).
    static func numbers(in text: String) -> [Int] {
        text.matches(of: /-?\d+(?:\.\d+)?/).compactMap { Double($0.output).map { Int($0) } }
    }

    /// "the process had A threads before and at most B while they ran", read from the batch's printed line.
    static func threadCounts(_ batch: String, in run: RunRecord) throws -> (before: Int, most: Int) {
        let text = try line(startingWith: batch, in: run)
        let match = try #require(text.firstMatch(of: /the process had (\d+) threads before and at most (\d+) while they ran/), "\(text)")
        return (try #require(Int(match.1)), try #require(Int(match.2)))
    }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    // MARK: - Every slot blocked

    @Test func theBlockedTasksHoldEverySlotOfTheQueueAndTheDispatchBlockWaitsForTheMonitor() async throws {
        let run = await Self.run.value
        let waits = run.spans.filter { $0.name.hasSuffix(" waits on the semaphore") }
        try #require(waits.count == Self.queueWidth)
        #expect(waits.allSatisfy { $0.queue == "Swift global concurrent queue" })
        #expect(try #require(run.mostAtOnce(waits)).count == Self.queueWidth, "every slot blocked at once")
        let blockedThreads = Set(waits.map(\.thread))
        #expect(blockedThreads.count == Self.queueWidth)

        // The blocks that hold the pool's other threads: any on a thread the pool had, the last on one it added.
        let holders = run.spans.filter { $0.name.hasPrefix("block ") && $0.name.contains(" holds a thread the pool ") }
            .sorted { $0.start < $1.start }
        let lastHolder = try #require(holders.last, "no block held a pool thread")
        #expect(lastHolder.name.hasSuffix(" holds a thread the pool added"), "\(holders.map(\.name))")
        #expect(holders.allSatisfy { $0.queue == "com.apple.root.default-qos" })
        let heldThreads = blockedThreads.union(holders.map(\.thread))
        #expect(heldThreads.count == Self.queueWidth + holders.count, "each task and block held a thread of its own")

        let queued = try Self.mark("answer queued on DispatchQueue.global()", in: run)
        let answer = try Self.span("Dispatch block answers", in: run)
        #expect(waits.allSatisfy { $0.start < queued.time }, "the answer was queued once every task had blocked")
        #expect(holders.allSatisfy { $0.start < queued.time }, "and once every block that holds a thread ran")
        #expect(!heldThreads.contains(answer.span.thread), "the block ran on a thread of its own")
        #expect(answer.span.queue == "com.apple.root.default-qos")
        // Not scaled by the speed factor: the answer was queued just after the monitor's look that added the last
        // holder's thread, and the next look comes a second later.
        let waited = Double(answer.span.start - queued.time) / 1e9
        #expect(waited > 0.25, "the block waited \(waited) s for a thread")
        #expect(waits.allSatisfy { ($0.end ?? 0) >= answer.span.start }, "the tasks were blocked until the block ran")
        #expect(holders.allSatisfy { ($0.end ?? 0) >= answer.span.start }, "so were the holding blocks")

        let printed = try Self.line(startingWith: "The Dispatch block ran after ", in: run)
        let counts = try #require(printed.firstMatch(of: /on a thread the pool added: the pool had (\d+) threads when it was queued and (\d+) when it ran/), "\(printed)")
        let poolWhenQueued = try #require(Int(counts.1))
        #expect(poolWhenQueued == heldThreads.count, "every thread of the pool was held when the answer was queued: \(printed)")
        #expect(try #require(Int(counts.2)) > poolWhenQueued, "the pool grew a thread for the block: \(printed)")
        let holdersLine = try Self.line(startingWith: "Blocks that hold the pool's other threads: ", in: run)
        #expect(holdersLine.matches(of: #/block \d+ ran after /#).count == holders.count, "\(holdersLine)")
        #expect(holdersLine.hasSuffix(" on a thread the pool added"), "\(holdersLine)")
        #expect(run.outputText.contains("\(Self.queueWidth) tasks (the queue's width, sysconf(_SC_NPROCESSORS_CONF)) blocked on a semaphore until the answer came"))
    }

    @Test func aHighPriorityTaskRunsAtOnceOnAPoolOfItsOwnWhileTheSlotsAreBlocked() async throws {
        let run = await Self.run.value
        let ran = try Self.mark("a high-priority task runs on the r-initiated-qos pool", in: run)
        let waits = run.spans.filter { $0.name.hasSuffix(" waits on the semaphore") }
        try #require(!waits.isEmpty)
        #expect(waits.allSatisfy { $0.start < ran.time && ($0.end ?? .max) > ran.time }, "it ran while every slot was blocked")
        #expect(!waits.map(\.thread).contains(ran.thread))
        #expect(ran.queue == "Swift global concurrent queue", "the high-priority queue bears the same label")
    }

    /// The experiment `answeredBy`: the answering task needs a slot, gets none, and the watchdog names the blocked tasks.
    @Test func anAnswerFromATaskNeverComesAndTheWatchdogNamesTheBlockedTasks() async throws {
        let run = await Self.answeredByATask.value
        let stall = try #require(run.ending?.stall, "expected the run to be stuck, got \(String(describing: run.ending))")
        #expect(run.expectation?.ending == .stuck)
        #expect(run.endedAsExpected)
        for number in 1...Self.queueWidth {
            #expect(stall.openSpans.contains { $0.hasPrefix("task \(number) waits on the semaphore (") }, "\(stall.openSpans)")
        }
        _ = try Self.mark("answer queued as a task", in: run)
        #expect(run.spans(named: "task answers").isEmpty && run.openSpans(named: "task answers").isEmpty, "the answering task never ran")
        #expect(run.ending?.explanation.contains("task 1 waits on the semaphore") == true)
    }

    // MARK: - The fix

    @Test func tasksThatSuspendWaitMoreThanTheQueueIsWideAndEachEndsWithItsAnswer() async throws {
        let run = await Self.run.value
        let count = Self.queueWidth * 4
        let awaits = run.spans.filter { $0.name.hasSuffix(" awaits its answer") }
        try #require(awaits.count == count)
        #expect(try #require(run.mostAtOnce(awaits)).count > Self.queueWidth, "a suspended task holds no slot")
        for number in 1...count {
            let wait = try Self.span("task \(number) awaits its answer", in: run)
            let sent = try Self.mark("answer \(number) sent", in: run)
            #expect(sent.time >= wait.span.start && sent.time <= wait.end, "task \(number) waited until its answer came")
            #expect(sent.queue == "Swift global concurrent queue", "the answer came from a task")
        }
        #expect(run.outputText.contains { $0.hasPrefix("\(count) tasks awaited answers from tasks of their own priority: all answered in ") })
    }

    // MARK: - Thread explosion

    @Test func blockingGCDBlocksMakeAThreadEachAndTasksThatAwaitMakeNone() async throws {
        let run = await Self.run.value
        try Self.expectOneThreadPerBlock(run, jobs: Self.jobs)
    }

    /// The experiment `jobs`: twice the jobs, twice the threads for the blocks, none more for the tasks.
    @Test func moreJobsMeanMoreThreadsForTheBlocksOnly() async throws {
        let run = await Self.moreJobs.value
        try Self.expectOneThreadPerBlock(run, jobs: 16)
        let fewer = try Self.threadCounts("\(Self.jobs) GCD blocks that block", in: await Self.run.value)
        let more = try Self.threadCounts("16 GCD blocks that block", in: run)
        #expect(more.most - more.before > fewer.most - fewer.before, "\(more) against \(fewer)")
    }

    static func expectOneThreadPerBlock(_ run: RunRecord, jobs: Int) throws {
        let tasks = try threadCounts("\(jobs) tasks that await", in: run)
        #expect(tasks.most <= tasks.before, "the tasks that await added no thread: \(tasks)")
        let awaiting = run.spans.filter { $0.name.hasPrefix("job ") && $0.name.hasSuffix(" awaits") }
        try #require(awaiting.count == jobs)
        #expect(try #require(run.mostAtOnce(awaiting)).count == jobs, "every task awaited at once")

        let blocks = try threadCounts("\(jobs) GCD blocks that block", in: run)
        let blocking = run.spans.filter { $0.name.hasPrefix("block ") && $0.name.hasSuffix(" blocks") }
        try #require(blocking.count == jobs)
        #expect(try #require(run.mostAtOnce(blocking)).count == jobs, "every block ran at once")
        #expect(Set(blocking.map(\.thread)).count == jobs, "a thread for each block")
        #expect(blocks.most >= jobs && blocks.most - blocks.before > queueWidth, "the process grew past the cores: \(blocks)")
        let sampled = run.marks.compactMap { mark -> Int? in
            guard mark.name.hasSuffix(" threads") else { return nil }
            return Int(mark.name.dropLast(" threads".count))
        }
        #expect(sampled.max() == blocks.most, "the printed count is the most a job read in /proc")
        #expect(run.outputText.contains { $0.hasPrefix("\(jobs) GCD blocks that block, on a serial queue each: ") && $0.contains(", at most \(jobs) at once;") })
    }

    /// The experiment `gcdQueue`: on `DispatchQueue.global()` fewer blocks run at once and the batch takes longer.
    @Test func onTheGlobalQueueFewerBlocksRunAtOnceAndTheBatchTakesLonger() async throws {
        let run = await Self.onTheGlobalQueue.value
        let blocking = run.spans.filter { $0.name.hasPrefix("block ") && $0.name.hasSuffix(" blocks") }
        try #require(blocking.count == Self.jobs)
        let atOnce = try #require(run.mostAtOnce(blocking)).count
        #expect(atOnce < Self.jobs, "the default-QoS pool did not give each block a thread: \(atOnce)")
        #expect(blocking.allSatisfy { $0.queue == "com.apple.root.default-qos" })
        let global = try Self.span("\(Self.jobs) GCD blocks that block", in: run)
        let serial = try Self.span("\(Self.jobs) GCD blocks that block", in: await Self.run.value)
        let ratio = Double(global.end - global.span.start) / Double(serial.end - serial.span.start)
        #expect(ratio > 1.2, "the global queue's batch took \(ratio) times as long")
        #expect(run.outputText.contains { $0.hasPrefix("\(Self.jobs) GCD blocks that block, on DispatchQueue.global(): ") && $0.contains(", at most \(atOnce) at once;") })
    }

    // MARK: - Priority

    @Test func escalationRaisesTheReportedPriorityAtOnceAndTheThreadOnlyAfterASuspension() async throws {
        let run = await Self.run.value
        let before = Self.numbers(in: try Self.line(startingWith: "Before the await: ", in: run))
        let running = Self.numbers(in: try Self.line(startingWith: "Escalated while running: ", in: run))
        let after = Self.numbers(in: try Self.line(startingWith: "After one suspension: ", in: run))
        // Task.currentPriority, Task.basePriority, thread, nice.
        #expect(before.count == 4 && running.count == 4 && after.count == 4)
        #expect(before == [9, 9, before[2], 10], "a background task on a background thread at nice 10: \(before)")
        #expect(running == [25, 9, before[2], 10], "escalated, on the same thread, still at nice 10: \(running)")
        #expect(after[0] == 25 && after[1] == 9 && after[2] != before[2] && after[3] == -2, "\(after)")
        #expect(try Self.line(startingWith: "Before the await: ", in: run).contains("of the .background-qos pool"))
        #expect(try Self.line(startingWith: "After one suspension: ", in: run).contains("of the r-initiated-qos pool"))

        let escalated = try Self.mark("escalated from 9 to 25", in: run)
        let work = try Self.span("background work until escalated", in: run)
        #expect(escalated.time >= work.span.start && escalated.time <= work.end, "the handler ran while the task worked")
        #expect(escalated.thread != work.span.thread, "the handler ran on the awaiting task's thread")
        #expect(work.span.thread == Int32(before[2]))
    }

    // MARK: - The prediction

    @Test func thePredictionIsGradedFromThePagesOwnRun() async {
        let prediction = PageExercises.starvation.prediction
        #expect(prediction.observe(await Self.run.value).rightChoice == "b")
        #expect(prediction.observe(await Self.answeredByATask.value).rightChoice == "c")
    }
}
