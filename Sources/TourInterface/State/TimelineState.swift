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
    /// The selected row of the operations view, by its place in the run's operations.
    public var selectedOperation = 0
    /// The warning `W` last jumped to, by its place in the run's warnings; nil when the info row shows no warning.
    public var selectedWarning: Int?
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
    case threads, queues, operations, tasks, phases
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

    /// Where the item comes in its lane's order: by time, a span before a mark at the same instant, spans by id.
    var order: Order {
        switch self {
        case .span(let shown): Order(time: shown.span.start, rank: 0, id: shown.span.id)
        case .mark(let mark): Order(time: mark.time, rank: 1, id: 0)
        }
    }

    struct Order: Comparable {
        var time: UInt64
        var rank: Int
        var id: Int

        static func < (left: Order, right: Order) -> Bool {
            (left.time, left.rank, left.id) < (right.time, right.rank, right.id)
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

    /// Visits each span (completed or open, reaching `now`) and mark on the lane `key`, in no order: finding the
    /// next or the nearest item is one pass, where sorting a busy lane's 50,000 spans for each key was not.
    func forEachItem(in key: TimelineLanes.Key, now: UInt64, _ body: (TimelineItem) -> Void) {
        let reached = reachedTime(now: now)
        switch key {
        case .thread(let thread):
            for span in spans where span.thread == thread { body(.span(closed(span))) }
            for span in openSpans.values where span.thread == thread {
                body(.span(TimelineSpan(span: span, end: max(span.start, reached), isOpen: true)))
            }
            for mark in marks where mark.thread == thread { body(.mark(mark)) }
        case .queue(let queue):
            for span in spans where span.queue == queue { body(.span(closed(span))) }
            for span in openSpans.values where span.queue == queue {
                body(.span(TimelineSpan(span: span, end: max(span.start, reached), isOpen: true)))
            }
            for mark in marks where mark.queue == queue { body(.mark(mark)) }
        }
    }

    /// The first item on the lane `key`, in the lane's order, of those `isCandidate` accepts.
    func firstItem(in key: TimelineLanes.Key, now: UInt64, where isCandidate: (TimelineItem) -> Bool) -> TimelineItem? {
        var best: TimelineItem?
        forEachItem(in: key, now: now) { item in
            if isCandidate(item), best.map({ item.order < $0.order }) ?? true { best = item }
        }
        return best
    }

    /// The last item on the lane `key`, in the lane's order, of those `isCandidate` accepts.
    func lastItem(in key: TimelineLanes.Key, now: UInt64, where isCandidate: (TimelineItem) -> Bool) -> TimelineItem? {
        var best: TimelineItem?
        forEachItem(in: key, now: now) { item in
            if isCandidate(item), best.map({ $0.order < item.order }) ?? true { best = item }
        }
        return best
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
