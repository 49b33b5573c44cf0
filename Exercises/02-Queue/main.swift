/*:
 # Exercise: Let the preview start first

 Three jobs go onto one queue, in this order: a backup, a filter and a preview. The user is looking at the screen, so the preview matters most, the filter next, and the backup can wait. As given, the queue starts them in the order they were added: the preview last.

 **Your task:** using `queuePriority` alone, make the preview start first, the filter next and the backup last. Keep the order they are added in, and add no dependencies.

 The queue is already set up so that its own choice decides the order, never timing: it runs one job at a time (`maxConcurrentOperationCount = 1`), and it is suspended while the jobs are added, so when it resumes all three are waiting and it picks among them (page 2, *Which operation starts next*). Leave that as it is.

 **What the check looks at:** the state changes Foundation made to the operations `backup`, `filter` and `preview`: when each began executing, against the marks `added backup`, `added filter` and `added preview` the program makes as it adds them; that no two ran at once; and that no job depends on another. It never reads what the program prints.

 Check your work with `tour check 2`; `tour hint 2` shows the next hint. The demo page stays as it was.
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

// Your code: give the jobs priorities, so that the preview starts first, the filter next and the backup last.

for job in [backup, filter, preview] {
    queue.addOperation(job)
    mark("added \(job.name ?? "job")")
}
queue.isSuspended = false
trace("waitUntilAllOperationsAreFinished") {
    queue.waitUntilAllOperationsAreFinished()
}
print("The jobs started in this order: \(startOrder.withLock { $0 }.joined(separator: ", "))")
