import Foundation

/// `sched_getaffinity(2)`: Glibc declares it only with `_GNU_SOURCE`, so Swift does not import it.
@_silgen_name("sched_getaffinity")
private func systemSchedGetAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32

/// How many cores this process may run on: the CPUs in its affinity mask, as the scheduler applies it.
///
/// libdispatch sizes its thread pool by this same count (`pthread_getaffinity_np` in `src/shims/hw_config.h`),
/// so it is the number that decides how many pool threads compute at once, for `DispatchQueue.global()` and for the
/// global executor's queue that runs tasks alike (pages 2 and 9). It falls back to
/// `ProcessInfo.activeProcessorCount` only if the kernel refuses the call.
public func usableCores() -> Int {
    // 1024 CPUs, glibc's own `cpu_set_t` size.
    var mask = [UInt64](repeating: 0, count: 16)
    let status = mask.withUnsafeMutableBytes { systemSchedGetAffinity(0, $0.count, $0.baseAddress!) }
    guard status == 0 else { return ProcessInfo.processInfo.activeProcessorCount }
    return mask.reduce(0) { $0 + $1.nonzeroBitCount }
}
