/// A thread that took part in a run. It is named by when it first appeared, not by a queue: over a run a
/// thread serves many queues, and each span, mark and printed line carries the queue it ran on.
public struct ThreadLane: Sendable, Equatable {
    public var thread: Int32
    /// 0 for the main thread; the others count from 1 in the order they first appeared.
    public var number: Int
    public var isMain: Bool
    /// The deepest `Span.depth` of a span begun on the thread: 0 while its spans never nested.
    public var deepestNesting = 0

    /// The most rows a thread's lane takes where spans nest (the thread view, the SVG picture): one per level, the
    /// deeper levels sharing the last.
    public static let maximumNestingRows = 3

    /// "main" or "T1", "T2"…: the one name a lane has everywhere.
    public var name: String { isMain ? "main" : "T\(number)" }
}

/// A queue label as the tutorial writes it, and the letter that stands for it where a label does not fit.
public enum QueueLabel {
    private static let keys = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// "A" for the first queue a run saw (`RunRecord.queueNumber(of:)` 0), "B" for the next…; past Z they come round again.
    /// Plain mode's text timeline, the interface's legend and its output lines use the same letters.
    public static func key(_ number: Int) -> Character {
        keys[number % keys.count]
    }

    /// The label itself, or "no queue" for work that ran on a thread of its own (`dispatch_queue_get_label` gave "").
    public static func shown(_ label: String) -> String {
        label.isEmpty ? "no queue" : label
    }
}
