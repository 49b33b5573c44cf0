import TourCore

/// A run with three phases (`phase` events), the same workload of two photos done three ways, ended at 700 ms.
/// Each way hands each photo from its download to its filter (`hand-off` spans):
/// - "operations" (0–200 ms) on threads 101, 102, 103: a's hand-off hops from 101 to 103 in 4 ms, b's stays on 102;
/// - "GCD" (300–450 ms) on 101 and 102: a's stays on 101, b's hops from 102 to 101 in 30 ms;
/// - "task group" (500–620 ms): the downloads begin on 104 and resume on 105 and 104; both hand-offs begin on the
///   timer's thread 106 and hop, in 2 and 3 ms.
extension TraceFixture {
    public static let threePhases: [String] = {
        func phase(_ name: String, _ phase: String, at milliseconds: Int) -> String {
            line("phase", at: milliseconds, #""name":"\#(name)","phase":"\#(phase)""#)
        }
        /// A span that begins on one thread and ends on another.
        func moving(_ id: Int, _ name: String, from: Int, on first: Int32, to: Int, on second: Int32, queue: String = "") -> [String] {
            let fields = #""id":\#(id),"name":"\#(name)""#
            return [line("begin", at: from, thread: first, queue: queue, fields), line("end", at: to, thread: second, queue: queue, fields)]
        }
        let pool = "com.apple.root.default-qos", cooperative = "Swift global concurrent queue"
        var lines = [line("hello", at: 0, #""v":1,"page":"Lesson10TaskGroups","pid":\#(pid),"speed":1.0"#)]
        lines.append(phase("operations", "start", at: 0))
        lines += span(1, "operations: download a", from: 0, to: 100, thread: 101, queue: "three ways")
        lines += span(2, "operations: download b", from: 0, to: 100, thread: 102, queue: "three ways")
        lines += moving(3, "hand-off a", from: 100, on: 101, to: 104, on: 103, queue: "three ways")
        lines += moving(4, "hand-off b", from: 100, on: 102, to: 101, on: 102, queue: "three ways")
        lines += span(5, "operations: tilt-shift b", from: 101, to: 140, thread: 102, queue: "three ways")
        lines += span(6, "operations: tilt-shift a", from: 104, to: 150, thread: 103, queue: "three ways")
        lines.append(phase("operations", "end", at: 200))
        lines.append(phase("GCD", "start", at: 300))
        lines += span(7, "GCD: download a", from: 300, to: 400, thread: 101, queue: pool)
        lines += span(8, "GCD: download b", from: 300, to: 400, thread: 102, queue: pool)
        lines += moving(9, "hand-off a", from: 400, on: 101, to: 402, on: 101, queue: pool)
        lines += moving(10, "hand-off b", from: 400, on: 102, to: 430, on: 101, queue: pool)
        lines += span(11, "GCD: tilt-shift a", from: 402, to: 430, thread: 101, queue: pool)
        lines += span(12, "GCD: tilt-shift b", from: 430, to: 449, thread: 101, queue: pool)
        lines.append(phase("GCD", "end", at: 450))
        lines.append(phase("task group", "start", at: 500))
        lines += moving(13, "task group: download a", from: 500, on: 104, to: 600, on: 105, queue: cooperative)
        lines += moving(14, "task group: download b", from: 500, on: 104, to: 601, on: 104, queue: cooperative)
        lines += moving(15, "hand-off a", from: 598, on: 106, to: 600, on: 105, queue: pool)
        lines += moving(16, "hand-off b", from: 598, on: 106, to: 601, on: 104, queue: pool)
        lines += span(17, "task group: tilt-shift a", from: 600, to: 610, thread: 105, queue: cooperative)
        lines += span(18, "task group: tilt-shift b", from: 601, to: 615, thread: 104, queue: cooperative)
        lines.append(phase("task group", "end", at: 620))
        return lines
    }()
}
