import Foundation

/// Questions the exercises' judges and predictions ask of a run's record, in the words their findings use.
extension RunRecord {
    /// A time of the run as a finding states it, in seconds from the start with two decimals: "0.42 s".
    public func moment(_ time: UInt64) -> String {
        String(format: "%.2f s", seconds(at: time))
    }

    /// Whether `thread` is the page's main thread, the one its process began on.
    public func isMainThread(_ thread: Int32) -> Bool {
        lane(for: thread)?.isMain ?? (thread == pid)
    }

    /// Whether `thread` is a dispatch pool thread: not the main thread, and it ran a span, a mark or a printed line on a
    /// dispatch queue. A `Thread` of the page's own runs on no queue.
    public func isPoolThread(_ thread: Int32) -> Bool {
        guard !isMainThread(thread) else { return false }
        return spans.contains { $0.thread == thread && !$0.queue.isEmpty }
            || marks.contains { $0.thread == thread && !$0.queue.isEmpty }
            || output.contains { $0.thread == thread && !($0.queue ?? "").isEmpty }
    }

    /// The thread as a learner reads it: "the main thread", "T3, a pool thread" or "T3, a thread of its own".
    public func threadDescription(_ thread: Int32) -> String {
        if isMainThread(thread) { return "the main thread" }
        return "\(laneName(of: thread)), " + (isPoolThread(thread) ? "a pool thread" : "a thread of its own")
    }

    /// The spans still open when the run ended, in the order they began: what a crash or a hang stopped in the middle.
    /// Empty while the run goes on (its open spans are `openSpans` then).
    public var spansOpenAtEnd: [Span] {
        spans.filter { $0.end == nil }.sorted { $0.start < $1.start }
    }

    /// The first span named `name`, by its start.
    public func firstSpan(named name: String) -> Span? {
        spans.filter { $0.name == name }.min { $0.start < $1.start }
    }

    /// The most of `spans` that were open at one instant, and when that many first were; nil for no spans. A span that
    /// ends as another begins does not overlap it, and one still open at the end counts as open to the last.
    public static func mostAtOnce(_ spans: [Span]) -> (count: Int, since: UInt64)? {
        guard !spans.isEmpty else { return nil }
        let edges = spans.flatMap { span -> [(time: UInt64, change: Int)] in [(span.start, 1), (span.end ?? .max, -1)] }
        // At equal times an end counts before a start.
        let ordered = edges.sorted { $0.time != $1.time ? $0.time < $1.time : $0.change < $1.change }
        var open = 0
        var widest = (count: 0, since: UInt64(0))
        for edge in ordered {
            open += edge.change
            if open > widest.count { widest = (open, edge.time) }
        }
        return widest
    }
}
