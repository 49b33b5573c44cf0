import TourCore

/// What the timeline pane shows of a run: its zoom, where it is panned to, and the selected span.
public struct TimelineState: Equatable, Sendable {
    /// Seconds one column stands for; nil fits the whole run into the pane and keeps fitting as it grows.
    public var secondsPerColumn: Double?
    /// Seconds from the start of the run at the left edge, when zoomed.
    public var startSeconds = 0.0
    public var selectedLane = 0
    /// The selected span, by its id in the run.
    public var selectedSpanID: Int?
    /// The selected mark on the selected lane, by its time; a mark and a span are never selected together.
    public var selectedMarkTime: UInt64?
    /// The first lane shown, when there are more lanes than rows.
    public var laneScroll = 0
    /// How the lanes are laid out.
    public var view = TimelineViewKind.threads
    /// When zoomed, whether the view keeps the run's latest moment in sight as it grows (`F`), or stays where it was put.
    public var followsLiveEdge = false
    /// The query being typed after `/`, nil when no search is open.
    public var searchQuery: String?
    /// The latest query searched for, offered again when `/` opens the next search.
    public var lastSearch = ""

    public init() {}

    /// The finest zoom: a tenth of a millisecond per column.
    static let finestSecondsPerColumn = 0.000_1
}

/// How the timeline lays a run out: a lane per thread, a lane per queue, a row per operation, or a row per Swift task.
public enum TimelineViewKind: String, Sendable, CaseIterable {
    case threads, queues, operations, tasks
}

/// What `h` and `l` step through on a lane, in order of time: its spans and its marks.
enum TimelineItem: Equatable {
    case span(TimelineSpan)
    case mark(Mark)

    var start: UInt64 {
        switch self {
        case .span(let shown): shown.span.start
        case .mark(let mark): mark.time
        }
    }
}

/// A span as the timeline shows it: completed or still open, with the end an open span has reached so far.
public struct TimelineSpan: Equatable, Sendable {
    public var span: Span
    public var end: UInt64
    /// Still running, or left running when the run ended (a stuck page's spans end with the run).
    public var isOpen: Bool
}

extension RunRecord {
    /// The latest time the run has reached: its end, or `now` while it runs (never before its last event).
    public func reachedTime(now: UInt64) -> UInt64 {
        if let endTime { return endTime }
        let latest = [spans.last?.end, marks.last?.time, output.last?.time, results.last?.time].compactMap { $0 }.max() ?? 0
        return max(now, latest, startTime ?? 0)
    }

    /// Completed and open spans on the lane `key` (a thread or a queue), in order of their start; open ones reach `now`.
    public func timelineSpans(in key: TimelineLanes.Key, now: UInt64) -> [TimelineSpan] {
        let reached = reachedTime(now: now)
        let belongs: (Span) -> Bool
        switch key {
        case .thread(let thread): belongs = { $0.thread == thread }
        case .queue(let queue): belongs = { $0.queue == queue }
        }
        var result = spans.filter(belongs).map(closed)
        result += openSpans.values.filter(belongs).map { TimelineSpan(span: $0, end: max($0.start, reached), isOpen: true) }
        return result.sorted { ($0.span.start, $0.span.id) < ($1.span.start, $1.span.id) }
    }

    /// The marks on the lane `key`, oldest first.
    func marks(in key: TimelineLanes.Key) -> [Mark] {
        switch key {
        case .thread(let thread): marks.filter { $0.thread == thread }
        case .queue(let queue): marks.filter { $0.queue == queue }
        }
    }

    /// The spans and marks on the lane `key`, in order of time; a span comes before a mark at the same instant.
    func timelineItems(in key: TimelineLanes.Key, now: UInt64) -> [TimelineItem] {
        let spans = timelineSpans(in: key, now: now).map(TimelineItem.span)
        let marks = marks(in: key).map(TimelineItem.mark)
        return (spans + marks).enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// The mark at `time` on the lane `key`, if the record still holds it.
    func mark(at time: UInt64, in key: TimelineLanes.Key) -> Mark? {
        marks.last { mark in
            guard mark.time == time else { return false }
            switch key {
            case .thread(let thread): return mark.thread == thread
            case .queue(let queue): return mark.queue == queue
            }
        }
    }

    /// The span with this id, completed or open.
    public func timelineSpan(id: Int, now: UInt64) -> TimelineSpan? {
        if let open = openSpans[id] {
            return TimelineSpan(span: open, end: max(open.start, reachedTime(now: now)), isOpen: true)
        }
        return spans.last { $0.id == id }.map(closed)
    }

    /// A span from the completed list; one the run ended before it finished reaches the end of the run.
    private func closed(_ span: Span) -> TimelineSpan {
        TimelineSpan(span: span, end: span.end ?? endTime ?? span.start, isOpen: span.end == nil)
    }
}
