/*:
 # Test variant: page 1's exercise with only the first step done

 The task asks for a filter that starts no band after the cancel, which lands while band 1 works. This `main()`
 takes that first step the short way: it runs band 1 and stops, whatever happened, without looking at
 `isCancelled`. The cancelled run cannot tell it from the solution; the run with nothing to cancel it can, and the
 check must fail it there.
 */
import Foundation
import LessonKit

/// Blurs a photo in eight bands, each a span of its own, and counts the bands it finished. `BandedBlur`, in LessonKit,
/// does one band in `runBand(_:)`; band 1 holds there until the program lets it go on.
final class BandedFilterOperation: BandedBlur, @unchecked Sendable {
    override func main() {
        runBand(1)
    }
}

// Runs one filter on a queue with nothing to cancel it, and waits until it has finished: it should run all its bands.
BandedBlur.runUncancelled(try BandedFilterOperation(name: "uncancelled filter"))
// Runs another on a queue, cancels it while band 1 works, and waits until it has finished.
BandedBlur.runAndCancelDuringBandOne(try BandedFilterOperation(name: "banded filter"))
