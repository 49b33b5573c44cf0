import Foundation
import PageProtocol
import TourCore
import TourTestSupport

/// Run records made from trace lines as a page writes them (docs/trace-format.md), for judges and predictions
/// to be tested on runs that did exactly what a test needs, whatever a real run on this machine would do.
struct FixtureRun {
    /// The page's process id, which is also its main thread's.
    static let pid: Int32 = 100
    /// When the run started, in nanoseconds; every time below is seconds after it.
    static let start = TraceFixture.start

    private(set) var lines: [String] = []

    /// Nanoseconds at `seconds` into the run.
    static func time(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }

    /// `TraceFixture` stamps lines in whole milliseconds after the same start.
    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1_000).rounded()) }

    mutating func begin(_ id: Int, _ name: String, at seconds: Double, thread: Int32) {
        lines.append(TraceFixture.line("begin", at: Self.milliseconds(seconds), thread: thread, queue: "com.apple.root.default-qos",
                                       #""id":\#(id),"name":"\#(name)""#))
    }

    mutating func end(_ id: Int, _ name: String, at seconds: Double, thread: Int32) {
        lines.append(TraceFixture.line("end", at: Self.milliseconds(seconds), thread: thread, queue: "com.apple.root.default-qos",
                                       #""id":\#(id),"name":"\#(name)""#))
    }

    mutating func op(_ name: String, _ oid: Int, _ state: OperationState, at seconds: Double, thread: Int32) {
        lines.append(TraceFixture.state(name, oid, state.rawValue, at: Self.milliseconds(seconds), thread: thread, queue: "image loads"))
    }

    /// The record of these lines, ended with `ending` at `endSeconds`.
    func record(ending: RunEnding = .exited(code: 0), at endSeconds: Double = 5) throws -> RunRecord {
        try TraceFixture.record(lines, pid: Self.pid, start: Self.start, ending: ending, endedAt: Self.time(endSeconds))
    }
}
