/*:
 # Exercise: Stop a cancelled filter within one band

 `cancel()` stops nothing by force: it sets a flag, and the operation's own `main()` decides when to look at it (page 1, *Cancelling*). The filter below blurs a photo in eight bands on a queue's worker thread, and it never looks: the program cancels it while band 1 works, and all eight bands run anyway.

 **Your task:** make `main()` check `isCancelled`, so that a cancelled filter starts no new band. The band at work when the cancel arrives may finish; no band after it begins, and the operation then finishes.

 **What the check looks at:** the state changes Foundation made to the operation named `banded filter` (executing, cancelled, finished), the spans `band 1` to `band 8` on the thread that ran it, and when each band began against the moment of the cancel. It never reads what the program prints.

 Leave the rest as it is. Band 1 holds until the program has sent its cancel (the `cancelSent` semaphore), so the cancel always lands while band 1 works, however loaded the machine.

 Check your work with `tour check 1`; `tour hint 1` shows the next hint. The demo page stays as it was.
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
        for band in 1...bands {
            // Your code: once the operation is cancelled, start no new band.
            trace("band \(band)") {
                if band == 1 {
                    bandOneBegan.signal()
                    cancelSent.wait()
                }
                Simulated.wait(0.05)
                _ = boxBlur(image, radius: band)
            }
            bandsDone = band
        }
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
