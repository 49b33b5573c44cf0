import Foundation

@_silgen_name("sched_getaffinity")
private func systemSchedGetAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32
@_silgen_name("sched_setaffinity")
private func systemSchedSetAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeRawPointer) -> Int32

/// The CPUs this test process may run on, counted from its affinity mask as the pages count their own.
public func coresOfThisProcess() -> Int {
    affinityMask().reduce(0) { $0 + $1.nonzeroBitCount }
}

/// Restricts the calling thread to the first `count` CPUs this process may use (all of them, if it has fewer). A page spawned from that thread inherits them (`SpawningThread` takes on its caller's
/// CPUs), so a test that needs two cores gets exactly two on a machine of any size; `recordRun(cpus:)` uses it.
func restrictThisThread(toFirstCPUs count: Int) {
    var kept = [UInt64](repeating: 0, count: 16)
    var left = count
    for (index, word) in affinityMask().enumerated() {
        var bits = word
        while bits != 0 && left > 0 {
            let lowest = bits & (~bits &+ 1)
            kept[index] |= lowest
            bits &= ~lowest
            left -= 1
        }
    }
    let status = kept.withUnsafeBytes { systemSchedSetAffinity(0, $0.count, $0.baseAddress!) }
    precondition(status == 0, "sched_setaffinity failed: \(String(cString: strerror(errno)))")
}

private func affinityMask() -> [UInt64] {
    var mask = [UInt64](repeating: 0, count: 16)
    let status = mask.withUnsafeMutableBytes { systemSchedGetAffinity(0, $0.count, $0.baseAddress!) }
    precondition(status == 0, "sched_getaffinity failed: \(String(cString: strerror(errno)))")
    return mask
}
