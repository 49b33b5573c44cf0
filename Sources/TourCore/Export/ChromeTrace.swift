@preconcurrency import Glibc
import Foundation

/// Writes a run as Chrome Trace Event JSON, the format Perfetto and chrome://tracing open:
/// one thread per lane, named as everywhere else ("main", "T3"), complete (`X`) events for spans, instants for
/// marks, operation states and printed lines, each with the queue it ran on in its `args` (a span's with its CPU time,
/// `cpu_ms`), flow arrows from each dependency's end to its dependent's start, each end inside a slice on its thread, each thread's sampled states (running, waiting) as slices on a
/// track of their own beside the thread's (`stateTrack(of:)`), and each operation's life as async slices: one from
/// its first state to its last, holding one slice per state it passed through. Each traced Swift task is an async
/// slice too (`b`/`e`, `cat` "task", `id` its number) from its start to its end, with its spans nested in it as async
/// slices of their own, each naming the thread that ran it, since a task's spans may run on several threads.
public enum ChromeTrace {
    public static func document(for record: RunRecord, title: String) -> [String: Any] {
        let pid = Int(record.pid ?? 0)
        let origin = record.startTime ?? 0
        func microseconds(_ time: UInt64) -> Double { Double(Int64(bitPattern: time &- origin)) / 1e3 }

        var events: [[String: Any]] = [
            ["ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": ["name": title]],
        ]
        for (index, lane) in record.threads.enumerated() {
            events.append(["ph": "M", "name": "thread_name", "pid": pid, "tid": Int(lane.thread), "args": ["name": lane.name]])
            events.append(["ph": "M", "name": "thread_sort_index", "pid": pid, "tid": Int(lane.thread), "args": ["sort_index": index]])
        }
        for (index, lane) in record.threads.enumerated() {
            guard let stretches = record.threadStates[lane.thread], !stretches.isEmpty else { continue }
            let track = stateTrack(of: lane.thread)
            events.append(["ph": "M", "name": "thread_name", "pid": pid, "tid": track, "args": ["name": "\(lane.name) state"]])
            events.append(["ph": "M", "name": "thread_sort_index", "pid": pid, "tid": track, "args": ["sort_index": index]])
            for stretch in stretches {
                events.append(["ph": "X", "name": stretch.state == .running ? "running" : "waiting", "cat": "thread state",
                               "pid": pid, "tid": track, "ts": microseconds(stretch.start),
                               "dur": Double(stretch.end &- stretch.start) / 1e3, "args": ["thread": Int(lane.thread)]])
            }
        }
        for operation in record.operations {
            events += operationSlices(operation, end: record.endTime, pid: pid, microseconds: microseconds)
        }
        for span in record.spans {
            let end = span.end ?? record.endTime ?? span.start
            var args: [String: Any] = ["queue": span.queue, "finished": span.end != nil]
            // The processor time its thread spent in it, as the timeline's selected span shows it; a span that ended
            // on another thread has none to give, and says so.
            if let cpu = span.cpuNanoseconds {
                args["cpu_ms"] = Double(cpu) / 1e6
            } else {
                args["cpu_ms"] = span.end == nil ? "unknown: the span never ended" : "unknown: the span ended on another thread"
            }
            events.append(["ph": "X", "name": span.name, "cat": "span", "pid": pid, "tid": Int(span.thread),
                           "ts": microseconds(span.start), "dur": Double(end &- span.start) / 1e3, "args": args])
        }
        for mark in record.marks {
            events.append(["ph": "i", "s": "t", "name": mark.name, "cat": "mark", "pid": pid, "tid": Int(mark.thread),
                           "ts": microseconds(mark.time), "args": ["queue": mark.queue]])
        }
        for operation in record.operations {
            for change in operation.changes {
                events.append(["ph": "i", "s": "t", "name": "\(operation.name): \(change.state.rawValue)", "cat": "operation",
                               "pid": pid, "tid": Int(change.thread), "ts": microseconds(change.time), "args": ["queue": change.queue]])
            }
        }
        for line in record.output {
            guard let thread = line.thread else { continue }
            events.append(["ph": "i", "s": "t", "name": line.text, "cat": "output", "pid": pid, "tid": Int(thread),
                           "ts": microseconds(line.time), "args": ["queue": line.queue ?? ""]])
        }
        let byID = Dictionary(record.operations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let spansByThread = Dictionary(grouping: record.spans, by: \.thread)
        /// Where a flow's end lands: inside a slice on its thread, as the Trace Event Format binds a flow event to the
        /// slice that encloses it. Inside the innermost span there when one encloses the moment (a hair from its edges,
        /// so no viewer has to choose between two slices that touch), else in a slice of a microsecond made for it,
        /// named for the state change it marks.
        func flowPoint(_ change: OperationRecord.Change, of operation: String) -> Double {
            let time = microseconds(change.time)
            let enclosing = (spansByThread[change.thread] ?? []).filter { span in
                span.start <= change.time && change.time <= (span.end ?? record.endTime ?? span.start) && span.end != span.start
            }.max { $0.start < $1.start }
            if let span = enclosing {
                let start = microseconds(span.start)
                let end = microseconds(span.end ?? record.endTime ?? span.start)
                let hair = min(0.001, (end - start) / 4)
                return min(max(time, start + hair), end - hair)
            }
            events.append(["ph": "X", "name": "\(operation): \(change.state.rawValue)", "cat": "operation", "pid": pid,
                           "tid": Int(change.thread), "ts": time, "dur": 0.001, "args": ["queue": change.queue]])
            return time + 0.0005
        }
        for (index, dependency) in record.dependencies.enumerated() {
            guard let before = byID[dependency.dependsOn]?.changes.last(where: { $0.state == .finished }),
                  let after = byID[dependency.operation]?.changes.first(where: { $0.state == .executing }) else { continue }
            let common: [String: Any] = ["name": "\(dependency.dependencyName) → \(dependency.operationName)",
                                         "cat": "dependency", "pid": pid, "id": index + 1]
            let from = flowPoint(before, of: dependency.dependencyName)
            let to = flowPoint(after, of: dependency.operationName)
            events.append(common.merging(["ph": "s", "tid": Int(before.thread), "ts": from]) { $1 })
            events.append(common.merging(["ph": "f", "bp": "e", "tid": Int(after.thread), "ts": to]) { $1 })
        }
        for task in record.tasks {
            let common: [String: Any] = ["cat": "task", "pid": pid, "id": task.number, "tid": Int(task.thread)]
            var args: [String: Any] = ["task": task.number, "kind": task.kind.rawValue, "finished": task.end != nil]
            if let parent = task.parent { args["parent"] = parent }
            events.append(common.merging(["ph": "b", "name": task.name, "ts": microseconds(task.start), "args": args]) { $1 })
            for span in record.spans where span.task == task.number {
                let spanArgs: [String: Any] = ["thread": record.laneName(of: span.thread), "queue": span.queue]
                events.append(common.merging(["ph": "b", "name": span.name, "ts": microseconds(span.start), "args": spanArgs]) { $1 })
                events.append(common.merging(["ph": "e", "name": span.name, "ts": microseconds(span.end ?? record.endTime ?? span.start)]) { $1 })
            }
            events.append(common.merging(["ph": "e", "name": task.name, "ts": microseconds(task.end ?? record.endTime ?? task.start)]) { $1 })
        }
        var other: [String: Any] = ["page": title]
        if let ending = record.ending { other["ending"] = ending.headline }
        return ["traceEvents": events, "displayTimeUnit": "ms", "otherData": other]
    }

    /// The track a thread's states go on: a thread of their own, since a state's stretch may begin inside a span and
    /// end after it, which slices on one thread may not do. Kernel thread ids stay below 2²² (`pid_max`), so the
    /// offset never meets a real thread.
    public static func stateTrack(of thread: Int32) -> Int {
        Int(thread) + stateTrackOffset
    }

    public static let stateTrackOffset = 1 << 30

    /// An operation's life as async slices (`b`, `e`) with its id: the whole from its first reported state to its last
    /// (the run's end when it never finished), holding one slice per state from its change to the next.
    private static func operationSlices(_ operation: OperationRecord, end runEnd: UInt64?, pid: Int,
                                        microseconds: (UInt64) -> Double) -> [[String: Any]] {
        guard let first = operation.changes.first, let last = operation.changes.last else { return [] }
        let finished = last.state == .finished || last.state == .cancelled
        let end = finished ? last.time : max(last.time, runEnd ?? last.time)
        func slice(_ phase: String, _ name: String, at time: UInt64, thread: Int32, args: [String: Any] = [:]) -> [String: Any] {
            ["ph": phase, "name": name, "cat": "operation", "id": operation.id, "pid": pid, "tid": Int(thread),
             "ts": microseconds(time), "args": args]
        }
        var slices = [slice("b", operation.name, at: first.time, thread: first.thread,
                            args: ["finished": finished, "queue": first.queue])]
        for (index, change) in operation.changes.enumerated() {
            let until = index + 1 < operation.changes.count ? operation.changes[index + 1].time : end
            // A finished or cancelled operation's last state is where its life ends, not a stretch of it.
            if index == operation.changes.count - 1 && finished { break }
            slices.append(slice("b", change.state.rawValue, at: change.time, thread: change.thread, args: ["queue": change.queue]))
            slices.append(slice("e", change.state.rawValue, at: max(change.time, until), thread: change.thread))
        }
        slices.append(slice("e", operation.name, at: end, thread: last.thread))
        return slices
    }

    /// What is wrong with `path` as the file `--trace` writes, or nil when it can be written (`ExportTarget`).
    public static func problem(withTarget path: String) -> String? {
        ExportTarget.problem(withTarget: path, option: "--trace", example: "run.json", noun: "trace")
    }

    /// Writes the document to `path`, replacing a regular file there and nothing else.
    public static func write(_ record: RunRecord, title: String, to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: document(for: record, title: title), options: [.sortedKeys])
        try ExportTarget.write(data, to: path, option: "--trace", example: "run.json", noun: "trace")
    }

}
