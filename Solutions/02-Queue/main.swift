/*:
 # Solution: Let the preview start first

 The queue is suspended while the jobs are added, so when it resumes all three are ready and waiting, and with room for one job at a time it picks among them: the highest `queuePriority` first, and among equal priorities the one added first. Raising the preview to `.high` and lowering the backup to `.low` orders them preview, filter, backup, whatever the order they were added in and however loaded the machine.

 Two things would have made the order a matter of timing instead: a queue that is not suspended starts the backup the moment it is added, before the others are there to choose from; and a queue wider than one starts them all at once, so there is no "next" to choose.
 */
import Foundation
import LessonKit
import Synchronization

/// The jobs' names in the order they began, each written by the job itself.
let startOrder = Mutex<[String]>([])

/// A job that only waits, as a download would: the queue's choice of which starts next is the whole lesson.
final class Job: ObservedOperation, @unchecked Sendable {
    let seconds: Double

    init(_ name: String, seconds: Double) {
        self.seconds = seconds
        super.init()
        self.name = name
    }

    override func main() {
        startOrder.withLock { $0.append(name ?? "job") }
        trace("\(name ?? "job") at work") {
            Simulated.wait(seconds)
        }
    }
}

let queue = OperationQueue()
queue.name = "exercise2.jobs"
queue.maxConcurrentOperationCount = 1
queue.isSuspended = true

let backup = Job("backup", seconds: 0.1)
let filter = Job("filter", seconds: 0.1)
let preview = Job("preview", seconds: 0.1)

// The queue picks the ready job with the highest queuePriority; among equals, the one added first. All three
// start at .normal, so the preview goes up, the backup goes down, and the filter stays where it is.
preview.queuePriority = .high
backup.queuePriority = .low

for job in [backup, filter, preview] {
    queue.addOperation(job)
    mark("added \(job.name ?? "job")")
}
queue.isSuspended = false
trace("waitUntilAllOperationsAreFinished") {
    queue.waitUntilAllOperationsAreFinished()
}
print("The jobs started in this order: \(startOrder.withLock { $0 }.joined(separator: ", "))")
