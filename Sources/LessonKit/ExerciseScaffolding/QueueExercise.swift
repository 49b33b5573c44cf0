import Foundation
import Synchronization

// Page 2's exercise (`Exercises/02-Queue`): the three jobs and the queue that picks among them. The exercise, its
// solution and its test variants differ only in the jobs' priorities.

/// A job of page 2's exercise that only waits (0.1 s at 1×, the span "NAME at work"), as a download would: the queue's
/// choice of which starts next is the whole lesson.
public final class QueueJob: ObservedOperation, @unchecked Sendable {
    /// The jobs' names in the order they began, each written by the job itself.
    static let startOrder = Mutex<[String]>([])

    public init(_ name: String) {
        super.init()
        self.name = name
    }

    override public func main() {
        Self.startOrder.withLock { $0.append(name ?? "job") }
        trace("\(name ?? "job") at work") {
            Simulated.wait(0.1)
        }
    }

    /// Adds `jobs` in their order (the mark "added NAME" for each) to a queue that runs one at a time and is suspended
    /// meanwhile, so that when it resumes all are waiting and its own choice decides which starts; then waits for them.
    public static func runOneAtATime(_ jobs: [QueueJob]) {
        let queue = OperationQueue()
        queue.name = "exercise2.jobs"
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        for job in jobs {
            queue.addOperation(job)
            mark("added \(job.name ?? "job")")
        }
        queue.isSuspended = false
        trace("waitUntilAllOperationsAreFinished") {
            queue.waitUntilAllOperationsAreFinished()
        }
        print("The jobs started in this order: \(startOrder.withLock { $0 }.joined(separator: ", "))")
    }
}
