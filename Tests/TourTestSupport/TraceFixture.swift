import Foundation
import PageProtocol
import TourCore

/// Run records for graders and judges, folded from lines of the trace channel (docs/trace-format.md) as the host
/// decodes them, so a prediction or a check is tested on a run that never happened.
public enum TraceFixture {
    /// The process id of a fixture run, and so its main thread's id.
    public static let pid: Int32 = 100
    /// When a fixture run starts, on the monotonic clock; lines are stamped in milliseconds after it.
    public static let start: UInt64 = 1_000_000_000

    /// One trace line of `kind`, `milliseconds` into the run, from `thread` running `queue`, with the kind's own
    /// fields as JSON members (`"name":"completion block"`).
    public static func line(_ kind: String, at milliseconds: Int, thread: Int32 = pid, queue: String = "com.apple.main-thread",
                            _ fields: String) -> String {
        #"{"e":"\#(kind)","t":\#(start + UInt64(milliseconds) * 1_000_000),"tid":\#(thread),"q":"\#(queue)",\#(fields)}"#
    }

    /// The `op` line of operation `oid` called `name` reaching `state`.
    public static func state(_ name: String, _ oid: Int, _ state: String, at milliseconds: Int, thread: Int32 = pid,
                             queue: String = "com.apple.main-thread") -> String {
        line("op", at: milliseconds, thread: thread, queue: queue, #""op":"\#(name)","oid":\#(oid),"state":"\#(state)""#)
    }

    /// The `dep` line of operation `oid` called `name` waiting for `dependencyID` called `dependency`.
    public static func dependency(_ name: String, _ oid: Int, on dependency: String, _ dependencyID: Int, at milliseconds: Int,
                                  thread: Int32 = pid) -> String {
        line("dep", at: milliseconds, thread: thread, #""op":"\#(name)","oid":\#(oid),"on":"\#(dependency)","onid":\#(dependencyID)"#)
    }

    /// The `begin` and `end` lines of span `id` called `name`; no `end` when `to` is nil.
    public static func span(_ id: Int, _ name: String, from: Int, to: Int?, thread: Int32 = pid,
                            queue: String = "com.apple.main-thread") -> [String] {
        let fields = #""id":\#(id),"name":"\#(name)""#
        return [line("begin", at: from, thread: thread, queue: queue, fields)]
            + (to.map { [line("end", at: $0, thread: thread, queue: queue, fields)] } ?? [])
    }

    /// A mark called `name`.
    public static func mark(_ name: String, at milliseconds: Int, thread: Int32 = pid, queue: String = "com.apple.main-thread") -> String {
        line("mark", at: milliseconds, thread: thread, queue: queue, #""name":"\#(name)""#)
    }

    /// The `task` line of traced task `number` reaching `phase` ("start" or "end").
    public static func task(_ number: Int, _ name: String, parent: Int?, kind: String = "child", _ phase: String, at milliseconds: Int,
                            thread: Int32, queue: String = "") -> String {
        line("task", at: milliseconds, thread: thread, queue: queue,
             #""task":\#(number),"# + (parent.map { #""parent":\#($0),"# } ?? "") + #""name":"\#(name)","kind":"\#(kind)","phase":"\#(phase)""#)
    }

    /// The `begin` and `end` lines of span `id`, run in traced task `task` (none when nil) on one thread, as a span is.
    public static func span(_ id: Int, _ name: String, task: Int?, from: Int, to: Int, thread: Int32, queue: String = "") -> [String] {
        let taskField = task.map { #","task":\#($0)"# } ?? ""
        return [line("begin", at: from, thread: thread, queue: queue, #""id":\#(id),"name":"\#(name)""# + taskField),
                line("end", at: to, thread: thread, queue: queue, #""id":\#(id),"name":"\#(name)""#)]
    }

    /// A run with nested traced tasks, ended at 420 ms: the unstructured task 1 "load album" (started on thread 101,
    /// ended on 102) with the children 2 "download a" (moves from thread 102 to 101 between its spans) and
    /// 3 "download b" (stays on 101), 3's child 4 "thumbnail" on 103, and 5 "logger", detached from 1 and still
    /// running when the run ended; the main thread's span "main waits" runs in no traced task.
    public static var nestedTasks: [String] {
        var lines = span(8, "main waits", task: nil, from: 1, to: 410, thread: pid)
        lines += [task(1, "load album", parent: nil, kind: "unstructured", "start", at: 10, thread: 101)]
        lines += span(1, "list photos", task: 1, from: 20, to: 60, thread: 101)
        lines += [task(5, "logger", parent: 1, kind: "detached", "start", at: 50, thread: 103)]
        lines += span(7, "log", task: 5, from: 55, to: 65, thread: 103)
        lines += [task(2, "download a", parent: 1, "start", at: 70, thread: 102)]
        lines += [task(3, "download b", parent: 1, "start", at: 75, thread: 101)]
        lines += span(2, "fetch a", task: 2, from: 80, to: 150, thread: 102)
        lines += span(3, "fetch b", task: 3, from: 90, to: 180, thread: 101)
        lines += [task(4, "thumbnail", parent: 3, "start", at: 120, thread: 103)]
        lines += span(6, "scale", task: 4, from: 125, to: 170, thread: 103)
        lines += [task(4, "thumbnail", parent: 3, "end", at: 175, thread: 103)]
        lines += [task(3, "download b", parent: 1, "end", at: 190, thread: 101)]
        lines += span(4, "decode a", task: 2, from: 220, to: 260, thread: 101)
        lines += [task(2, "download a", parent: 1, "end", at: 270, thread: 101)]
        lines += span(5, "save album", task: 1, from: 300, to: 380, thread: 102)
        lines += [task(1, "load album", parent: nil, kind: "unstructured", "end", at: 400, thread: 102)]
        return lines
    }

    /// The record of a run of process `pid` begun at `start` that sent `lines`, taken in the order of their stamps
    /// (lines with one stamp in the order given), and ended as `ending` at `endedAt`, by default a millisecond after
    /// the last line.
    ///
    /// `samples` are the host's thread-state samples, each `milliseconds` into the run with what it read of each thread
    /// (`HostEvent.threadStates`), folded in their place among the lines (after the lines with the same stamp).
    public static func record(_ lines: [String], samples: [(milliseconds: Int, readings: [ThreadStateReading])] = [],
                              pid: Int32 = pid, start: UInt64 = start,
                              ending: RunEnding = .exited(code: 0), endedAt: UInt64? = nil) throws -> RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: pid, time: start))
        let events = try lines.map { try TraceLineParser.parse(Array($0.utf8)).get() }
        var timed: [(time: UInt64, order: Int, event: HostEvent)] = events.enumerated().map { ($0.element.time, $0.offset, .trace($0.element)) }
        timed += samples.enumerated().map { index, sample in
            let time = start + UInt64(sample.milliseconds) * 1_000_000
            return (time, events.count + index, .threadStates(sample.readings, time: time))
        }
        for item in timed.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) {
            record.apply(item.event)
        }
        record.apply(.ended(ending, time: endedAt ?? (events.map(\.time).max() ?? start) + 1_000_000))
        return record
    }
}
