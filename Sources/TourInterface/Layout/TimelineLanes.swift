import Foundation
import TourCore

/// The lanes of the timeline's thread and queue views, top to bottom: a lane per thread, or a lane per queue with
/// as many rows as spans of that queue ran at once, so a serial queue is one row and a concurrent queue's overlap
/// shows as stacked rows.
public struct TimelineLanes: Sendable {
    /// What a lane stands for.
    public enum Key: Hashable, Sendable {
        case thread(Int32)
        case queue(String)
    }

    public struct Lane: Equatable, Sendable {
        public var key: Key
        /// "main", "T3", or a queue's label without the prefix it shares with the others.
        public var title: String
        /// Rows the lane takes: for a thread, 1 and one more per level of spans nested inside spans (up to
        /// `ThreadLane.maximumNestingRows`); for a queue the spans that overlapped at most (up to `QueueRows.maximum`).
        public var rows: Int
    }

    public let view: TimelineViewKind
    public let lanes: [Lane]
    /// For the queue view, the row inside its queue's lane of each span, by id; 0 for any span not listed.
    let subRows: [Int: Int]
    private let index: [Key: Int]

    /// The lanes of `view` for `record`; `queueRows` is the model's cache of queue rows, kept between frames. With
    /// `workFirst` (on stage, where the timeline does not scroll), the threads that ran a span or made a mark come
    /// before those that only waited, each group in its own order, so the lanes a room is shown are those that did the
    /// work, and the border counts the rest.
    init(_ record: RunRecord, view: TimelineViewKind, queueRows: QueueRows, now: UInt64, workFirst: Bool = false) {
        self.view = view
        switch view {
        case .queues:
            let assignment = queueRows.assignment(for: record, now: now)
            let titles = QueueTitles.withoutCommonPrefix(record.queues.map(QueueLabel.shown))
            lanes = record.queues.enumerated().map { number, label in
                Lane(key: .queue(label), title: titles[number], rows: max(1, assignment.rows.indices.contains(number) ? assignment.rows[number] : 1))
            }
            subRows = assignment.subRows
        default:
            let all = record.threads.map {
                Lane(key: .thread($0.thread), title: $0.name, rows: min(1 + $0.deepestNesting, ThreadLane.maximumNestingRows))
            }
            if workFirst {
                let working = Set(record.spans.map(\.thread) + record.openSpans.values.map(\.thread) + record.marks.map(\.thread))
                let worked = { (lane: Lane) -> Bool in if case .thread(let thread) = lane.key { working.contains(thread) } else { false } }
                lanes = all.filter(worked) + all.filter { !worked($0) }
            } else {
                lanes = all
            }
            subRows = [:]
        }
        var index: [Key: Int] = [:]
        for (number, lane) in lanes.enumerated() { index[lane.key] = number }
        self.index = index
    }

    /// No lanes: the operations and tasks views lay out rows of their own.
    init(rowsOf view: TimelineViewKind) {
        self.view = view
        lanes = []
        subRows = [:]
        index = [:]
    }

    /// The lane a span, mark or printed line with this thread and queue sits on, in this view.
    public func lane(thread: Int32, queue: String) -> Int? {
        index[view == .queues ? .queue(queue) : .thread(thread)]
    }

    /// The lane of `key`, if the view has one.
    public func lane(of key: Key) -> Int? { index[key] }

    /// The row inside its lane of a span: in the queue view the row it was placed on, in the thread view its depth
    /// of nesting (`Span.depth`), so a span inside another sits under it.
    func subRow(of span: Span) -> Int {
        view == .queues ? subRows[span.id] ?? 0 : min(span.depth, ThreadLane.maximumNestingRows - 1)
    }

    /// Whether the lane stands for `thread` and queue `queue` (in the queue view, any thread).
    func contains(_ lane: Int, thread: Int32, queue: String) -> Bool {
        lanes.indices.contains(lane) && lanes[lane].key == (view == .queues ? .queue(queue) : .thread(thread))
    }
}

/// Which row of its queue's lane each span takes: the first row where it overlaps no span already placed, so spans
/// that ran at once sit on rows of their own. Kept between frames in the model's `RenderCaches`: completed spans
/// are placed once, in the order they ended; open spans are placed afresh each frame after them.
final class QueueRows: @unchecked Sendable {
    /// The most rows a queue's lane takes; spans beyond share the last row.
    static let maximum = 6

    struct Assignment {
        /// Rows per queue, by its number in the record (`RunRecord.queueNumber(of:)`).
        var rows: [Int] = []
        /// The row of each span, by id (completed and open).
        var subRows: [Int: Int] = [:]
    }

    private let lock = NSLock()
    /// The latest end of the spans on each row of each queue, by the queue's number.
    private var rowEnds: [[UInt64]] = []
    private var placed = Assignment()
    /// Spans placed, counting those the record has since dropped, and the last one's id, to tell a record grown
    /// from a different one.
    private var count = 0
    private var lastID: Int?

    func assignment(for record: RunRecord, now: UInt64) -> Assignment {
        lock.withLock {
            let index = count - 1 - record.droppedSpans
            let continues = count == 0 || (index >= 0 && index < record.spans.count && record.spans[index].id == lastID) || index < 0
            // Spans the record has dropped would otherwise keep their places forever in a run that never stops.
            let outgrown = placed.subRows.count > 2 * (record.spans.count + record.openSpans.count) + 1_000
            if !continues || outgrown || record.spans.count + record.droppedSpans < count {
                rowEnds = []
                placed = Assignment()
                count = 0
            }
            // Consecutive spans mostly share a queue, and the record keeps one copy of each label, so comparing
            // with the last label is mostly comparing two pointers, where looking each one up would hash it.
            var lastLabel: String?
            var lastNumber = 0
            func number(of label: String) -> Int {
                if label != lastLabel {
                    lastLabel = label
                    lastNumber = record.queueNumber(of: label) ?? 0
                }
                return lastNumber
            }
            for span in record.spans[max(0, count - record.droppedSpans)...] {
                place(span.id, queue: number(of: span.queue), start: span.start, end: span.end ?? record.endTime ?? span.start,
                      ends: &rowEnds, into: &placed)
            }
            count = record.spans.count + record.droppedSpans
            lastID = record.spans.last?.id
            guard !record.openSpans.isEmpty else { return placed }
            var ends = rowEnds
            var withOpen = placed
            let reached = record.reachedTime(now: now)
            for span in record.openSpans.values.sorted(by: { ($0.start, $0.id) < ($1.start, $1.id) }) {
                place(span.id, queue: number(of: span.queue), start: span.start, end: max(span.start, reached), ends: &ends, into: &withOpen)
            }
            return withOpen
        }
    }

    private func place(_ id: Int, queue: Int, start: UInt64, end: UInt64, ends: inout [[UInt64]], into assignment: inout Assignment) {
        while ends.count <= queue { ends.append([]) }
        while assignment.rows.count <= queue { assignment.rows.append(0) }
        let row = ends[queue].firstIndex { $0 <= start } ?? min(ends[queue].count, Self.maximum - 1)
        if row == ends[queue].count { ends[queue].append(end) } else { ends[queue][row] = max(ends[queue][row], end) }
        assignment.subRows[id] = row
        assignment.rows[queue] = ends[queue].count
    }
}

/// Queue labels as lane titles.
enum QueueTitles {
    /// Each label without the longest prefix, ending in `.`, `-` or `_`, that it shares with another label
    /// ("tour.gcd.serial" and "tour.gcd.concurrent" become "serial" and "concurrent"), so titles show what tells
    /// queues apart. A label keeps its whole text when cutting would leave nothing or make two titles alike.
    static func withoutCommonPrefix(_ labels: [String]) -> [String] {
        let cut = labels.enumerated().map { number, label in
            let shared = labels.enumerated().filter { $0.offset != number }.map { sharedPrefix(label, $0.element) }.max() ?? 0
            return String(label.dropFirst(shared))
        }
        return cut.enumerated().map { number, title in
            title.isEmpty || cut.enumerated().contains { $0.offset != number && $0.element == title } ? labels[number] : title
        }
    }

    /// How many characters of `label` a shared prefix covers, up to and including its last separator.
    private static func sharedPrefix(_ label: String, _ other: String) -> Int {
        var length = 0
        var common = 0
        for (mine, theirs) in zip(label, other) {
            guard mine == theirs else { break }
            common += 1
            if ".-_".contains(mine) { length = common }
        }
        return length < label.count ? length : 0
    }
}
