/*:
 # Solution: Stop a cancelled filter within one band

 `main()` looks at `isCancelled` before each band. The cancel arrives while band 1 works; band 1 runs to its end (nothing stops it by force), the next look sees the flag, and `main()` returns: Foundation's `start()` then marks the operation finished, and `waitUntilFinished()` returns on the main thread.

 The look comes *before* the band's span begins, not inside it: a check inside `trace("band 2") { ... }` would still begin band 2 after the cancel, and the check counts it. A long band could look again inside its own work, as page 1's `TiltShiftOperation` does before it publishes its result.
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
            guard !isCancelled else {
                print("Saw the cancellation before band \(band) of \(bands): the rest never runs")
                return
            }
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
