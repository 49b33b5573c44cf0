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

    /// A mark called `name`.
    public static func mark(_ name: String, at milliseconds: Int, thread: Int32 = pid, queue: String = "com.apple.main-thread") -> String {
        line("mark", at: milliseconds, thread: thread, queue: queue, #""name":"\#(name)""#)
    }

    /// The record of a run of process `pid` begun at `start` that sent `lines`, taken in the order of their stamps
    /// (lines with one stamp in the order given), and ended as `ending` at `endedAt`, by default a millisecond after
    /// the last line.
    public static func record(_ lines: [String], pid: Int32 = pid, start: UInt64 = start,
                              ending: RunEnding = .exited(code: 0), endedAt: UInt64? = nil) throws -> RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: pid, time: start))
        let events = try lines.map { try TraceLineParser.parse(Array($0.utf8)).get() }
        for event in events.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) {
            record.apply(.trace(event.element))
        }
        record.apply(.ended(ending, time: endedAt ?? (events.map(\.time).max() ?? start) + 1_000_000))
        return record
    }
}
