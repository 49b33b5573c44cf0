import Foundation
import LessonKit

/// What `/proc/self/task` says about this process's threads: how many there are, and where the calling one runs.
enum ThreadCensus {
    /// Every thread of the process right now, busy or idle: one directory each in `/proc/self/task`.
    static func threadCount() -> Int {
        threadIDs().count
    }

    /// The kernel ids of every thread of the process right now, one directory each in `/proc/self/task`.
    static func threadIDs() -> Set<Int32> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int32($0) })
    }

    /// The threads libdispatch named after one pool (as `currentThread()` reads a name). A thread it has just created
    /// still bears its creator's name until it starts.
    static func threadIDs(ofPool pool: String) -> Set<Int32> {
        threadIDs().filter { read("comm", of: $0) == pool }
    }

    /// The calling thread's nice value (field 19 of its `stat`), which libdispatch sets from its pool's quality of
    /// service, and the name libdispatch gave it: its root queue's label, cut to the last 15 characters the kernel
    /// keeps (`com.apple.root.background-qos` reads `.background-qos`).
    static func currentThread() -> (nice: Int, pool: String) {
        let thread = ThreadIdentity.current
        let stat = read("stat", of: thread) ?? ""
        // The fields after the name in parentheses (which may hold spaces) start at field 3, the state.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let nice = fields.count > 16 ? Int(fields[16]) ?? 0 : 0
        return (nice, read("comm", of: thread) ?? "unknown")
    }

    private static func read(_ file: String, of thread: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(thread)/\(file)", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
