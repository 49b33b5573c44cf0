import Foundation
import PageProtocol

/// Small questions judges and predictions ask of a run's record: which spans, which operation, which thread.
/// Each reads only what the record holds (spans, marks, operation states, lanes), never the page's printed text.
extension RunRecord {
    /// Spans named `name` the record holds, in order of their start: those that ended, and, once the run is over,
    /// those it ended inside (their `end` is nil).
    public func spans(named name: String) -> [Span] {
        spans.filter { $0.name == name }.sorted { $0.start < $1.start }
    }

    /// Spans named `name` that began and never ended: still open, or open when the run ended. In order of their start.
    public func openSpans(named name: String) -> [Span] {
        (spans.filter { $0.end == nil } + openSpans.values).filter { $0.name == name }.sorted { $0.start < $1.start }
    }

    /// The first operation named `name` that reported a state, if any did.
    public func operation(named name: String) -> OperationRecord? {
        operations.first { $0.name == name }
    }

    /// Seconds from the start of the run to `time`, as a learner reads it: "0.12 s".
    public func secondsText(at time: UInt64) -> String {
        let seconds = self.seconds(at: time)
        return seconds < 10 ? "\(String(format: "%.2f", seconds)) s" : "\(String(format: "%.1f", seconds)) s"
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

    /// Whether `thread` is one the run saw other than the main thread: in these programs, a thread of a pool
    /// (a dispatch worker, which also runs `OperationQueue`'s operations) or one the page started itself.
    public func isBackgroundThread(_ thread: Int32) -> Bool {
        lane(for: thread).map { !$0.isMain } ?? false
    }
}

extension OperationRecord {
    /// The first time the operation reported `state`, with the thread and queue that reported it.
    public func firstChange(to state: OperationState) -> Change? {
        changes.first { $0.state == state }
    }
}
