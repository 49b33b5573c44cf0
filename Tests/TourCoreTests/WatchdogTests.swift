import Testing
import PageProtocol
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The watchdog's rules, asked of a `RunRecord` on fabricated times: no process, no clock, no waiting.
@Suite("Watchdog", .bodiesBelowTheRunner)
struct WatchdogTests {
    /// An arbitrary monotonic start, far from zero so no subtraction can wrap.
    private static let start: UInt64 = 5_000_000_000_000
    private static let pid: Int32 = 1
    private let stuckAfter = 2.0
    private let silentLimit = 10.0

    private func at(_ seconds: Double) -> UInt64 { Self.start + UInt64((seconds * 1e9).rounded()) }
    private func detector() -> Watch { Watch(stuckAfter: stuckAfter, silentLimit: silentLimit, start: Self.start, pid: Self.pid) }

    /// The runner's record as `PageRun` keeps it: each event ingested when it is received, stamped then.
    struct Watch {
        let stuckAfter: Double
        let silentLimit: Double
        var record = RunRecord(limits: .watchdog)

        init(stuckAfter: Double, silentLimit: Double, start: UInt64, pid: Int32) {
            self.stuckAfter = stuckAfter
            self.silentLimit = silentLimit
            record.apply(.started(pid: pid, time: start))
        }

        mutating func record(_ event: HostEvent, at time: UInt64) {
            var event = event
            if case .trace(var trace) = event {
                trace.time = time
                event = .trace(trace)
            }
            record.ingest(event, receivedAt: time)
        }

        func stall(at now: UInt64) -> Stall? { record.stall(at: now, stuckAfter: stuckAfter, silentLimit: silentLimit) }
        func dependencyCycle() -> [String] { record.dependencyCycle() }
    }

    private func trace(_ kind: EventKind, thread: Int32 = 100) -> HostEvent {
        .trace(PageEvent(time: 0, thread: thread, queue: "q", kind: kind))
    }
    private func begin(_ id: Int, _ name: String, thread: Int32 = 100) -> HostEvent {
        trace(.begin(id: id, name: name), thread: thread)
    }
    private func end(_ id: Int, _ name: String) -> HostEvent { trace(.end(id: id, name: name)) }
    private func op(_ oid: Int, _ name: String, _ state: OperationState) -> HostEvent {
        trace(.op(operation: name, oid: oid, state: state))
    }
    private func dep(_ oid: Int, _ name: String, on onid: Int, _ onName: String) -> HostEvent {
        trace(.dep(operation: name, oid: oid, dependency: onName, onid: onid))
    }
    private func output(_ text: String) -> HostEvent { .output(OutputLine(stream: .stdout, text: text, time: 0)) }

    @Test func silentWithAnOpenSpanStallsAfterStuckAfterAndNotBefore() {
        var watch = detector()
        watch.record(begin(1, "waiting forever", thread: 4242), at: at(0.5))
        #expect(watch.stall(at: at(0.5)) == nil)
        #expect(watch.stall(at: at(2.5) - 1) == nil)
        #expect(watch.stall(at: at(2.5)) == Stall(openSpans: ["waiting forever (T1)"], unfinishedOperations: [], silentSeconds: 2))
        #expect(watch.stall(at: at(7.5)) == Stall(openSpans: ["waiting forever (T1)"], unfinishedOperations: [], silentSeconds: 7))
    }

    @Test func aPageListeningForCommandsMayBeSilentButNotStuckWithWorkOpen() {
        var watch = detector()
        watch.record(trace(.input(commands: .scroll)), at: at(0))
        #expect(watch.stall(at: at(1_000)) == nil, "waiting for the learner is not a silent endless loop")
        watch.record(begin(1, "drag"), at: at(1_000))
        #expect(watch.stall(at: at(1_000 + stuckAfter)) != nil, "an open span still counts as stuck")
    }

    @Test func anySignOfLifeResetsTheClock() {
        var watch = detector()
        watch.record(begin(1, "work"), at: at(0))
        watch.record(output("still going"), at: at(1.5))
        #expect(watch.stall(at: at(3.4)) == nil)
        #expect(watch.stall(at: at(3.5))?.silentSeconds == 2)
        watch.record(.rejectedTraceLine(reason: "bad", time: 0), at: at(4))
        #expect(watch.stall(at: at(5.9)) == nil)
        watch.record(trace(.mark(name: "tick")), at: at(5))
        #expect(watch.stall(at: at(6.9)) == nil)
        #expect(watch.stall(at: at(7))?.openSpans == ["work (T1)"])
    }

    @Test func anEventStampedInThePastDoesNotMoveTheClockBack() {
        var watch = detector()
        watch.record(begin(1, "work"), at: at(3))
        watch.record(output("late"), at: at(1))
        #expect(watch.stall(at: at(4.9)) == nil)
        #expect(watch.stall(at: at(5))?.silentSeconds == 2)
    }

    @Test func aTimeBeforeTheLastActivityIsNeverAStall() {
        var watch = detector()
        watch.record(begin(1, "work"), at: at(30))
        #expect(watch.stall(at: at(20)) == nil)
    }

    @Test func closedSpansDoNotCount() {
        var watch = detector()
        watch.record(begin(1, "first"), at: at(0))
        watch.record(begin(2, "second"), at: at(0.1))
        watch.record(end(1, "first"), at: at(0.2))
        #expect(watch.stall(at: at(2.2))?.openSpans == ["second (T1)"])
        watch.record(end(2, "second"), at: at(0.3))
        #expect(watch.stall(at: at(2.3)) == nil)
        #expect(watch.stall(at: at(10.3) - 1) == nil)
    }

    @Test func openSpansAreListedInTheOrderTheyBegan() {
        var watch = detector()
        watch.record(begin(9, "outer", thread: 1), at: at(0))
        watch.record(begin(3, "inner", thread: 2), at: at(0))
        watch.record(begin(5, "closed", thread: 2), at: at(0))
        watch.record(end(5, "closed"), at: at(0))
        watch.record(begin(4, "last", thread: 3), at: at(0))
        #expect(watch.stall(at: at(2))?.openSpans == ["outer (main)", "inner (T1)", "last (T3)"])
    }

    @Test func aSpanIDBegunAgainAfterItEndedIsListedOnce() {
        var watch = detector()
        watch.record(begin(1, "again"), at: at(0))
        watch.record(end(1, "again"), at: at(0))
        watch.record(begin(1, "again"), at: at(0))
        #expect(watch.stall(at: at(2))?.openSpans == ["again (T1)"])
    }

    @Test func anExecutingOperationIsNamedUntilItFinishes() {
        var watch = detector()
        watch.record(op(7, "download", .ready), at: at(0))
        #expect(watch.stall(at: at(2)) == nil)
        watch.record(op(7, "download", .executing), at: at(1))
        watch.record(op(3, "resize", .executing), at: at(1))
        #expect(watch.stall(at: at(3) - 1) == nil)
        #expect(watch.stall(at: at(3)) == Stall(openSpans: [], unfinishedOperations: ["resize", "download"], silentSeconds: 2))
        watch.record(op(3, "resize", .finished), at: at(4))
        #expect(watch.stall(at: at(6))?.unfinishedOperations == ["download"])
        watch.record(op(7, "download", .finished), at: at(4))
        #expect(watch.stall(at: at(6)) == nil)
    }

    @Test func aDependencyCycleIsNamedInOrder() {
        var watch = detector()
        watch.record(dep(1, "a", on: 2, "b"), at: at(0))
        watch.record(dep(2, "b", on: 1, "a"), at: at(0))
        #expect(watch.dependencyCycle() == ["a", "b", "a"])
        #expect(watch.stall(at: at(2) - 1) == nil)
        #expect(watch.stall(at: at(2)) == Stall(openSpans: [], unfinishedOperations: [], dependencyCycle: ["a", "b", "a"], silentSeconds: 2))
        #expect(RunEnding.stuck(watch.stall(at: at(2))!).headline == "stuck: no progress for 2.0 s in the cycle a → b → a")
    }

    @Test func aLongerCycleIsFoundBehindAChain() {
        var watch = detector()
        watch.record(dep(1, "report", on: 2, "parse"), at: at(0))
        watch.record(dep(2, "parse", on: 3, "download"), at: at(0))
        watch.record(dep(3, "download", on: 4, "login"), at: at(0))
        watch.record(dep(4, "login", on: 2, "parse"), at: at(0))
        #expect(watch.dependencyCycle() == ["parse", "download", "login", "parse"])
    }

    @Test func aChainWithoutACycleIsNotOne() {
        var watch = detector()
        watch.record(dep(1, "c", on: 2, "b"), at: at(0))
        watch.record(dep(2, "b", on: 3, "a"), at: at(0))
        watch.record(dep(1, "c", on: 3, "a"), at: at(0))
        #expect(watch.dependencyCycle() == [])
        #expect(watch.stall(at: at(2)) == nil)
    }

    @Test func aFinishedOperationBreaksTheCycle() {
        var watch = detector()
        watch.record(dep(1, "a", on: 2, "b"), at: at(0))
        watch.record(dep(2, "b", on: 1, "a"), at: at(0))
        watch.record(op(2, "b", .finished), at: at(0))
        #expect(watch.dependencyCycle() == [])
    }

    @Test func silentLimitAppliesWhenNothingIsOpen() {
        var watch = detector()
        #expect(watch.stall(at: at(10) - 1) == nil)
        #expect(watch.stall(at: at(10)) == Stall(openSpans: [], unfinishedOperations: [], silentSeconds: 10))
        watch.record(output("alive"), at: at(11))
        #expect(watch.stall(at: at(20.5)) == nil)
        #expect(watch.stall(at: at(21)) == Stall(openSpans: [], unfinishedOperations: [], silentSeconds: 10))
    }

    /// The cycle search as it was written first (a dictionary of edge lists and a dictionary of visits), kept here
    /// as the reference the record's faster search must agree with.
    private static func referenceCycle(_ record: RunRecord) -> [String] {
        var names: [Int: String] = [:]
        var edges: [Int: [Int]] = [:]
        for dependency in record.dependencies {
            if !dependency.operationName.isEmpty { names[dependency.operation] = names[dependency.operation] ?? dependency.operationName }
            if !dependency.dependencyName.isEmpty { names[dependency.dependsOn] = names[dependency.dependsOn] ?? dependency.dependencyName }
            edges[dependency.operation, default: []].append(dependency.dependsOn)
        }
        let finished = Set(record.operations.filter { $0.changes.contains { $0.state == .finished } }.map(\.id))
        var visits: [Int: Bool] = [:]   // true while on the path
        var cycle: [Int] = []
        search: for root in edges.keys.sorted() where visits[root] == nil && !finished.contains(root) {
            var path: [(node: Int, next: Int)] = [(root, 0)]
            visits[root] = true
            while let (node, next) = path.last {
                let outgoing = edges[node] ?? []
                guard next < outgoing.count else { visits[node] = false; path.removeLast(); continue }
                path[path.count - 1].next += 1
                let target = outgoing[next]
                guard !finished.contains(target) else { continue }
                switch visits[target] {
                case true?: cycle = path[path.firstIndex { $0.node == target }!...].map(\.node) + [target]; break search
                case false?: continue
                case nil: visits[target] = true; path.append((target, 0))
                }
            }
        }
        let operationNames = Dictionary(record.operations.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return cycle.map { operationNames[$0] ?? names[$0] ?? "operation \($0)" }
    }

    /// Two thousand small random graphs (ids out of order, negative and far apart, repeated edges, self-loops, names missing,
    /// operations finished or only reported): the search finds the cycle the reference finds, named alike.
    /// The 2,000 graphs are made and searched aside (`computeAside`); each disagreement comes back to be reported here.
    @Test func theCycleSearchAgreesWithTheReferenceOnRandomGraphs() async throws {
        let (disagreements, cyclesFound) = await computeAside("random-graphs") {
            var random = AdversarialStreamTests.Generator(state: 0xC1C1E)
            var disagreements: [String] = []
            var cyclesFound = 0
            for graph in 0..<2_000 {
                var watch = detector()
                // Ids close together, spread wide, and spread so wide that their distance overflows an Int.
                let scale = [1, 1_000_003, Int.max / 32].randomElement(using: &random)!
                let ids = (0..<Int.random(in: 2...9, using: &random)).map { _ in scale * Int.random(in: -20...20, using: &random) }
                for _ in 0..<Int.random(in: 1...14, using: &random) {
                    let from = ids.randomElement(using: &random)!, to = ids.randomElement(using: &random)!
                    let fromName = Bool.random(using: &random) ? "op\(from)" : ""
                    let toName = Int.random(in: 0..<3, using: &random) == 0 ? "" : "on\(to)"
                    watch.record(dep(from, fromName, on: to, toName), at: at(0))
                }
                for id in ids where Int.random(in: 0..<4, using: &random) == 0 {
                    watch.record(op(id, "operation named \(id)", Bool.random(using: &random) ? .finished : .executing), at: at(0))
                }
                let expected = Self.referenceCycle(watch.record)
                let found = watch.dependencyCycle()
                if found != expected || watch.record.dependencyCycleIDs().count != expected.count {
                    disagreements.append("graph \(graph): found \(found), the reference \(expected)")
                }
                if !expected.isEmpty { cyclesFound += 1 }
            }
            return (disagreements, cyclesFound)
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) graphs: \(disagreements.prefix(3).joined(separator: "; "))")
        // The graphs are random, so check that they test both answers often.
        #expect(cyclesFound > 400 && cyclesFound < 1_600, "\(cyclesFound) of 2,000 graphs had a cycle")
    }
}
