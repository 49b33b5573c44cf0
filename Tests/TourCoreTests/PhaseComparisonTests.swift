import Testing
import PageProtocol
import TourCore
import TourTestSupport

/// The phases a page marks, and what the trace says of each: threads, hand-offs, hops and what a hop cost.
@Suite("Phase comparison", .bodiesBelowTheRunner)
struct PhaseComparisonTests {
    @Test func aRecordKeepsEachPhaseWithItsStartAndEnd() async throws {
        let record = try TraceFixture.record(TraceFixture.threePhases)
        #expect(record.phases.map(\.name) == ["operations", "GCD", "task group"])
        let ms: (Int) -> UInt64 = { TraceFixture.start + UInt64($0) * 1_000_000 }
        #expect(record.phases.map(\.start) == [ms(0), ms(300), ms(500)])
        #expect(record.phases.map(\.end) == [ms(200), ms(450), ms(620)])
    }

    @Test func aSpanKnowsTheThreadItEndedOn() async throws {
        let record = try TraceFixture.record(TraceFixture.threePhases)
        let download = try #require(record.firstSpan(named: "task group: download a"))
        #expect(download.thread == 104 && download.endThread == 105)
        #expect(record.firstSpan(named: "GCD: download a")?.endThread == 101)
    }

    @Test func eachPhaseCountsItsThreadsHopsAndTheirMedianCost() async throws {
        let summaries = try TraceFixture.record(TraceFixture.threePhases).phaseSummaries()
        try #require(summaries.count == 3)
        #expect(summaries.map { $0.work.count } == [4, 4, 4])
        #expect(summaries.map { $0.handOffs.count } == [2, 2, 2])
        #expect(summaries.map(\.threads) == [[101, 102, 103], [101, 102], [104, 105]], "the timer's thread 106 ran only hand-offs")
        #expect(summaries.map { $0.hops.map(\.name) } == [["hand-off a"], ["hand-off b"], ["hand-off a", "hand-off b"]])
        let medians = summaries.map { $0.medianHopSeconds.map { ($0 * 1e4).rounded() / 10 } }
        #expect(medians == [4, 30, 2.5], "milliseconds")
        #expect(summaries.map { $0.headline(length: $0.seconds ?? 0) } == [
            "operations  200.0 ms  3 threads  1 of 2 hand-offs hopped, median 4.0 ms",
            "GCD  150.0 ms  2 threads  1 of 2 hand-offs hopped, median 30.0 ms",
            "task group  120.0 ms  2 threads  2 of 2 hand-offs hopped, median 2.5 ms",
        ])
    }

    @Test func aPhaseStillRunningHoldsWhatBeganSinceItsStart() async throws {
        let lines = [TraceFixture.line("phase", at: 0, #""name":"only","phase":"start""#)]
            + TraceFixture.span(1, "step", from: 10, to: 20, thread: 101)
            + TraceFixture.span(2, "hand-off x", from: 20, to: nil, thread: 101)
        var record = RunRecord()
        record.apply(.started(pid: TraceFixture.pid, time: TraceFixture.start))
        for line in lines { record.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get())) }
        let summary = try #require(record.phaseSummaries().first)
        #expect(summary.phase.end == nil && summary.seconds == nil)
        #expect(summary.work.map(\.name) == ["step"] && summary.handOffs.map(\.name) == ["hand-off x"])
        #expect(summary.hops.isEmpty, "a hand-off not yet taken has not hopped")
        #expect(summary.headline(length: 0.05) == "only  50.0 ms so far  1 thread  0 of 1 hand-off hopped")
    }

    @Test func phasesBeyondTheCapAreDroppedAndSaidSo() async throws {
        var limits = RunRecord.Limits()
        limits.phases = 1
        var record = RunRecord(limits: limits)
        record.apply(.started(pid: TraceFixture.pid, time: TraceFixture.start))
        for (offset, name) in ["a", "b", "c"].enumerated() {
            for phase in ["start", "end"] {
                let line = TraceFixture.line("phase", at: offset * 10 + (phase == "end" ? 5 : 0), #""name":"\#(name)","phase":"\#(phase)""#)
                record.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get()))
            }
        }
        #expect(record.phases.map(\.name) == ["a"])
        #expect(record.drops.phases == 2)
        #expect(record.dropNotes().contains { $0.hasPrefix("2 phases beyond the cap of 1 phases") })
    }
}
