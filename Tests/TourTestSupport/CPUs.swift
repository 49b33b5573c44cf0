import CLinuxSystem
import Foundation

/// The CPUs this test process may run on, counted from its affinity mask as the pages count their own.
public func coresOfThisProcess() -> Int {
    affinityMask().reduce(0) { $0 + $1.nonzeroBitCount }
}

/// Restricts the calling thread to the first `count` CPUs this process may use (all of them, if it has fewer). A page
/// spawned from that thread inherits them (`SpawningThread` takes on its caller's
/// CPUs), so a test that needs two cores gets exactly two on a machine of any size; `recordRun(cpus:)` uses it.
func restrictThisThread(toFirstCPUs count: Int) {
    var kept = cpu_set_t()
    var left = count
    let mask = affinityMask()
    withUnsafeMutableBytes(of: &kept) { kept in
        for (index, byte) in mask.enumerated() {
            var bits = byte
            while bits != 0 && left > 0 {
                let lowest = bits & (~bits &+ 1)
                kept[index] |= lowest
                bits &= ~lowest
                left -= 1
            }
        }
    }
    let status = sched_setaffinity(0, MemoryLayout<cpu_set_t>.size, &kept)
    precondition(status == 0, "sched_setaffinity failed: \(String(cString: strerror(errno)))")
}

/// The bytes of this thread's affinity mask, lowest CPUs first.
private func affinityMask() -> [UInt8] {
    var mask = cpu_set_t()
    let status = sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &mask)
    precondition(status == 0, "sched_getaffinity failed: \(String(cString: strerror(errno)))")
    return withUnsafeBytes(of: mask) { Array($0) }
}
