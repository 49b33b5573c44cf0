@preconcurrency import Glibc
import Foundation
import Synchronization
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport
import PageProtocol

/// The host's thread sampler (`ThreadSampler`): its reading of `/proc/.../stat`, the fold of its samples into
/// `RunRecord.threadStates`, the `cpu` of a span's `end` and the `queue` announcement, and one real run of a page
/// that sleeps and then computes.
@Suite("Thread states and CPU time", .bodiesBelowTheRunner, .timeLimit(.minutes(3)))
struct ThreadStateTests {
    private static let start: UInt64 = 5_000_000_000_000
    private static let pid: Int32 = 100
    private static let worker: Int32 = 101

    private func at(_ milliseconds: Int) -> UInt64 { Self.start + UInt64(milliseconds) * 1_000_000 }

    private func record(_ events: [HostEvent]) -> RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: Self.pid, time: Self.start))
        for event in events { record.apply(event) }
        return record
    }

    private func trace(_ kind: EventKind, at milliseconds: Int, thread: Int32 = pid) -> HostEvent {
        .trace(PageEvent(time: at(milliseconds), thread: thread, queue: "q", kind: kind))
    }

    // MARK: Reading a stat line

    @Test func theStateIsReadAfterTheLastParenthesisOfTheCommandName() async throws {
        #expect(ThreadStatLine.state(in: "4242 (tour) R 1 4242 4242 0 -1") == .running)
        #expect(ThreadStatLine.state(in: "4242 (oot.default-qos) S 1 4242") == .waiting)
        #expect(ThreadStatLine.state(in: "4242 (disk) D 1") == .waiting)
        #expect(ThreadStatLine.state(in: "4242 (stopped) t 1") == .waiting)
        // A thread may name itself anything, spaces and parentheses included: `a) R (b` sleeping reads as sleeping.
        #expect(ThreadStatLine.state(in: "4242 (a) R (b) S 1 4242") == .waiting)
        #expect(ThreadStatLine.state(in: "4242 (x (y) z) R 1") == .running)
        #expect(ThreadStatLine.state(in: "4242 ()) R 1") == .running)
    }

    @Test func deadThreadsAndGarbledLinesGiveNoState() async throws {
        #expect(ThreadStatLine.state(in: "4242 (gone) Z 1") == nil)
        #expect(ThreadStatLine.state(in: "4242 (gone) X 1") == nil)
        #expect(ThreadStatLine.state(in: "4242 (cut off") == nil)
        #expect(ThreadStatLine.state(in: "4242 (cut off)") == nil)
        #expect(ThreadStatLine.state(in: "4242 (cut off) ") == nil)
        #expect(ThreadStatLine.state(in: "4242 (odd)R 1") == nil)
        #expect(ThreadStatLine.state(in: "") == nil)
    }

    @Test func theThreadCountIsField20AfterTheLastParenthesis() async throws {
        let line = "1507 (cat) R 1428 1428 9233 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 17 0 4137588 3133440"
        #expect(ThreadStatLine.threadCount(in: line) == 17)
        #expect(ThreadStatLine.threadCount(in: "1507 (a) 1 2 (b) S 1428 1428 9233 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 3 0") == 3)
        #expect(ThreadStatLine.threadCount(in: "1507 (cat) R 1428 1428 9233 0 -1 4194304 100 0 0 0 0 0 0 0 20 0") == nil)
        #expect(ThreadStatLine.threadCount(in: "1507 (cat") == nil)
    }

    @Test func theProcessorTimeIsFields14And15InClockTicks() async throws {
        let tick = UInt64(1_000_000_000 / sysconf(Int32(_SC_CLK_TCK)))
        // utime 150 and stime 30 ticks.
        let line = "1507 (cat) R 1428 1428 9233 0 -1 4194304 100 0 0 0 150 30 0 0 20 0 17 0 4137588 3133440"
        #expect(ThreadStatLine.cpuNanoseconds(in: line) == 180 * tick)
        #expect(ThreadStatLine.cpuNanoseconds(in: "1507 (a) 7 8 (b) S 1428 1428 9233 0 -1 4194304 100 0 0 0 2 3 0 0") == 5 * tick)
        #expect(ThreadStatLine.cpuNanoseconds(in: "1507 (cat) R 1428 1428 9233 0 -1 4194304 100 0 0 0 150") == nil, "cut before stime")
        #expect(ThreadStatLine.cpuNanoseconds(in: "1507 (cat) R 1428 1428 9233 0 -1 4194304 100 0 0 0 x 30 0") == nil)
        // This thread's own line: it has run this test, so it has a processor time, and no more than the process's.
        let own = try String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)
        let cpu = try #require(ThreadStatLine.cpuNanoseconds(in: own))
        var process = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process)
        #expect(cpu <= UInt64(process.tv_sec) * 1_000_000_000 + UInt64(process.tv_nsec) + tick)
    }

    // MARK: The fold

    @Test func samplesOfAStateThatHoldsExtendOneStretchAndAChangeStartsTheNext() async throws {
        let samples: [(Int, ThreadRunState, ThreadRunState)] = [(10, .running, .waiting), (20, .running, .waiting),
                                                                 (30, .waiting, .waiting), (40, .waiting, .running)]
        var events = [trace(.mark(name: "worker seen"), at: 1, thread: Self.worker)]
        for (time, main, worker) in samples {
            events.append(.threadStates([ThreadStateReading(thread: Self.pid, state: main),
                                         ThreadStateReading(thread: Self.worker, state: worker),
                                         // A thread that never reached a lane: the page never traced from it.
                                         ThreadStateReading(thread: 999, state: .running)], time: at(time)))
        }
        let folded = record(events)
        #expect(folded.threadStates[Self.pid] == [ThreadStateStretch(state: .running, start: at(10), end: at(30)),
                                                  ThreadStateStretch(state: .waiting, start: at(30), end: at(40))])
        #expect(folded.threadStates[Self.worker] == [ThreadStateStretch(state: .waiting, start: at(10), end: at(40)),
                                                     ThreadStateStretch(state: .running, start: at(40), end: at(40))])
        #expect(folded.threadStates[999] == nil)
    }

    @Test func stretchesBeyondTheCapAreDroppedAndCountedButAHeldStateStillGrows() async throws {
        var limits = RunRecord.Limits()
        limits.threadStateStretches = 2
        var folded = RunRecord(limits: limits)
        folded.apply(.started(pid: Self.pid, time: Self.start))
        for (index, state) in [ThreadRunState.running, .waiting, .running, .running].enumerated() {
            folded.apply(.threadStates([ThreadStateReading(thread: Self.pid, state: state)], time: at(10 * (index + 1))))
        }
        #expect(folded.threadStates[Self.pid]?.count == 2)
        #expect(folded.drops.threadStateStretches == 2)
        #expect(folded.threadStates[Self.pid]?.last == ThreadStateStretch(state: .waiting, start: at(20), end: at(20)))
    }

    @Test func theHostsSamplesAreNoSignOfThePagesLife() async throws {
        // The runner's own record, as `PageRun` ingests events: a page stuck in a span while the sampler reads on.
        var watch = RunRecord(limits: .watchdog)
        watch.apply(.started(pid: Self.pid, time: Self.start))
        watch.ingest(trace(.begin(id: 1, name: "waiting forever"), at: 100), receivedAt: at(100))
        for tick in 1...40 {
            watch.ingest(.threadStates([ThreadStateReading(thread: Self.pid, state: .waiting)], time: at(100 + tick * 100)),
                         receivedAt: at(100 + tick * 100))
        }
        let stall = try #require(watch.stall(at: at(4_100), stuckAfter: 3, silentLimit: 15))
        #expect(stall.openSpans == ["waiting forever (main)"])
    }

    @Test func theEndsCPUTimeReachesTheSpan() async throws {
        let folded = record([
            trace(.begin(id: 1, name: "computing"), at: 0), trace(.end(id: 1, name: "computing", cpu: 95_000_000), at: 100),
            trace(.begin(id: 2, name: "no measure"), at: 100), trace(.end(id: 2, name: "no measure"), at: 200),
            trace(.begin(id: 3, name: "made up"), at: 200), trace(.end(id: 3, name: "made up", cpu: -5), at: 300),
        ])
        #expect(folded.spans.map(\.cpuNanoseconds) == [95_000_000, nil, nil])
    }

    @Test func aQueuesAnnouncedWidthIsKeptByNameAndTheLatestWins() async throws {
        let folded = record([
            trace(.queue(name: "photos", width: 2), at: 1), trace(.queue(name: "uploads", width: -1), at: 2),
            trace(.queue(name: "photos", width: 4), at: 3),
        ])
        #expect(folded.queueWidths == ["photos": 4, "uploads": -1])
        var limits = RunRecord.Limits()
        limits.queues = 1
        var capped = RunRecord(limits: limits)
        capped.apply(.started(pid: Self.pid, time: Self.start))
        capped.apply(trace(.queue(name: "a", width: 1), at: 1))
        capped.apply(trace(.queue(name: "b", width: 1), at: 2))
        #expect(capped.queueWidths == ["a": 1])
        #expect(capped.drops.queues == 1)
    }

    // MARK: The sampler

    @Test func theSamplerReadsThisProcessesThreadsAndHandsNothingOverOnceStopped() async throws {
        let stopped = Atomic<Bool>(false)
        let lateRounds = Atomic<Int>(0)
        let rounds = Mutex<[[ThreadStateReading]]>([])
        let enough = AsyncStream<Void>.makeStream()
        let sampler = ThreadSampler(pid: getpid()) { readings, _ in
            if stopped.load(ordering: .relaxed) { lateRounds.add(1, ordering: .relaxed) }
            let count = rounds.withLock { $0.append(readings); return $0.count }
            if count == 3 { enough.continuation.yield() }
        }
        for await _ in enough.stream { break }
        sampler.stop()
        stopped.store(true, ordering: .relaxed)
        let seen = rounds.withLock { $0 }
        // The sampler's own thread is reading its own stat: running, each round.
        #expect(seen.allSatisfy { round in round.contains { $0.state == .running } })
        #expect(seen.allSatisfy { round in round.contains { $0.thread == getpid() } })
        #expect(lateRounds.load(ordering: .relaxed) == 0)
    }

    /// The task folder is listed again only when a round says the threads changed: a thread begun after the sampler
    /// started must still be read (within 300 rounds of its beginning, however loaded the machine: a round that found
    /// it ends it). The rounds are counted from when the thread has begun, not from the sampler's start: in a busy
    /// suite the test itself may resume seconds after the sampler's third round.
    @Test func aThreadBegunWhileSamplingIsRead() async throws {
        let thread = Atomic<Int32>(0)
        let release = DispatchSemaphore(value: 0)
        let seen = AsyncStream<Bool>.makeStream()
        let rounds = Atomic<Int>(0)
        let roundsSinceItBegan = Atomic<Int>(0)
        let sampler = ThreadSampler(pid: getpid()) { readings, _ in
            let round = rounds.add(1, ordering: .relaxed).newValue
            let late = thread.load(ordering: .relaxed)
            if round == 3 { seen.continuation.yield(false) }
            guard late != 0 else { return }
            if readings.contains(where: { $0.thread == late }) { seen.continuation.yield(true) }
            if roundsSinceItBegan.add(1, ordering: .relaxed).newValue > 300 { seen.continuation.finish() }
        }
        var events = seen.stream.makeAsyncIterator()
        #expect(await events.next() == false, "three rounds before the thread begins")
        // A thread of its own that waits, so the test's threads never block.
        Thread {
            // `/proc/thread-self` links to `<pid>/task/<tid>`: the kernel's id of this thread.
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            thread.store(Int32(link.split(separator: "/").last ?? "") ?? -1, ordering: .relaxed)
            release.wait()
        }.start()
        var found = false
        while let event = await events.next() {
            if event { found = true; break }
        }
        sampler.stop()
        release.signal()
        #expect(found, "the thread begun while sampling was never read")
    }

    @Test func aSamplerOfAProcessThatIsGoneEndsAndStopReturns() async throws {
        let rounds = Atomic<Int>(0)
        // Pid 0 has no folder under /proc.
        let sampler = ThreadSampler(pid: 0) { _, _ in rounds.add(1, ordering: .relaxed) }
        sampler.stop()
        #expect(rounds.load(ordering: .relaxed) == 0)
    }

    // MARK: A real run

    /// `sleep-then-compute` in RunnerFixture: a span that sleeps 400 ms, then one that computes for 400 ms.
    @Test func aSleepingSpanWaitsAndAComputingSpanComputesByItsCPUTimeAndItsStates() async throws {
        let record = await recordRun(product: "RunnerFixture", environment: ["FIXTURE": "sleep-then-compute"])
        #expect(record.ending == .exited(code: 0))
        let sleeping = try #require(record.spans(named: "sleeping").first)
        let computing = try #require(record.spans(named: "computing").first)
        let sleepingWall = Double(try #require(sleeping.end) - sleeping.start)
        let computingWall = Double(try #require(computing.end) - computing.start)
        let sleepingCPU = Double(try #require(sleeping.cpuNanoseconds))
        let computingCPU = Double(try #require(computing.cpuNanoseconds))
        #expect(sleepingCPU < 0.1 * sleepingWall, "the sleeping span used \(sleepingCPU) ns of CPU in \(sleepingWall) ns")
        // On a loaded machine a computing thread also waits for a core; the kernel says how long (schedstat), and
        // that time is no part of what the thread did.
        let line = try #require(record.outputText.first { $0.hasPrefix("computing waited ") })
        let waited = Double(try #require(line.split(separator: " ").dropFirst(2).first.flatMap { UInt64($0) }))
        #expect(computingCPU > 0.7 * max(1, computingWall - waited),
                "the computing span used \(computingCPU) ns of CPU in \(computingWall) ns, \(waited) ns of it waiting for a core")
        // The sampler agrees: the main thread mostly waited through the first span and mostly ran through the second.
        let stretches = try #require(record.threadStates[record.pid ?? 0])
        #expect(runningShare(of: stretches, from: sleeping.start, to: sleeping.end!) < 0.5)
        #expect(runningShare(of: stretches, from: computing.start, to: computing.end!) > 0.5)
    }

    /// The share of the sampled time in `from…to` the thread spent running.
    private func runningShare(of stretches: [ThreadStateStretch], from: UInt64, to: UInt64) -> Double {
        var running: UInt64 = 0, sampled: UInt64 = 0
        for stretch in stretches {
            let start = max(stretch.start, from), end = min(stretch.end, to)
            guard end > start else { continue }
            sampled += end - start
            if stretch.state == .running { running += end - start }
        }
        return sampled == 0 ? .nan : Double(running) / Double(sampled)
    }
}
