import Testing
import TourCore
import TourTestSupport

/// The edit loop both `tour watch` and the interface drive: change → stop the old run → rebuild → rerun.
@Suite("Rebuild cycle", .bodiesBelowTheRunner)
struct RebuildCycleTests {
    @Test("A change during a run stops it and builds; a build done before the run's end waits for it, so two runs never overlap")
    func changeDuringRun() throws {
        var cycle = RebuildCycle()
        #expect(cycle.changeSeen(buildID: 1, runIsLive: true) == [.stopRun, .startBuild(id: 1)])
        #expect(cycle.buildInFlight == 1)
        #expect(cycle.buildFinished(id: 1, succeeded: true, runIsLive: true) == [])
        #expect(cycle.state == .awaitingRunEnd)
        #expect(cycle.runEnded() == [.startRun])
        #expect(cycle.state == .idle)
        #expect(cycle.runEnded() == [], "a second end starts nothing")
    }

    @Test("A build that ends after the old run did starts the new run at once")
    func buildAfterRunEnded() throws {
        var cycle = RebuildCycle()
        _ = cycle.changeSeen(buildID: 1, runIsLive: true)
        #expect(cycle.runEnded() == [])
        #expect(cycle.buildFinished(id: 1, succeeded: true, runIsLive: false) == [.startRun])
    }

    @Test("A second change cancels the first build; the cancelled build's end is not the cycle's and is ignored")
    func burstOfChanges() throws {
        var cycle = RebuildCycle()
        _ = cycle.changeSeen(buildID: 1, runIsLive: false)
        #expect(cycle.changeSeen(buildID: 2, runIsLive: false) == [.cancelBuild(id: 1), .startBuild(id: 2)])
        #expect(cycle.buildFinished(id: 1, succeeded: true, runIsLive: false) == nil)
        #expect(cycle.buildFinished(id: 2, succeeded: true, runIsLive: false) == [.startRun])
    }

    @Test("A failed build starts nothing, now or when the old run ends")
    func failedBuild() throws {
        var cycle = RebuildCycle()
        _ = cycle.changeSeen(buildID: 1, runIsLive: true)
        #expect(cycle.buildFinished(id: 1, succeeded: false, runIsLive: true) == [])
        #expect(cycle.runEnded() == [])
        #expect(cycle.state == .idle)
    }

    @Test("A lost source stops the run and the build; a build without rerun, once asked to run, reruns")
    func lostSourceAndRunWhenBuilt() throws {
        var cycle = RebuildCycle()
        _ = cycle.changeSeen(buildID: 1, runIsLive: true)
        #expect(cycle.sourceLost(runIsLive: true) == [.stopRun, .cancelBuild(id: 1)])
        #expect(cycle.buildFinished(id: 1, succeeded: true, runIsLive: false) == nil)
        let waitedForNothing = cycle.runWhenBuilt()
        #expect(!waitedForNothing, "nothing is building")
        #expect(cycle.build(buildID: 2, thenRun: false) == [.startBuild(id: 2)])
        let waits = cycle.runWhenBuilt()
        #expect(waits)
        #expect(cycle.buildFinished(id: 2, succeeded: true, runIsLive: false) == [.startRun])
    }

    @Test("Cancelling forgets a rerun waiting for the old run's end")
    func cancelForgetsRerun() throws {
        var cycle = RebuildCycle()
        _ = cycle.changeSeen(buildID: 1, runIsLive: true)
        _ = cycle.buildFinished(id: 1, succeeded: true, runIsLive: true)
        #expect(cycle.cancel() == [])
        #expect(cycle.runEnded() == [])
    }
}
