/// Counts, from inside, how many jobs of a batch ran at once at most and on how many threads they began.
///
/// The timeline shows the same thing as spans; this gives the numbers a page prints. Like `Gate`, it locks with a
/// pthread mutex, which Thread Sanitizer follows.
///
/// A job that is also a span should be counted with `trace(_:_:)`, not `measure` around a `trace`: the span's begin and
/// end events are stamped under the meter's lock, in the order the meter counts, so the number the page prints is the
/// one its spans show. Wrapped around the span, the count changes a little before the span begins and after it ends,
/// and two jobs that follow each other on two threads can count as two at once when the timeline shows one.
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

    /// Runs `job` as the span `name` and counts it as running exactly while the span is open.
    @discardableResult
    public func trace<T>(_ name: String, _ job: () throws -> T) rethrows -> T {
        let span = beginSpan(name)
        defer { endSpan(span) }
        return try job()
    }

    /// Runs `job`, which may suspend, as the span `name`, counted as running exactly while the span is open.
    @discardableResult
    public func trace<T>(_ name: String, isolation: isolated (any Actor)? = #isolation,
                         _ job: () async throws -> T) async rethrows -> T {
        let span = beginSpan(name)
        defer { endSpan(span) }
        return try await job()
    }

    private func beginSpan(_ name: String) -> OpenSpan {
        tally.withLock { tally in
            tally.running += 1
            tally.mostAtOnce = max(tally.mostAtOnce, tally.running)
            tally.threads.insert(ThreadIdentity.current)
            return OpenSpan(name)
        }
    }

    private func endSpan(_ span: OpenSpan) {
        tally.withLock { tally in
            span.end()
            tally.running -= 1
        }
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
