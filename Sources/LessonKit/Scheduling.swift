@preconcurrency import Glibc

/// `sched_getaffinity(2)`: Glibc declares it only with `_GNU_SOURCE`, so Swift does not import it.
@_silgen_name("sched_getaffinity")
private func systemSchedGetAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32

/// How many cores this process may run on: the CPUs in its affinity mask, as the scheduler applies it.
///
/// libdispatch sizes its thread pools by this same count (`pthread_getaffinity_np` in `src/shims/hw_config.h`), so it
/// is the number that decides how many pool threads compute at once, for `DispatchQueue.global()` and for the global
/// executor's queue that runs tasks alike (pages 2 and 9). `ProcessInfo.activeProcessorCount` is not: on
/// Linux it reads cgroup v1 files and the CPUs online, never the affinity mask (page 2 says what it reads). It falls
/// back to the CPUs online only if the kernel refuses the call.
public func usableCores() -> Int {
    // 1024 CPUs, glibc's own `cpu_set_t` size.
    var mask = [UInt64](repeating: 0, count: 16)
    let status = mask.withUnsafeMutableBytes { systemSchedGetAffinity(0, $0.count, $0.baseAddress!) }
    guard status == 0 else { return sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
    return mask.reduce(0) { $0 + $1.nonzeroBitCount }
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
