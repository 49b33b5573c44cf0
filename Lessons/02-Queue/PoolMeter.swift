import Foundation
import LessonKit
import Synchronization

/// Watches a batch of jobs from the inside: how many ran at once at most, on how many threads, and how much CPU they used.
///
/// The page's timeline shows the same thing as spans; this gives the numbers the page prints.
final class PoolMeter: Sendable {
    private struct Tally {
        var running = 0
        var mostAtOnce = 0
        var threads: Set<Int32> = []
        var cpuSeconds = 0.0
    }

    private let tally = Mutex(Tally())

    /// Runs `job` on the calling thread and counts it.
    func measure(_ job: () -> Void) {
        tally.withLock { tally in
            tally.running += 1
            tally.mostAtOnce = max(tally.mostAtOnce, tally.running)
            tally.threads.insert(ThreadIdentity.current)
        }
        let cpuBefore = threadCPUSeconds()
        job()
        let cpuUsed = threadCPUSeconds() - cpuBefore
        tally.withLock { tally in
            tally.running -= 1
            tally.cpuSeconds += cpuUsed
        }
    }

    var mostAtOnce: Int { tally.withLock { $0.mostAtOnce } }
    var threadCount: Int { tally.withLock { $0.threads.count } }
    var cpuSeconds: Double { tally.withLock { $0.cpuSeconds } }
}

/// CPU time the calling thread has used so far: it grows while the thread computes and stands still while it sleeps.
func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
