import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 6 proves what it teaches about dispatch queues from its own trace.
@Suite("Page 6: GCD", .bodiesBelowTheRunner)
struct GCDPageTests {
    static let speed = 10.0
    /// One run at a high speed factor serves the claims that do not need a knob.
    static let run = Task { await sharedRun(product: "Lesson06GCD", speed: speed) }

    /// The first output line that starts with `prefix`.
    static func line(startingWith prefix: String, in run: RunRecord) -> OutputLine? {
        run.output.first { $0.text.hasPrefix(prefix) }
    }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func blocksKnowTheLabelOfTheirQueue() async {
        let run = await Self.run.value
        #expect(run.outputText.contains("Inside a block on the worker, the current queue is tour.gcd.worker"))
        #expect(run.outputText.contains("Inside an operation, the current queue is tour.gcd.operations"))
        #expect(run.results.contains { $0.kind == .peek && $0.text == "com.apple.main-thread" })
    }

    @Test func asyncReturnedBeforeItsBlockBegan() async throws {
        let run = await Self.run.value
        let returned = try #require(run.marks.first { $0.name == "async returned" })
        let earlierJob = try #require(run.spans(named: "earlier job").first)
        let block = try #require(run.spans(named: "async block").first)
        #expect(returned.thread == run.pid)
        // The serial queue holds the block back until the half-second job ends, so this has a wide margin.
        #expect(returned.time < block.start)
        #expect(try #require(earlierJob.end) <= block.start, "a serial queue runs its blocks one after another")
    }

    @Test func syncWaitsAndRunsTheBlockOnTheCallingThread() async throws {
        let run = await Self.run.value
        let asyncBlock = try #require(run.spans(named: "async block").first)
        let syncBlock = try #require(run.spans(named: "sync block").first)
        let returned = try #require(run.marks.first { $0.name == "sync returned" })
        #expect(syncBlock.thread == run.pid, "libdispatch ran the sync block on the main thread that called sync")
        #expect(syncBlock.queue == "tour.gcd.worker")
        #expect(try #require(asyncBlock.end) <= syncBlock.start, "sync waited for what was queued before it")
        #expect(try #require(syncBlock.end) <= returned.time, "sync returned only once its block was done")
        // The prose leaves the thread to the prediction; the run answers it, in its own output.
        #expect(run.outputText.contains { $0.hasPrefix("The sync block runs on thread ") && $0.hasSuffix(
            "(the main thread: true), queue tour.gcd.worker: libdispatch handed the block to no worker thread; it ran it on the calling "
                + "thread, which waits in sync anyway, once the queue was free") }, "\(run.outputText)")
    }

    @Test func serialJobsNeverOverlapAndKeepTheirOrder() async throws {
        let run = await Self.run.value
        let serial = (1...4).compactMap { run.spans(named: "serial job \($0)").first }
        try #require(serial.count == 4)
        for (earlier, later) in zip(serial, serial.dropFirst()) {
            #expect(try #require(earlier.end) <= later.start, "\(later.name) began before \(earlier.name) ended")
        }
        #expect(Set(serial.map(\.queue)) == ["tour.gcd.worker"])
    }

    @Test(.enabled(if: coresOfThisProcess() >= 2, "the pool is as wide as the cores"))
    func concurrentJobsRunSideBySideAndFinishSooner() async throws {
        let run = await Self.run.value
        let serial = run.spans.filter { $0.name.hasPrefix("serial job ") }
        let concurrent = run.spans.filter { $0.name.hasPrefix("concurrent job ") }
        try #require(serial.count == 4 && concurrent.count == 4)
        let widest = try #require(run.mostAtOnce(concurrent)).count
        #expect(widest >= 2, "with at least two cores the concurrent queue ran jobs side by side")
        #expect(Set(concurrent.map(\.thread)).count >= 2)
        // Four jobs of 50 ms at speed 10: 200 ms one after another, about 100 ms two at a time.
        let serialWindow = try window(of: serial)
        let concurrentWindow = try window(of: concurrent)
        #expect(serialWindow >= 4 * 0.5 / Self.speed)
        #expect(concurrentWindow < serialWindow * 0.8)
    }

    @Test func qualityOfServicePicksARootQueueAndANiceValue() async throws {
        let run = await Self.run.value
        func survey(_ quality: String) throws -> (queue: String, nice: Int) {
            let line = try #require(Self.line(startingWith: "QoS \(quality): ", in: run))
            let parts = line.text.components(separatedBy: ", ")
            let queue = try #require(parts.first?.components(separatedBy: "queue ").last)
            let nice = try #require(parts.last.flatMap { Int($0.replacingOccurrences(of: "nice ", with: "")) })
            #expect(line.queue == queue, "the line was printed from the queue it names")
            return (queue, nice)
        }
        let background = try survey("background")
        let utility = try survey("utility")
        let standard = try survey("default")
        let initiated = try survey("userInitiated")
        let interactive = try survey("userInteractive")
        #expect(background.queue == "com.apple.root.background-qos")
        #expect(utility.queue == "com.apple.root.utility-qos")
        #expect(standard.queue == "com.apple.root.default-qos")
        #expect(initiated.queue == "com.apple.root.user-initiated-qos")
        #expect(interactive.queue == "com.apple.root.user-initiated-qos", "on Linux userInteractive shares the user-initiated queue")
        // A process already at the highest nice value (19) cannot go higher, so the comparison allows for it.
        #expect(background.nice > standard.nice || standard.nice == 19)
        #expect(utility.nice >= standard.nice)
        #expect(initiated.nice <= standard.nice)
    }

    @Test func aQueueOfYourOwnWithAQualityOfServiceRunsOnThatQualitysThreads() async throws {
        let run = await Self.run.value
        let own = try #require(Self.line(startingWith: "Own queue with QoS utility: ", in: run))
        let utility = try #require(Self.line(startingWith: "QoS utility: ", in: run))
        let standard = try #require(Self.line(startingWith: "QoS default: ", in: run))
        func nice(_ line: OutputLine) throws -> Int { try #require(line.text.components(separatedBy: "nice ").last.flatMap { Int($0) }) }
        #expect(own.queue == "tour.gcd.thumbnails")
        #expect(own.text.contains("queue tour.gcd.thumbnails,"))
        #expect(try nice(own) == nice(utility), "the own queue's block ran at the utility threads' nice value")
        #expect(try nice(own) > nice(standard) || nice(standard) == 19)
    }

    @Test func mainQueueWaitsForTheMainThreadThenRunsThere() async throws {
        let run = await Self.run.value
        let sent = try #require(run.marks.first { $0.name == "main-queue block sent" })
        let served = try #require(Self.line(startingWith: "Served by the run loop:", in: run))
        #expect(served.thread == run.pid, "under the run loop the main queue's block runs on the main thread")
        #expect(served.queue == "com.apple.main-thread")
        // The main thread was busy for 0.2 s (at speed 1) after sending the block; nothing ran it meanwhile.
        #expect(run.seconds(at: served.time) - run.seconds(at: sent.time) >= 0.2 / Self.speed)
        #expect(run.results.contains { $0.kind == .peek && $0.text == "false" })
    }

    @Test func dispatchMainTurnsTheMainQueueIntoOneServedByAPoolThread() async throws {
        let run = await Self.run.value
        let served = try #require(Self.line(startingWith: "Served by dispatchMain:", in: run))
        #expect(served.queue == "com.apple.main-thread")
        #expect(served.thread != run.pid, "dispatchMain() ends the main thread's work and a pool thread serves the main queue")
        #expect(served.text.contains("(Thread.isMainThread: false)"))
        // The detached main queue targets the default-QoS overcommit root queue, whose threads carry its label's last 15 characters.
        #expect(served.text.hasSuffix("thread name -qos.overcommit"))
    }

    @Test func theOriginalMainThreadIsParkedInSigsuspendNotGone() async throws {
        let run = await Self.run.value
        // On Linux dispatch_main() registers _dispatch_sig_thread as a thread-specific destructor before pthread_exit.
        let parked = try #require(Self.line(startingWith: "The original main thread ", in: run))
        #expect(parked.text == "The original main thread \(try #require(run.pid)) is still there: sleeping in sigsuspend")
    }

    @Test(arguments: [1, 7])
    func jobsKnobSetsTheBatchSize(count: Int) async throws {
        let speed = 20.0
        let run = await recordRun(product: "Lesson06GCD", knobs: [("jobs", "\(count)")], speed: speed)
        let serial = run.spans.filter { $0.name.hasPrefix("serial job ") }
        let concurrent = run.spans.filter { $0.name.hasPrefix("concurrent job ") }
        #expect(serial.count == count)
        #expect(concurrent.count == count)
        #expect(run.ending == .exited(code: 0))
        // What the callout promises: the serial queue takes one job's length per job, the concurrent one less once jobs outnumber one.
        let job = 0.5 / speed
        #expect(try window(of: serial) >= Double(count) * job * 0.99)
        if count > 1 && coresOfThisProcess() >= 2 {
            #expect(try window(of: concurrent) < window(of: serial) * 0.8)
        }
    }

    /// At `--speed 4` the page states each simulated wait as it lasts, and the measured times agree with what it states.
    @Test func atSpeedFourThePrintedTimesAreTheOnesThatHappened() async throws {
        let run = await recordRun(product: "Lesson06GCD", speed: 4)
        #expect(run.ending == .exited(code: 0))
        let batch = try #require(Self.line(startingWith: "4 jobs of ", in: run))
        #expect(batch.text.hasPrefix("4 jobs of 0.5 s at 1×, 125 ms at 4×: serial queue "))
        #expect(try #require(Self.line(startingWith: "A keystroke every ", in: run)).text
                == "A keystroke every 100 ms at 1×, 25 ms at 4×; each schedules its search for 300 ms at 1×, 75 ms at 4× later")
        // Four 125 ms jobs one after another: at least 0.5 s, and far from the 2 s the 1× figure would mean.
        let serialSeconds = try window(of: run.spans.filter { $0.name.hasPrefix("serial job ") })
        #expect(serialSeconds >= 4 * 0.125 * 0.99 && serialSeconds < 4 * 0.5 * 0.75, "the serial queue took \(serialSeconds) s")
        let search = try #require(run.spans(named: "search \"tour\"").first)
        let keystroke = try #require(run.marks.first { $0.name == "keystroke: tour" })
        let delay = run.seconds(at: search.start) - run.seconds(at: keystroke.time)
        #expect(delay >= 0.3 / 4 && delay < 0.3 * 0.75, "the search ran \(delay) s after its keystroke")
    }

    /// The searches scheduled with asyncAfter in one run, with what became of each.
    struct SearchOutcome {
        var query: String
        var keystroke: UInt64
        var nextKeystroke: UInt64?
        var ran: Span?
        var over: Mark?
    }

    static func searches(in run: RunRecord) throws -> [SearchOutcome] {
        let queries = ["t", "to", "tou", "tour"]
        let keystrokes = try queries.map { query in try #require(run.marks.first { $0.name == "keystroke: \(query)" }).time }
        return queries.indices.map { index in
            SearchOutcome(query: queries[index], keystroke: keystrokes[index],
                          nextKeystroke: index + 1 < keystrokes.count ? keystrokes[index + 1] : nil,
                          ran: run.spans(named: "search \"\(queries[index])\"").first,
                          over: run.marks.first { $0.name == "over: search \"\(queries[index])\"" })
        }
    }

    @Test func aSearchCancelledBeforeItWasDueNeverRunsYetStillReportsItselfOverWhenDue() async throws {
        let run = await Self.run.value
        let delay = UInt64(0.3 / Self.speed * 1e9)
        let searches = try Self.searches(in: run)
        // A keystroke cancels the search before it; whether that came before the search was due is read from the trace,
        // so a stalled main thread cannot make this test fail, only make it test fewer searches.
        let cancelledInTime = searches.filter { search in search.nextKeystroke.map { $0 < search.keystroke + delay } ?? false }
        try #require(!cancelledInTime.isEmpty, "no keystroke came before the previous search was due")
        for search in cancelledInTime {
            #expect(search.ran == nil, "the cancelled search for \"\(search.query)\" ran")
            let over = try #require(search.over, "the cancelled search for \"\(search.query)\" never reported itself over")
            #expect(over.time >= search.keystroke + delay, "notify came before the cancelled item was due")
            #expect(over.queue == "tour.gcd.worker")
        }
        let last = try #require(searches.last)
        let lastRun = try #require(last.ran, "the last search never ran")
        let lastEnd = try #require(lastRun.end)
        #expect(lastRun.start >= last.keystroke + delay, "asyncAfter ran the block before its deadline")
        #expect(try #require(last.over).time >= lastEnd, "notify came before the item was over")
        let waited = try #require(Self.line(startingWith: "wait() returned once the last search was over", in: run))
        #expect(waited.time >= lastEnd)
        #expect(waited.text.hasSuffix("cancelled: \"t\", \"to\", \"tou\""))
    }

    @Test func withoutCancellingEveryKeystrokesSearchRuns() async throws {
        let run = await recordRun(product: "Lesson06GCD", knobs: [("cancelEarlierSearches", "false")], speed: Self.speed)
        #expect(run.ending == .exited(code: 0))
        let searches = try Self.searches(in: run)
        let started = try searches.map { try #require($0.ran, "the search for \"\($0.query)\" did not run").start }
        #expect(started == started.sorted(), "the searches ran in the order they were due")
        #expect(run.outputText.filter { $0.hasPrefix("Searched for ") }.count == 4)
        #expect(run.outputText.contains("wait() returned once the last search was over; cancelled: none"))
    }

    @Test func syncOntoTheCurrentQueueIsTrappedByLibdispatch() async {
        let run = await recordRun(product: "Lesson06GCD", knobs: [("syncOntoCurrentQueue", "true")], speed: Self.speed)
        #expect(run.ending == .dispatchTrap)
        #expect(run.expectation?.ending == .crash)
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("deadlock") == true)
        #expect(run.outputText.contains("The outer block owns the worker queue and now calls worker.sync…"))
        #expect(!run.outputText.contains("This line never prints."))
        #expect(!run.outputText.contains { $0.hasPrefix("Done:") })
    }
}

/// Seconds from the first start to the last end of `spans`.
private func window(of spans: [Span]) throws -> Double {
    let start = try #require(spans.map(\.start).min())
    let end = try #require(spans.compactMap(\.end).max())
    return Double(end - start) / 1e9
}
