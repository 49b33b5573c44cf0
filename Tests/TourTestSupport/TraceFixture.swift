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
