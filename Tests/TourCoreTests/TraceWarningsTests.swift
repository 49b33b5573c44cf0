import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Each warning from fixture runs that raise it and from near misses that must not, then from the small fault pages
/// made for them (Tests/Fixtures/WarningFaults), run as the tutorial runs a page.
@Suite("Trace warnings", .bodiesBelowTheRunner)
struct TraceWarningsTests {
    typealias F = TraceFixture
    static let worker: Int32 = 201

    /// A sample every 10 ms from `from` to `to` milliseconds, reading each thread's state with `state`.
    static func samples(from: Int, to: Int, threads: [Int32],
                        _ state: (Int32, Int) -> ThreadRunState) -> [(milliseconds: Int, readings: [ThreadStateReading])] {
        stride(from: from, through: to, by: 10).map { time in
            (time, threads.map { ThreadStateReading(thread: $0, state: state($0, time)) })
        }
    }

    // MARK: The main thread blocked

    @Test func theMainThreadWaitingInsideItsOwnSpanIsBlocked() async throws {
        let record = try F.record(F.span(1, "decode on main", from: 10, to: 400),
                                  samples: Self.samples(from: 10, to: 400, threads: [F.pid]) { _, _ in .waiting })
        let warnings = TraceWarnings.of(record, cores: 2)
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.kind == .mainThreadBlocked)
        #expect(warning.thread == F.pid)
        #expect(warning.time == F.start + 10_000_000)
        #expect(warning.sentence.hasPrefix("main was blocked for 390.0 ms inside decode on main from 0.01 s"))
        #expect(warning.expected == nil)
    }

    /// A run loop turning inside a span sends its timers' events (page 3's ticks every 100 ms at 1×, here every
    /// 80 ms); a main thread idle outside any span, or computing, is not blocked either.
    @Test func aMainThreadThatTicksIdlesOrComputesIsNotBlocked() async throws {
        let ticks = stride(from: 90, to: 400, by: 80).map { F.mark("tick", at: $0) }
        let turning = try F.record(F.span(1, "waitWhileRunLoopTurns", from: 10, to: 400) + ticks,
                                   samples: Self.samples(from: 10, to: 400, threads: [F.pid]) { _, _ in .waiting })
        #expect(TraceWarnings.of(turning, cores: 2).isEmpty)
        let idle = try F.record(F.span(1, "setup", from: 0, to: 5) + [F.mark("idle", at: 410)],
                                samples: Self.samples(from: 10, to: 400, threads: [F.pid]) { _, _ in .waiting })
        #expect(TraceWarnings.of(idle, cores: 2).isEmpty)
        let computing = try F.record(F.span(1, "decode on main", from: 10, to: 400),
                                     samples: Self.samples(from: 10, to: 400, threads: [F.pid]) { _, _ in .running })
        #expect(TraceWarnings.of(computing, cores: 2).isEmpty)
    }

    /// The same silence with a page that said it would hang is labelled as expected, with the page's reason.
    @Test func aPageThatExpectsToHangExpectsTheBlock() async throws {
        let expect = F.line("expect", at: 0, #""ending":"stuck","why":"the main thread waits for itself""#)
        let record = try F.record([expect] + F.span(1, "sync", from: 10, to: nil),
                                  samples: Self.samples(from: 10, to: 400, threads: [F.pid]) { _, _ in .waiting },
                                  endedAt: F.start + 401_000_000)
        let warnings = TraceWarnings.of(record, cores: 2)
        #expect(warnings.map(\.kind) == [.mainThreadBlocked, .neverFinished])
        #expect(warnings.allSatisfy { $0.expected == "the main thread waits for itself" })
    }

    // MARK: Oversubscription

    /// Three workers computing from 20 ms to 320 ms: more than two cores, not more than four.
    static func threeComputing(until end: Int = 320) throws -> RunRecord {
        let workers: [Int32] = [201, 202, 203]
        let spans = workers.enumerated().flatMap { F.span($0.offset + 1, "compute", from: 10, to: end + 10, thread: $0.element, queue: "pool") }
        return try F.record(spans, samples: Self.samples(from: 10, to: end + 10, threads: workers) { _, time in
            time >= 20 && time <= end ? .running : .waiting
        })
    }

    @Test func moreThreadsRunningThanCoresIsOversubscription() async throws {
        let record = try Self.threeComputing()
        let warning = try #require(TraceWarnings.of(record, cores: 2).first)
        #expect(warning.kind == .oversubscribed)
        #expect(warning.time == F.start + 20_000_000)
        #expect(warning.sentence.hasPrefix("3 threads were running on 2 cores for 310.0 ms from 0.02 s"))
        #expect(TraceWarnings.of(record, cores: 4).isEmpty, "three threads fit four cores")
        #expect(TraceWarnings.of(try Self.threeComputing(until: 110), cores: 2).isEmpty, "90 ms of turns, as a page's start has, is no warning")
        #expect(TraceWarnings.of(record, cores: nil).isEmpty, "without the cores there is nothing to judge")
    }

    /// Three threads runnable on two cores whose processor time says whether they had the cores among themselves
    /// (each 2/3 of every 10 ms: two cores' worth, taking turns) or waited for other programs (each 2.5 ms of every
    /// 10 ms: three quarters of a core in all).
    static func threeRunnable(usingEach share: UInt64) throws -> RunRecord {
        let workers: [Int32] = [201, 202, 203]
        let spans = workers.enumerated().flatMap { F.span($0.offset + 1, "compute", from: 10, to: 330, thread: $0.element, queue: "pool") }
        let samples = stride(from: 10, through: 330, by: 10).map { time in
            (time, workers.map { ThreadStateReading(thread: $0, state: .running, cpuNanoseconds: UInt64(time - 10) / 10 * share) })
        }
        return try F.record(spans, samples: samples)
    }

    @Test func threadsThatTakeTurnsKeepTheCoresBusyAndThreadsThatWaitForOtherProgramsDoNot() async throws {
        let turns = try Self.threeRunnable(usingEach: 6_666_667)
        let stretch = try #require(turns.threadStates[201]?.first)
        #expect(stretch.cpuNanoseconds == 32 * 6_666_667, "the stretch holds the processor time between its samples")
        let warning = try #require(TraceWarnings.of(turns, cores: 2).first)
        #expect(warning.kind == .oversubscribed)
        #expect(warning.sentence.hasPrefix("3 threads were running on 2 cores for 320.0 ms"))
        #expect(TraceWarnings.of(try Self.threeRunnable(usingEach: 2_500_000), cores: 2).isEmpty,
                "three quarters of a core in all: other programs had the cores")
        // Readings without processor time are judged by their states alone, as `moreThreadsRunningThanCoresIsOversubscription`'s.
        #expect(TraceWarnings.of(try Self.threeComputing(), cores: 2).map(\.kind) == [.oversubscribed])
    }

    /// One sample that catches a third thread as it wakes is not a stretch; page 2, which runs twice the cores on
    /// purpose, expects the real thing.
    @Test func aBlipIsNotOversubscriptionAndPageTwoExpectsIt() async throws {
        let workers: [Int32] = [201, 202, 203]
        let spans = workers.enumerated().flatMap { F.span($0.offset + 1, "compute", from: 10, to: 130, thread: $0.element) }
        let blip = try F.record(spans, samples: Self.samples(from: 10, to: 130, threads: workers) { thread, time in
            thread != 203 || time == 60 ? .running : .waiting
        })
        #expect(TraceWarnings.of(blip, cores: 2).isEmpty)
        let hello = F.line("hello", at: 0, #""v":1,"page":"Lesson02Queue","pid":100,"speed":1.0"#)
        let long = workers.enumerated().flatMap { F.span($0.offset + 1, "compute", from: 10, to: 330, thread: $0.element) }
        let pageTwo = try F.record([hello] + long, samples: Self.samples(from: 10, to: 330, threads: workers) { _, _ in .running })
        let warning = try #require(TraceWarnings.of(pageTwo, cores: 2).first)
        #expect(warning.kind == .oversubscribed)
        #expect(warning.expected == "the page runs a batch at twice the cores on purpose")
    }

    // MARK: Operations

    @Test func aDependentThatRanAfterItsDependencyWasCancelledIsWarnedOf() async throws {
        let lines = [
            F.dependency("filter", 2, on: "load", 1, at: 0),
            F.state("load", 1, "cancelled", at: 1),
            F.state("load", 1, "finished", at: 2, thread: Self.worker, queue: "fault"),
            F.state("filter", 2, "ready", at: 3, thread: Self.worker, queue: "fault"),
            F.state("filter", 2, "executing", at: 4, thread: Self.worker, queue: "fault"),
        ]
        let ran = try F.record(lines + [F.state("filter", 2, "finished", at: 9, thread: Self.worker, queue: "fault")])
        let warning = try #require(TraceWarnings.of(ran, cores: 2).first)
        #expect(warning.kind == .ranAfterCancelledDependency)
        #expect(warning.thread == Self.worker)
        #expect(warning.operation == 2)
        #expect(warning.sentence.hasPrefix("filter ran at 0.00 s although its dependency load was cancelled"))
        // Page 4's checking filter: it finds the cancelled dependency and cancels itself.
        let checked = try F.record(lines + [F.state("filter", 2, "cancelled", at: 5, thread: Self.worker, queue: "fault"),
                                            F.state("filter", 2, "finished", at: 6, thread: Self.worker, queue: "fault")])
        #expect(TraceWarnings.of(checked, cores: 2).isEmpty)
    }

    @Test func aDependencyCycleIsNamed() async throws {
        let record = try F.record([F.dependency("compress", 1, on: "upload", 2, at: 3), F.dependency("upload", 2, on: "compress", 1, at: 4)],
                                  ending: .exited(code: 0))
        let warning = try #require(TraceWarnings.of(record, cores: 2).first)
        #expect(warning.kind == .dependencyCycle)
        #expect(warning.time == F.start + 4_000_000, "when the cycle closed")
        #expect(warning.sentence == "a dependency cycle: compress → upload → compress; none of them can ever become ready")
    }

    @Test func workUnfinishedAtTheEndIsWarnedOfOnlyOnceTheRunEnded() async throws {
        let lines = [F.state("upload", 1, "executing", at: 50, thread: Self.worker, queue: "uploads")]
            + F.span(1, "wait", from: 60, to: nil)
        let ended = try F.record(lines)
        let warnings = TraceWarnings.of(ended, cores: 2)
        #expect(warnings.map(\.kind) == [.neverFinished, .neverFinished])
        #expect(warnings[0].sentence == "upload never finished: it was executing from 0.05 s to the end of the run at 0.06 s")
        #expect(warnings[1].sentence.hasPrefix("wait on main began at 0.06 s and never ended"))
        var running = RunRecord()
        running.apply(.started(pid: F.pid, time: F.start))
        for line in lines { running.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get())) }
        #expect(TraceWarnings.of(running, cores: 2).isEmpty, "while the run goes on, the work may still finish")
    }

    // MARK: The fault pages

    static func faultRun(_ fault: String, stuckAfter: Double = 3) async -> RunRecord {
        await recordRun(product: "WarningFaults", knobs: [("fault", fault)], stuckAfter: stuckAfter)
    }

    /// The fault page computes on twice the cores' threads for 0.3 s. The host's sampler reads each thread's processor
    /// time beside its state, and the warning follows what the threads got: raised when they kept the cores busy
    /// among themselves, not when other programs had the cores (as the suite's own runs may have). Between the two
    /// marks below the warning may go either way (it judges the stretch where more threads than cores were runnable,
    /// this test the spans' whole time), so only the readings are checked there.
    @Test func aRealOversubscriptionIsWarnedOfWhenItsThreadsHadTheCores() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let run = await Self.faultRun("oversubscribed")
        let computing = run.spans.filter { $0.name.hasPrefix("compute ") }
        try #require(computing.count == 2 * cores)
        let start = try #require(computing.map(\.start).min()), end = try #require(computing.compactMap(\.end).max())
        var used: UInt64 = 0
        for span in computing {
            let stretches = try #require(run.threadStates[span.thread], "the sampler saw thread \(span.thread)")
            for stretch in stretches where stretch.state == .running && stretch.start < end && stretch.end > start {
                used += try #require(stretch.cpuNanoseconds, "each reading carries the thread's processor time")
            }
        }
        let busyCores = Double(used) / Double(end - start)
        #expect(busyCores <= Double(cores) + 0.2, "no more than the cores can compute at once (sampled every 10 ms)")
        let warned = TraceWarnings.of(run, cores: cores).contains { $0.kind == .oversubscribed }
        // Below this, no quarter second inside the spans can have had the cores less the slack, whatever the spread.
        let seconds = Double(end - start) / 1e9
        let lowerMark = (Double(cores) - TraceWarnings.oversubscriptionSlack) * (Double(TraceWarnings.oversubscription) / 1e9) / seconds
        if busyCores >= Double(cores) - 0.25 {
            #expect(warned, "\(busyCores) cores busy")
        } else if busyCores < lowerMark {
            #expect(!warned, "\(busyCores) cores busy over \(seconds) s: other programs had the rest")
        }
        print(String(format: "oversubscribed fault page: %.2f cores busy, warned: \(warned)", busyCores))
    }

    @Test func theFaultPagesRaiseTheirWarnings() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Three runs that do not wait for one another start together.
        async let cancelledRun = Self.faultRun("cancelledDependency")
        async let cycleRun = Self.faultRun("dependencyCycle", stuckAfter: 1)
        async let forgetfulRun = Self.faultRun("neverFinished")
        let cancelled = await cancelledRun
        #expect(TraceWarnings.of(cancelled, cores: cores).map(\.kind) == [.ranAfterCancelledDependency])
        let cycle = await cycleRun
        let cycleWarnings = TraceWarnings.of(cycle, cores: cores)
        #expect(cycleWarnings.contains { $0.kind == .dependencyCycle && $0.expected == "compress and upload each wait for the other" })
        #expect(cycleWarnings.allSatisfy { $0.expected != nil }, "the page said it would hang: \(cycleWarnings.map(\.text))")
        let forgetful = await forgetfulRun
        let left = TraceWarnings.of(forgetful, cores: cores)
        #expect(left.map(\.kind) == [.neverFinished])
        #expect(left.first?.sentence.hasPrefix("forgetful upload never finished: it was executing") == true)
    }
}
