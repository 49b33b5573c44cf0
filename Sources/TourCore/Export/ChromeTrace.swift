@preconcurrency import Glibc
import Foundation

/// Writes a run as Chrome Trace Event JSON, the format Perfetto and chrome://tracing open:
/// one thread per lane, named as everywhere else ("main", "T3"), complete (`X`) events for spans, instants for
/// marks, operation states and printed lines, each with the queue it ran on in its `args`, and flow arrows from
/// each dependency's end to its dependent's start. Each traced Swift task is an async slice (`b`/`e`, `cat` "task",
/// `id` its number) from its start to its end, with its spans nested in it as async slices of their own, each naming
/// the thread that ran it, since a task's spans may run on several threads.
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
        for span in record.spans {
            let end = span.end ?? record.endTime ?? span.start
            events.append(["ph": "X", "name": span.name, "cat": "span", "pid": pid, "tid": Int(span.thread),
                           "ts": microseconds(span.start), "dur": Double(end &- span.start) / 1e3,
                           "args": ["queue": span.queue, "finished": span.end != nil]])
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
        for (index, dependency) in record.dependencies.enumerated() {
            guard let before = byID[dependency.dependsOn]?.changes.last(where: { $0.state == .finished }),
                  let after = byID[dependency.operation]?.changes.first(where: { $0.state == .executing }) else { continue }
            let common: [String: Any] = ["name": "\(dependency.dependencyName) → \(dependency.operationName)",
                                         "cat": "dependency", "pid": pid, "id": index + 1]
            events.append(common.merging(["ph": "s", "tid": Int(before.thread), "ts": microseconds(before.time)]) { $1 })
            events.append(common.merging(["ph": "f", "bp": "e", "tid": Int(after.thread), "ts": microseconds(after.time)]) { $1 })
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

    /// What is wrong with `path` as the file `--trace` writes, or nil when it can be written: checked before the page
    /// runs, so a bad target costs the learner no run. A regular file is replaced; a symbolic link, a named pipe, a
    /// device or a folder is never replaced by one, and the folder it goes in must exist and take a new file.
    public static func problem(withTarget path: String) -> String? {
        OutputTarget.problem(withTarget: path, option: "--trace", exampleName: "run.json", writing: "trace")
    }

    /// Writes the document to `path`, replacing a regular file there and nothing else.
    public static func write(_ record: RunRecord, title: String, to path: String) throws {
        // Checked again: the path may have changed while the page ran.
        if let problem = problem(withTarget: path) { throw TraceWriteFailure(description: problem) }
        let data = try JSONSerialization.data(withJSONObject: document(for: record, title: title), options: [.sortedKeys])
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw TraceWriteFailure(description: error.description)
        }
    }

    /// Why the trace was not written, in words.
    public struct TraceWriteFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
