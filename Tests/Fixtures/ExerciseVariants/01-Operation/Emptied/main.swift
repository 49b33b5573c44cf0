/*:
 # Test variant: the exercise of page 1 with its body deleted

 The exercise's `main()` does nothing at all: no band runs, so the program waits for band 1 forever, and a check
 that only asked "did a band begin after the cancel?" would pass it. The check must fail it.
 */
import Foundation
import LessonKit

/// Blurs a photo in eight bands, each a span of its own, and counts the bands it finished. `BandedBlur`, in LessonKit,
/// does one band in `runBand(_:)`; band 1 holds there until the program lets it go on.
final class BandedFilterOperation: BandedBlur, @unchecked Sendable {
    override func main() {
    }
}

// Runs one filter on a queue with nothing to cancel it, and waits until it has finished: it should run all its bands.
BandedBlur.runUncancelled(try BandedFilterOperation(name: "uncancelled filter"))
// Runs another on a queue, cancels it while band 1 works, and waits until it has finished.
BandedBlur.runAndCancelDuringBandOne(try BandedFilterOperation(name: "banded filter"))
