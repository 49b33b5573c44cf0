import PageProtocol
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// A hostile page's run in the interface, fed as the runner delivers it: each event screened by the runner's own
/// record (`RunRecord.ingest`), then posted to the model. No process, no terminal.
@Suite("A hostile page in the interface", .bodiesBelowTheRunner)
struct HostilePageTests {
    /// The runner's fold, which turns made-up timestamps into rejected lines before the interface sees them.
    private struct Runner {
        var record = RunRecord(limits: .watchdog)
        var now = RunScript.start
        var delivered: [HostEvent] = []

        init() { deliver(.started(pid: RunScript.mainThread, time: now)) }

        mutating func deliver(_ event: HostEvent) {
            now += 1_000
            delivered.append(record.ingest(event, receivedAt: now))
        }

        mutating func trace(_ kind: EventKind, stamp: UInt64? = nil) {
            deliver(.trace(PageEvent(time: stamp ?? now + 1_000, thread: RunScript.mainThread, queue: "q", kind: kind)))
        }
    }

    @Test("A 200,000-long dependency chain and a far-future stamp: the run ends stuck, explained, with what was dropped")
    /// 200,000 events, twice: the loops yield now and then, leaving the cooperative pool's threads to the other tests.
    func dependencyChainAndAFarFutureStamp() async throws {
        var model = try FixturePages.model(width: 120, height: 40)
        var runner = Runner()
        runner.trace(.op(operation: "chain 0", oid: 0, state: .executing))
        for index in 0..<200_000 {
            if index % 10_000 == 0 { await Task.yield() }
            runner.trace(.dep(operation: "chain \(index)", oid: index, dependency: "chain \(index + 1)", onid: index + 1))
        }
        runner.trace(.mark(name: "from the future"), stamp: runner.now + 9_000_000_000_000_000_000)
        let effects = model.update(.key(.character("r")))
        let order = try #require(effects.last?.runOrder, "r started no run: \(effects)")
        for (index, event) in runner.delivered.enumerated() {
            if index % 10_000 == 0 { await Task.yield() }
            _ = model.update(.host(runID: order.runID, event))
        }
        _ = model.update(.tick(now: runner.now + 2_000_000_000))
        // Once a far-future event made this "running 8999997960 s".
        #expect(StatusLine.stateText(model).contains("running 2."), "\(StatusLine.stateText(model))")

        let silence = runner.now + 3_000_000_000
        let stall = try #require(runner.record.stall(at: silence, stuckAfter: 3, silentLimit: 15))
        _ = model.update(.host(runID: order.runID, .ended(.stuck(stall), time: silence)))
        let record = try #require(model.currentPage.record)
        #expect(record.rejectedTraceLines == 1)
        #expect(record.drops.dependencies == 180_000)
        // What the output pane holds after the run's lines, whatever part of it the pane has room to show.
        let entries = OutputEntries(page: model.currentPage, glyphs: model.glyphs)
        let texts = (0..<entries.count).map { entries[$0].text }
        #expect(texts.contains("180,000 dependencies beyond the cap of 20,000 were dropped"))
        #expect(texts.contains { $0.hasPrefix("1 trace lines could not be read and were skipped, the last: a timestamp") })
        #expect(texts.contains { $0.contains("stuck: no progress for 3.0 s in chain 0") })
        #expect(texts.contains { $0.contains("Operations that started and never finished: chain 0.") })
        #expect(texts.allSatisfy { $0.count < 1_200 })
        #expect(StatusLine.stateText(model).count < 200)
    }
}
