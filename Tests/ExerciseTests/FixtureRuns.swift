import Foundation
import PageProtocol
import TourCore

/// Run records made from trace lines as a page writes them (docs/trace-format.md), for judges and predictions
/// to be tested on runs that did exactly what a test needs, whatever a real run on this machine would do.
struct FixtureRun {
    /// The page's process id, which is also its main thread's.
    static let pid: Int32 = 100
    /// When the run started, in nanoseconds; every time below is seconds after it.
    static let start: UInt64 = 1_000_000_000

    private(set) var lines: [String] = []

    /// Nanoseconds at `seconds` into the run.
    static func time(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }

    mutating func begin(_ id: Int, _ name: String, at seconds: Double, thread: Int32) {
        lines.append(#"{"e":"begin","t":\#(Self.time(seconds)),"tid":\#(thread),"q":"com.apple.root.default-qos","id":\#(id),"name":"\#(name)"}"#)
    }

    mutating func end(_ id: Int, _ name: String, at seconds: Double, thread: Int32) {
        lines.append(#"{"e":"end","t":\#(Self.time(seconds)),"tid":\#(thread),"q":"com.apple.root.default-qos","id":\#(id),"name":"\#(name)"}"#)
    }

    mutating func op(_ name: String, _ oid: Int, _ state: OperationState, at seconds: Double, thread: Int32) {
        lines.append(#"{"e":"op","t":\#(Self.time(seconds)),"tid":\#(thread),"q":"image loads","op":"\#(name)","oid":\#(oid),"state":"\#(state.rawValue)"}"#)
    }

    /// The record of these lines, ended with `ending` at `endSeconds`.
    func record(ending: RunEnding = .exited(code: 0), at endSeconds: Double = 5) throws -> RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: Self.pid, time: Self.start))
        for line in lines {
            record.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get()))
        }
        record.apply(.ended(ending, time: Self.time(endSeconds)))
        return record
    }
}
