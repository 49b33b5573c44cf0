/*:
 # Exercise: Finish the asynchronous operation (test variant: faked)

 Prints what the reference solution prints, and even opens a span with the name of the queue's wait, without any
 operation or download: the check reads operation states and spans, so it must fail this.
 */
import Foundation
import LessonKit

trace("waitUntilAllOperationsAreFinished") {
    Simulated.wait(0.5)
}
print("load astronaut is executing")
print("load astronaut is finished")
print("The queue waited for the photo: 160×96")
