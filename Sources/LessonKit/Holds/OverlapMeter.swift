/// Counts, from inside, how many jobs of a batch ran at once at most and on how many threads they began.
///
/// The timeline shows the same thing as spans; this gives the numbers a page prints. Like `Gate`, it locks with a
/// pthread mutex, which Thread Sanitizer follows.
public final class OverlapMeter: Sendable {
    private struct Tally {
        var running = 0
        var mostAtOnce = 0
        var threads: Set<Int32> = []
    }

    private let tally = SanitizerVisibleLock(Tally())

    public init() {}

    /// Runs `job` on the calling thread and counts it as running from its start to its end.
    public func measure<T>(_ job: () throws -> T) rethrows -> T {
        begin()
        defer { end() }
        return try job()
    }

    /// Runs `job`, which may suspend, and counts it as running from its start to its end.
    public func measure<T>(isolation: isolated (any Actor)? = #isolation, _ job: () async throws -> T) async rethrows -> T {
        begin()
        defer { end() }
        return try await job()
    }

    private func begin() {
        tally.withLock { tally in
            tally.running += 1
            tally.mostAtOnce = max(tally.mostAtOnce, tally.running)
            tally.threads.insert(ThreadIdentity.current)
        }
    }

    private func end() {
        tally.withLock { $0.running -= 1 }
    }

    /// The most jobs that ran at once.
    public var mostAtOnce: Int { tally.withLock { $0.mostAtOnce } }
    /// How many threads the jobs began on.
    public var threadCount: Int { threads.count }
    /// The threads the jobs began on.
    public var threads: Set<Int32> { tally.withLock { $0.threads } }
}
