/*:
 # Test variant: the exercise of page 2 with its body deleted

 The job class is there, but the program makes no queue and adds no job: nothing runs. The check must fail it.
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
