@preconcurrency import Glibc
import CLinuxSystem
import Foundation

/// How many cores this process may run on: the CPUs in its affinity mask, as the scheduler applies it.
///
/// libdispatch sizes its thread pools by this same count (`pthread_getaffinity_np` in `src/shims/hw_config.h`), so it
/// is the number that decides how many pool threads compute at once, for `DispatchQueue.global()` and for the global
/// executor's queue that runs tasks alike (pages 2 and 9). `ProcessInfo.activeProcessorCount` is not: on
/// Linux it reads cgroup v1 files and the CPUs online, never the affinity mask (page 2 says what it reads). It falls
/// back to the CPUs online only if the kernel refuses the call.
public func usableCores() -> Int {
    // 1024 CPUs, glibc's own `cpu_set_t` size.
    var mask = cpu_set_t()
    guard sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &mask) == 0 else { return sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
    return withUnsafeBytes(of: mask) { bytes in bytes.reduce(0) { $0 + $1.nonzeroBitCount } }
}

extension ThreadIdentity {
    /// The calling thread's nice value as the kernel keeps it: field 19 of `/proc/thread-self/stat`.
    ///
    /// 0 is the default; a higher value gives the core away sooner while threads compete for it. On Linux libdispatch
    /// sets it on each pool thread it starts, from the pool's quality of service (`setpriority` in
    /// `_dispatch_worker_thread`, `src/queue.c`), and nothing else in Foundation or Dispatch changes it.
    public static var niceValue: Int {
        guard let file = fopen("/proc/thread-self/stat", "r") else { preconditionFailure("/proc/thread-self/stat cannot be read") }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { preconditionFailure("/proc/thread-self/stat is empty") }
        let stat = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Field 2, the name in parentheses, may itself hold spaces and parentheses; field 3 follows the last ')'.
        guard let nameEnd = stat.lastIndex(of: ")") else { preconditionFailure("unexpected /proc/thread-self/stat: \(stat)") }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 16, let nice = Int(fields[16]) else { preconditionFailure("unexpected /proc/thread-self/stat: \(stat)") }
        return nice
    }
}

/// What `/proc/self/task` says of this process's threads: how many there are, and the names libdispatch gave them.
public enum ThreadCensus {
    /// libdispatch names a worker after its root queue's label, cut to the last 15 characters the kernel keeps:
    /// `com.apple.root.default-qos` reads `oot.default-qos`, the pool behind `global()`, the concurrent queues you
    /// create and, on Linux, Swift's global executor.
    public static let defaultQoSPool = "oot.default-qos"

    /// Every thread of the process right now, busy or idle: one directory each in `/proc/self/task`.
    public static func threadCount() -> Int {
        threadIDs().count
    }

    /// The kernel ids of every thread of the process right now.
    public static func threadIDs() -> Set<Int32> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int32($0) })
    }

    /// The threads libdispatch named after one pool (`defaultQoSPool`, or a name `currentPool` read). A thread it has
    /// just created still bears its creator's name until it starts.
    public static func threadIDs(ofPool pool: String) -> Set<Int32> {
        threadIDs().filter { name(of: $0) == pool }
    }

    /// The name of the pool the calling thread belongs to, as libdispatch named it (`com.apple.root.background-qos`
    /// reads `.background-qos`).
    public static var currentPool: String {
        name(of: ThreadIdentity.current) ?? "unknown"
    }

    private static func name(of thread: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
