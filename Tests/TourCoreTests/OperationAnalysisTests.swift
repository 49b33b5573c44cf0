import Testing
import TourCore
import TourTestSupport

/// Operation lives, what each waited for and the critical path, from fixture runs whose dependencies are known.
@Suite("Operation analysis", .bodiesBelowTheRunner)
struct OperationAnalysisTests {
    static let loader: Int32 = 201
    static let filterer: Int32 = 202

    /// Page 4's first chain, load → tilt-shift → show, on the queue "images", then a lone operation that ends earlier.
    static func coffeeChain() throws -> RunRecord {
        typealias F = TraceFixture
        return try F.record([
            F.dependency("tilt-shift coffee", 2, on: "load coffee", 1, at: 1),
            F.dependency("show coffee", 3, on: "tilt-shift coffee", 2, at: 1),
            F.state("load coffee", 1, "executing", at: 5, thread: loader, queue: "images"),
            F.state("tidy up", 4, "ready", at: 6, thread: filterer, queue: "images"),
            F.state("tidy up", 4, "executing", at: 7, thread: filterer, queue: "images"),
            F.state("tidy up", 4, "finished", at: 9, thread: filterer, queue: "images"),
            F.state("load coffee", 1, "finished", at: 505, thread: loader, queue: "images"),
            F.state("tilt-shift coffee", 2, "ready", at: 506, thread: loader, queue: "images"),
            F.state("tilt-shift coffee", 2, "executing", at: 507, thread: filterer, queue: "images"),
            F.state("tilt-shift coffee", 2, "finished", at: 547, thread: filterer, queue: "images"),
            F.state("show coffee", 3, "ready", at: 548, thread: filterer, queue: "images"),
            F.state("show coffee", 3, "executing", at: 548, thread: filterer, queue: "images"),
            F.state("show coffee", 3, "finished", at: 550, thread: filterer, queue: "images"),
        ])
    }

    @Test func eachOperationHasItsStatesInOrder() async throws {
        let analysis = OperationAnalysis(try Self.coffeeChain())
        #expect(analysis.lives.map(\.operation.name) == ["load coffee", "tidy up", "tilt-shift coffee", "show coffee"])
        let filter = try #require(analysis.life(of: 2))
        // Pending from the dependency added at 1 ms, ready at 506, executing at 507, finished at 547.
        #expect(filter.created == TraceFixture.start + 1_000_000)
        #expect(filter.ready == TraceFixture.start + 506_000_000)
        #expect(filter.executing == TraceFixture.start + 507_000_000)
        #expect(filter.finished == TraceFixture.start + 547_000_000)
        #expect(filter.cancelled == nil)
        #expect(analysis.dependencyNames(of: filter) == ["load coffee"])
    }

    @Test func aDependentNamesTheDependencyItWaitedFor() async throws {
        let analysis = OperationAnalysis(try Self.coffeeChain())
        let filter = try #require(analysis.life(of: 2))
        #expect(filter.wait.dependency?.id == 1)
        #expect(filter.wait.dependency?.nanoseconds == 504_000_000)
        #expect(filter.wait.slot == nil, "1 ms from ready to executing is no wait for a slot")
        #expect(filter.wait.sentence == "waited 504.0 ms for load coffee")
        #expect(try #require(analysis.life(of: 3)).wait.sentence == "waited 546.0 ms for tilt-shift coffee")
        #expect(try #require(analysis.life(of: 4)).wait.sentence == nil, "tidy up depended on nothing and started at once")
    }

    @Test func theCriticalPathIsTheChainThatEndedLast() async throws {
        let analysis = OperationAnalysis(try Self.coffeeChain())
        #expect(analysis.criticalPath == [1, 2, 3])
        #expect(analysis.lives.filter(\.onCriticalPath).map(\.operation.id) == [1, 2, 3])
    }

    /// A comparison waits for three dependencies; the one that finished last gated it, and it then waited for the
    /// queue, which ran one at a time, to free its slot.
    @Test func fanInNamesTheLastDependencyThenTheWaitForASlot() async throws {
        typealias F = TraceFixture
        let record = try F.record([
            F.dependency("compare", 9, on: "load", 1, at: 0),
            F.dependency("compare", 9, on: "blur", 2, at: 0),
            F.dependency("compare", 9, on: "tilt-shift", 3, at: 0),
            F.dependency("tilt-shift", 3, on: "load", 1, at: 0),
            F.dependency("blur", 2, on: "load", 1, at: 0),
            F.state("load", 1, "executing", at: 1, thread: Self.loader, queue: "network"),
            F.state("load", 1, "finished", at: 100, thread: Self.loader, queue: "network"),
            F.state("tilt-shift", 3, "executing", at: 101, thread: Self.filterer, queue: "filters"),
            F.state("blur", 2, "executing", at: 101, thread: Self.loader, queue: "filters"),
            F.state("blur", 2, "finished", at: 180, thread: Self.loader, queue: "filters"),
            F.state("sharpen", 8, "executing", at: 200, thread: Self.loader, queue: "filters"),
            F.state("sharpen", 8, "finished", at: 360, thread: Self.loader, queue: "filters"),
            F.state("tilt-shift", 3, "finished", at: 240, thread: Self.filterer, queue: "filters"),
            F.state("compare", 9, "ready", at: 241, thread: Self.filterer, queue: "filters"),
            F.state("compare", 9, "executing", at: 361, thread: Self.filterer, queue: "filters"),
            F.state("compare", 9, "finished", at: 362, thread: Self.filterer, queue: "filters"),
        ])
        let analysis = OperationAnalysis(record)
        let compare = try #require(analysis.life(of: 9))
        #expect(compare.wait.sentence == "waited 240.0 ms for tilt-shift, then 120.0 ms for a free slot on filters")
        #expect(analysis.criticalPath == [1, 3, 9], "load gated tilt-shift, which gated the comparison")
        // Ready while sharpen held the queue's one slot: a wait for a slot. Ready on an idle queue, a wait for a thread.
        #expect(compare.wait.slot?.queueWasBusy == true)
        #expect(try #require(OperationAnalysis(try Self.idleQueueWait()).life(of: 1)).wait.sentence == "waited 30.0 ms for a thread to start it")
    }

    /// An operation ready at 10 ms on a queue with nothing else executing, taken up at 40 ms (a loaded machine).
    static func idleQueueWait() throws -> RunRecord {
        try TraceFixture.record([
            TraceFixture.state("decode", 1, "ready", at: 10, thread: loader, queue: "filters"),
            TraceFixture.state("decode", 1, "executing", at: 40, thread: loader, queue: "filters"),
            TraceFixture.state("decode", 1, "finished", at: 41, thread: loader, queue: "filters"),
        ])
    }

    /// A cancelled operation finishes too; its dependents' lives show the cancellation, and a cycle leaves no path
    /// and no loop: the analysis ends.
    @Test func cancellationAndCyclesAreShownAndEnd() async throws {
        typealias F = TraceFixture
        let record = try F.record([
            F.dependency("compress", 5, on: "upload", 6, at: 0),
            F.dependency("upload", 6, on: "compress", 5, at: 0),
            F.state("retina", 7, "cancelled", at: 2),
            F.state("retina", 7, "finished", at: 3),
        ])
        let analysis = OperationAnalysis(record)
        let retina = try #require(analysis.life(of: 7))
        #expect(retina.cancelled == TraceFixture.start + 2_000_000)
        #expect(retina.executing == nil)
        #expect(analysis.criticalPath == [7])
        #expect(analysis.name(5) == "compress", "named by its dep line, though it never reported a state")
    }
}
