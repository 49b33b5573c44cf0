import Foundation
import PageProtocol

/// Questions the exercises' judges and predictions ask of a run's record: which spans, which operation did what and on
/// which thread, how much overlapped, in the words their findings use. Each reads only what the record holds (spans,
/// marks, operation states, lanes), never the page's printed text.
extension RunRecord {
    /// A moment of the run as a finding names it, in seconds from the start with two decimals: "0.42 s".
    public func timeText(at time: UInt64) -> String {
        String(format: "%.2f s", seconds(at: time))
    }

    /// Spans named `name` the record holds, in order of their start: those that ended, and, once the run is over,
    /// those it ended inside (their `end` is nil).
    public func spans(named name: String) -> [Span] {
        spans.filter { $0.name == name }.sorted { $0.start < $1.start }
    }

    /// The first span named `name`, by its start.
    public func firstSpan(named name: String) -> Span? {
        spans.filter { $0.name == name }.min { $0.start < $1.start }
    }

    /// Spans named `name` that began and never ended: still open, or open when the run ended. In order of their start.
    public func openSpans(named name: String) -> [Span] {
        (spans.filter { $0.end == nil } + openSpans.values).filter { $0.name == name }.sorted { $0.start < $1.start }
    }

    /// The spans still open when the run ended, in the order they began: what a crash or a hang stopped in the middle.
    /// Empty while the run goes on (its open spans are `openSpans` then).
    public var spansOpenAtEnd: [Span] {
        spans.filter { $0.end == nil }.sorted { $0.start < $1.start }
    }

    /// When `span` ended; for a span still open when the run ended (a hang, a crash), the end of the run; nil while
    /// the run goes on.
    public func end(of span: Span) -> UInt64? {
        span.end ?? endTime
    }

    /// Whether two spans were both running at some moment; a span still open at the end of the run lasts to its end.
    public func ranTogether(_ first: Span, _ second: Span) -> Bool {
        guard let firstEnd = end(of: first), let secondEnd = end(of: second) else { return true }
        return first.start < secondEnd && second.start < firstEnd
    }

    /// The first operation named `name` that reported a state, if any did.
    public func operation(named name: String) -> OperationRecord? {
        operations.first { $0.name == name }
    }

    /// The operations that reported under `name`, in the order they first reported; several objects may share a name.
    public func operations(named name: String) -> [OperationRecord] {
        operations.filter { $0.name == name }
    }

    /// The finished spans `operation` ran: those on the thread that reported it `executing`, begun after that and
    /// before it reported `finished` (or the run ended), except the span `ObservedOperation` itself draws for it.
    public func spans(ranBy operation: OperationRecord) -> [Span] {
        guard let executing = operation.firstChange(to: .executing) else { return [] }
        let finished = operation.firstTime(of: .finished) ?? UInt64.max
        return spans.filter {
            $0.thread == executing.thread && $0.start >= executing.time && $0.start <= finished
                && $0.end != nil && $0.name != operation.name
        }.sorted { $0.start < $1.start }
    }

    /// Whether `operation` waits for `dependency`, as the page reported it (`ObservedOperation.addDependency`).
    public func dependency(of operation: OperationRecord, on dependency: OperationRecord) -> Bool {
        dependencies.contains { $0.operation == operation.id && $0.dependsOn == dependency.id }
    }

    /// Whether `thread` is the page's main thread, the one its process began on.
    public func isMainThread(_ thread: Int32) -> Bool {
        lane(for: thread)?.isMain ?? (thread == pid)
    }

    /// Whether `thread` is one the run saw other than the main thread: a thread of a pool (a dispatch worker, which
    /// also runs `OperationQueue`'s operations) or one the page started itself.
    public func isBackgroundThread(_ thread: Int32) -> Bool {
        lane(for: thread).map { !$0.isMain } ?? false
    }

    /// Whether `thread` is a worker of Dispatch's pool: not the main thread, and it reported something while running
    /// a dispatch queue. A `Thread` of the page's own runs no queue, so all its events carry an empty label; the main
    /// queue's blocks after `dispatchMain()` run on pool workers and count as one.
    public func isPoolThread(_ thread: Int32) -> Bool {
        guard !isMainThread(thread) else { return false }
        return spans.contains { $0.thread == thread && !$0.queue.isEmpty }
            || marks.contains { $0.thread == thread && !$0.queue.isEmpty }
            || operations.contains { $0.changes.contains { $0.thread == thread && !$0.queue.isEmpty } }
            || output.contains { $0.thread == thread && !($0.queue ?? "").isEmpty }
    }

    /// The thread as a learner reads it: "the main thread", "T3, a pool thread" or "T3, a thread of its own".
    public func threadDescription(_ thread: Int32) -> String {
        if isMainThread(thread) { return "the main thread" }
        return "\(laneName(of: thread)), " + (isPoolThread(thread) ? "a pool thread" : "a thread of its own")
    }

    /// The most of `spans` that were open at one instant, the first instant that many were, and the spans open then;
    /// nil for no spans. A span that ends as another begins does not overlap it, and one still open when the run
    /// ended counts as open to the last.
    public func mostAtOnce(_ spans: [Span]) -> (count: Int, since: UInt64, spans: [Span])? {
        guard !spans.isEmpty else { return nil }
        // At one instant an end counts before a start, so spans that only touch are not counted together.
        let edges = spans.flatMap { span -> [(time: UInt64, change: Int)] in [(span.start, 1), (span.end ?? .max, -1)] }
            .sorted { $0.time != $1.time ? $0.time < $1.time : $0.change < $1.change }
        var open = 0
        var widest = (count: 0, since: UInt64(0))
        for edge in edges {
            open += edge.change
            if open > widest.count { widest = (open, edge.time) }
        }
        let openThen = spans.filter { $0.start <= widest.since && ($0.end ?? .max) > widest.since }
        return (widest.count, widest.since, openThen)
    }
}

extension OperationRecord {
    /// The first time the operation reported `state`, with the thread and queue that reported it.
    public func firstChange(to state: OperationState) -> Change? {
        changes.first { $0.state == state }
    }

    /// Whether the operation ever reported `state`.
    public func reported(_ state: OperationState) -> Bool {
        firstChange(to: state) != nil
    }
}
