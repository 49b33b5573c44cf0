/*:
 # Test variant: the exercise of page 1 with its body deleted

 The exercise's `main()` does nothing at all: no band runs, so the program waits for band 1 forever, and a check
 that only asked "did a band begin after the cancel?" would pass it. The check must fail it.
 */
import Foundation
import LessonKit

/// Blurs a photo in eight bands, each a span of its own, and counts the bands it finished.
final class BandedFilterOperation: ObservedOperation, @unchecked Sendable {
    let image: RGBImage
    let bands = 8
    /// Signalled inside band 1, so the program cancels while band 1 works.
    let bandOneBegan = DispatchSemaphore(value: 0)
    /// Band 1 holds until the program has cancelled.
    let cancelSent = DispatchSemaphore(value: 0)
    /// Written on the worker, read only after `waitUntilFinished()` has returned: Foundation's lock orders the two.
    private(set) var bandsDone = 0

    init(name: String, image: RGBImage) {
        self.image = image
        super.init()
        self.name = name
    }

    override func main() {
    }
}

let filter = BandedFilterOperation(name: "banded filter", image: try Photos.load("coffee"))
let queue = OperationQueue()
queue.name = "exercise1.filters"
queue.addOperation(filter)
trace("waiting for band 1 to begin") {
    filter.bandOneBegan.wait()
}
filter.cancel()
filter.cancelSent.signal()
trace("waitUntilFinished") {
    filter.waitUntilFinished()
}
print("The filter finished after \(filter.bandsDone) of \(filter.bands) bands; isCancelled = \(filter.isCancelled)")
