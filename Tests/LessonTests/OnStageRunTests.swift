import LessonKit
import Testing
import TourCommandLine
import TourCore
import TourTestSupport

/// Rehearsable demos: one seed, one order of events (a plain run recorded as an asciicast is `PlainRunOnStageTests`).
@Suite("On stage: seeded runs", .bodiesBelowTheRunner)
struct OnStageRunTests {
    /// Page 8's clients and the names they write, as the page has them.
    static let newNames = [("Charlie", "Cheesecake"), ("Delia", "Dingle"), ("Eva", "Evershed"), ("Freddie", "Frost"), ("Gina", "Gregory")]

    /// The clients' order that page 8 draws under `seed`, as its `StagedClients` does.
    static func stagedOrder(seed: UInt64) -> [(first: String, last: String)] {
        var random = PageRandom(stream: "staged clients", seed: seed)
        return newNames.map { (first: $0.0, last: $0.1) }.shuffled(using: &random)
    }

    /// What page 8's holds make the unsafe person's run do under `seed`, worked out from the staging's rule rather than
    /// read from a run: the changes by their end (clients 1, 2, …, n-2 in the drawn order, then n, then n-1), then
    /// what each of them read back (the first name of the client two steps on, the last name its own, the last two
    /// reading the last client's first name), then the final name.
    static func expectedOrder(seed: UInt64) -> [String] {
        let order = stagedOrder(seed: seed)
        let n = order.count
        let byEnd = Array(0..<(n - 2)) + [n - 1, n - 2]
        let firstNameRead = { (index: Int) in index < n - 2 ? order[index + 2].first : order[n - 1].first }
        return byEnd.map { "change to \(order[$0].first) \(order[$0].last)" }
            + byEnd.map { "Unsafe person is now: \(firstNameRead($0)) \(order[$0].last)" }
            + ["Unsafe person's final name: \(order[n - 1].first) \(order[n - 2].last)"]
    }

    /// The order of events of page 8's unsafe race: the changes by their end, and what each client then read.
    static func eventOrder(_ run: RunRecord) -> [String] {
        run.spans.filter { $0.name.hasPrefix("change to ") }.sorted { ($0.end ?? 0) < ($1.end ?? 0) }.map(\.name)
            + run.outputText.filter { $0.hasPrefix("Unsafe person") }
    }

    /// Ten runs at once with one seed, each its own process on a loaded machine: the holds, not the timing, decide the
    /// order, so they agree, and agree with the staging's rule for the seed. A run with another seed that draws
    /// another order gives that one.
    @Test func oneSeedGivesPage8TheSameEventOrderInTenRuns() async throws {
        try #require(Self.stagedOrder(seed: 7).map(\.first) != Self.stagedOrder(seed: 8).map(\.first), "seeds 7 and 8 draw different orders")
        let seeds: [UInt64] = Array(repeating: 7, count: 10) + [8]
        let runs = await withTaskGroup(of: (UInt64, RunRecord).self) { group in
            for seed in seeds {
                group.addTask {
                    (seed, await recordRun(product: "Lesson08Barrier", knobs: [("people", "unsafe")], speed: 10, arguments: ["--seed", String(seed)]))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 11)
        for (seed, run) in runs {
            #expect(run.endedAsExpected)
            #expect(Self.eventOrder(run) == Self.expectedOrder(seed: seed), "seed \(seed)")
        }
        #expect(Self.expectedOrder(seed: 7).count == 11)
        #expect(Self.expectedOrder(seed: 7) != Self.expectedOrder(seed: 8))
        // Four of the five clients read back a name nobody gave.
        let reads = Self.expectedOrder(seed: 7).filter { $0.hasPrefix("Unsafe person is now: ") }
        let given = Set(Self.newNames.map { "Unsafe person is now: \($0) \($1)" })
        #expect(reads.filter { !given.contains($0) }.count == 4)
    }

    @Test func theSeedMakesTheDelaysAndNotTheSystem() async throws {
        #expect(Self.stagedOrder(seed: 7).map(\.first) == Self.stagedOrder(seed: 7).map(\.first))
        #expect(Self.stagedOrder(seed: 7).map(\.first) != Self.stagedOrder(seed: 8).map(\.first))
        // Without a seed, two draws differ (the chance that 64 random bits repeat is nil).
        var first = PageRandom(stream: "x", seed: nil)
        var second = PageRandom(stream: "x", seed: nil)
        #expect(first.next() != second.next())
    }
}
