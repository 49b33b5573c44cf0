import Foundation
import PageProtocol
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// What a hostile page can send, fed to the fold as the runner feeds it (`RunRecord.ingest(_:receivedAt:)`), on a
/// clock the test moves: no process, no waiting. For every stream the record survives, stays under its memory
/// ceiling, keeps every summary short, and its watchdog still calls a stall once the page goes silent.
@Suite("Adversarial streams into the run record", .bodiesBelowTheRunner)
struct AdversarialStreamTests {
    /// The ceiling docs/trace-format.md gives one record, by `RunRecord.estimatedBytes`.
    static let ceiling = 64 << 20
    static let start: UInt64 = 7_000_000_000_000
    static let pid: Int32 = 4_000
    static let stuckAfter = 3.0
    static let silentLimit = 15.0

    /// SplitMix64 with a fixed seed: the same "random" stream on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A page's stream: the host's clock (`now`, moved on by 1 µs an event) and the record it feeds.
    struct Feed {
        var record: RunRecord
        var now = AdversarialStreamTests.start
        var random = Generator(state: 0x5EED_0011)

        init(limits: RunRecord.Limits = RunRecord.Limits()) {
            record = RunRecord(limits: limits)
            record.ingest(.started(pid: AdversarialStreamTests.pid, time: now), receivedAt: now)
        }

        /// An event stamped `now`, or `stamp` when the page lies about its time.
        mutating func send(_ kind: EventKind, thread: Int32 = AdversarialStreamTests.pid, stamp: UInt64? = nil) {
            now += 1_000
            record.ingest(.trace(PageEvent(time: stamp ?? now, thread: thread, queue: "q", kind: kind)), receivedAt: now)
        }

        func stall(after seconds: Double) -> Stall? {
            record.stall(at: now + UInt64(seconds * 1e9), stuckAfter: AdversarialStreamTests.stuckAfter,
                         silentLimit: AdversarialStreamTests.silentLimit)
        }
    }

    /// The checks every stream must pass once it has been sent. `leavesWorkOpen`: the stall comes after
    /// `stuckAfter`, not only after `silentLimit`.
    private func expectSurvived(_ feed: Feed, leavesWorkOpen: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let record = feed.record
        #expect(record.estimatedBytes < Self.ceiling, "\(record.estimatedBytes) bytes", sourceLocation: sourceLocation)
        #expect(feed.stall(after: Self.stuckAfter - 0.001) == nil, "no stall before its time", sourceLocation: sourceLocation)
        let stall = try #require(feed.stall(after: leavesWorkOpen ? Self.stuckAfter : Self.silentLimit), sourceLocation: sourceLocation)
        let ending = RunEnding.stuck(stall)
        #expect(ending.headline.count <= 300, "\(ending.headline.count) characters", sourceLocation: sourceLocation)
        #expect(ending.explanation.count <= 1_200, "\(ending.explanation.count) characters", sourceLocation: sourceLocation)
        #expect(record.dropNotes().allSatisfy { $0.count <= 200 }, sourceLocation: sourceLocation)
    }

    /// A million events, fed aside (`computeAside`), off the cooperative pool the other tests report from.
    @Test func aDependencyChainOfAMillionOperations() async throws {
        let length = 1_000_000
        let feed = await computeAside("million-dependencies") {
            var feed = Feed()
            // The chain's operations in a shuffled order of ids, so the search meets it from the middle as often as not.
            var ids = Array(1...length)
            // Fisher-Yates by hand: the standard library's `shuffle(using:)` took about a second here.
            for index in stride(from: length - 1, to: 0, by: -1) {
                ids.swapAt(index, Int(feed.random.next() % UInt64(index + 1)))
            }
            for index in 0..<length - 1 {
                feed.send(.dep(operation: "op \(ids[index])", oid: ids[index], dependency: "op \(ids[index + 1])", onid: ids[index + 1]))
            }
            return feed
        }
        #expect(feed.record.dependencies.count == feed.record.limits.dependencies)
        #expect(feed.record.drops.dependencies == length - 1 - feed.record.limits.dependencies)
        #expect(feed.record.dropNotes().contains("979,999 dependencies beyond the cap of 20,000 were dropped"))
        try expectSurvived(feed, leavesWorkOpen: false)
    }

    /// The same chain with the cap raised so the whole of it is kept, closed into a cycle: the search walks a
    /// million deep on its own stack, finds the cycle, and the summary names a few of them.
    /// A million events, fed and searched aside (`computeAside`), off the cooperative pool the other tests report from.
    @Test func theWholeMillionLongChainClosedIntoACycleIsSearchedWithoutRecursion() async throws {
        let length = 1_000_000
        let (feed, cycle) = await computeAside("million-cycle") {
            var limits = RunRecord.Limits()
            limits.dependencies = length
            var feed = Feed(limits: limits)
            for index in 0..<length {
                let next = (index + 1) % length
                feed.send(.dep(operation: "op \(index)", oid: index, dependency: "op \(next)", onid: next))
            }
            return (feed, feed.record.dependencyCycle())
        }
        #expect(cycle.count == length + 1)
        #expect(cycle.prefix(3) == ["op 0", "op 1", "op 2"])
        #expect(cycle.last == "op 0")
        let stall = try #require(feed.stall(after: Self.stuckAfter))
        let headline = RunEnding.stuck(stall).headline
        #expect(headline.contains("in the cycle op 0 → op 1 → op 2"))
        #expect(headline.hasSuffix(" more"))
        #expect(headline.count <= 300)
    }

    /// Two million events, fed aside (`computeAside`), off the cooperative pool the other tests report from.
    @Test func aMillionDistinctResultsOperationsAndThreads() async throws {
        let count = 1_000_000
        let feed = await computeAside("million-results") {
            var feed = Feed()
            // The texts, made once: making each again (`String(repeating:count:)` appends a character at a time) was
            // most of the test's time, and the record sees the same texts either way.
            let texts = (0..<400).map { String(repeating: "r", count: $0) }
            for index in 0..<count {
                let thread = Int32(10_000 + index)
                feed.send(.result(file: "main.swift", line: index, kind: .peek,
                                  text: texts[Int(feed.random.next() % 400)], seconds: nil), thread: thread)
                feed.send(.op(operation: "operation \(index)", oid: index, state: index % 2 == 0 ? .executing : .ready), thread: thread)
            }
            return feed
        }
        let record = feed.record
        #expect(record.results.count == record.limits.results)
        #expect(record.drops.results == count - record.limits.results)
        #expect(record.operations.count == record.limits.operations)
        #expect(record.drops.operations == count - record.limits.operations)
        #expect(record.threads.count == record.limits.threads)
        #expect(record.results.allSatisfy { $0.text.utf8.count <= record.limits.nameBytes })
        #expect(record.dropNotes().contains("999,000 results beyond the cap of 1,000 source lines were dropped"))
        try expectSurvived(feed, leavesWorkOpen: true)
    }

    /// One event stamped far in the future once switched the watchdog off for the rest of the run (its clock
    /// never caught up), and the interface showed "running 8999997960 s"; one stamped before the start ran backwards.
    @Test func farFutureAndEarlyTimestampsThenSilence() throws {
        var feed = Feed()
        feed.send(.begin(id: 1, name: "waiting"))
        feed.send(.mark(name: "from the future"), stamp: feed.now + 9_000_000_000_000_000_000)
        feed.send(.mark(name: "before the start"), stamp: Self.start - 1)
        feed.send(.end(id: 1, name: "waiting"), stamp: UInt64.max)
        feed.now += 1_000
        feed.record.ingest(.output(OutputLine(stream: .stdout, text: "printed in the future", time: UInt64.max, thread: Self.pid, queue: "q")),
                           receivedAt: feed.now)
        let record = feed.record
        #expect(record.rejectedTraceLines == 4)
        #expect(record.lastRejection?.hasSuffix("ahead of the host's clock") == true)
        #expect(record.marks.isEmpty && record.output.isEmpty)
        #expect(record.openSpans.keys.sorted() == [1], "the end stamped at the end of time closed nothing")
        #expect(record.lastActivity == feed.now)
        try expectSurvived(feed, leavesWorkOpen: true)
        #expect(feed.stall(after: Self.stuckAfter)?.openSpans == ["waiting (main)"])
    }

    @Test func tenThousandSpansLeftOpen() async throws {
        let feed = await computeAside("open-spans") {
            var feed = Feed()
            for id in 1...10_000 {
                feed.send(.begin(id: id, name: "span \(id) " + String(repeating: "n", count: 20)), thread: Self.pid + Int32(id % 7))
            }
            // Beyond the cap a begin is refused and counted, never let in to push out what the run is stuck in.
            feed.send(.begin(id: 10_001, name: "one too many"))
            return feed
        }
        #expect(feed.record.openSpans.count == 10_000)
        #expect(feed.record.drops.spans == 1)
        try expectSurvived(feed, leavesWorkOpen: true)
        let headline = RunEnding.stuck(try #require(feed.stall(after: Self.stuckAfter))).headline
        #expect(headline.hasSuffix(" more"), "today 10,000 open spans made a headline of 259,000 characters")
        #expect(headline.contains("span 1 nnnnnnnnnnnnnnnnnnnn (T"))
    }

    @Test func spanEndsWithoutStartsAndDuplicateEnds() async throws {
        var feed = await computeAside("unmatched-ends") {
            var feed = Feed()
            for _ in 0..<100_000 {
                let id = Int(feed.random.next() % 1_000)
                feed.send(.end(id: id, name: "never began"))
            }
            return feed
        }
        feed.send(.begin(id: 5, name: "real"))
        feed.send(.end(id: 5, name: "real"))
        feed.send(.end(id: 5, name: "real"))
        feed.send(.begin(id: 6, name: "still open"))
        #expect(feed.record.spans.map(\.name) == ["real"])
        #expect(feed.record.openSpans.values.map(\.name) == ["still open"])
        try expectSurvived(feed, leavesWorkOpen: true)
    }

    /// 200,000 events of 64 KB, fed aside (`computeAside`), off the cooperative pool the other tests report from.
    @Test func longNamesAndAMillionQueueLabelsAreCut() async throws {
        var feed = await computeAside("long-names") {
            var feed = Feed()
            let long = String(repeating: "🧵", count: 16_000)
            // Marks, and spans that end, each with a name of 64 KB and a queue label of its own: the record at its fullest.
            for index in 0..<120_000 {
                let kinds: [EventKind] = index % 3 == 0 ? [.mark(name: long)] : [.begin(id: index, name: long), .end(id: index, name: long)]
                let queue = "queue \(index) " + long.prefix(40)
                for kind in kinds {
                    feed.now += 1_000
                    let event = PageEvent(time: feed.now, thread: Self.pid + Int32(index % 3_000), queue: queue, kind: kind)
                    feed.record.ingest(.trace(event), receivedAt: feed.now)
                }
            }
            return feed
        }
        feed.send(.begin(id: -1, name: "still open"))
        let record = feed.record
        #expect(record.queues.count == record.limits.queues)
        #expect(record.marks.allSatisfy { $0.name.utf8.count <= record.limits.nameBytes && $0.name.hasSuffix("…") })
        #expect(record.spans.count >= record.limits.spans)
        try expectSurvived(feed, leavesWorkOpen: true)
    }

    @Test func theDropNoteReadsAsThePlainReportPrintsIt() {
        var limits = RunRecord.Limits()
        limits.results = 10_000
        var feed = Feed(limits: limits)
        for line in 0..<22_004 {
            feed.send(.result(file: "main.swift", line: line, kind: .peek, text: "x", seconds: nil))
        }
        #expect(feed.record.dropNotes() == ["12,004 results beyond the cap of 10,000 source lines were dropped"])
    }
}
