import Foundation

/// Questions the exercises' judges and predictions ask of a run's record, in the run's own terms.
extension RunRecord {
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

    /// A moment of the run as a finding states it, in seconds from the run's start: "0.42 s".
    public func moment(_ time: UInt64) -> String {
        String(format: "%.2f s", seconds(at: time))
    }
}
