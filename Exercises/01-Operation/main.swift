/*:
 # Exercise: Stop a cancelled filter within one band

 `cancel()` stops nothing by force: it sets a flag, and the operation's own `main()` decides when to look at it (page 1, *Cancelling*). The filter below blurs a photo in eight bands on a queue's worker thread, and it never looks. The program runs it twice: first with nothing to cancel it, and then again, cancelling it while band 1 works; all eight bands run anyway.

 **Your task:** make `main()` check `isCancelled`, so that a cancelled filter starts no new band. The band at work when the cancel arrives may finish; no band after it begins, and the operation then finishes. A filter nobody cancels still runs all eight bands.

 **What the check looks at:** the state changes Foundation made to the operations named `uncancelled filter` and `banded filter` (executing, cancelled, finished), the spans `band 1` to `band 8` on the thread that ran each, and when each band of `banded filter` began against the moment of the cancel. `uncancelled filter` must run all eight bands and finish. It never reads what the program prints.

 Leave the rest as it is. In the second run, band 1 holds until the program has sent its cancel (a semaphore in LessonKit's `BandedBlur`), so the cancel always lands while band 1 works, however loaded the machine.

 Check your work with `tour check 1`; `tour hint 1` shows the next hint. The demo page stays as it was.
 */
import Foundation
import LessonKit

/// Blurs a photo in eight bands, each a span of its own, and counts the bands it finished. `BandedBlur`, in LessonKit,
/// does one band in `runBand(_:)`; band 1 holds there until the program lets it go on.
final class BandedFilterOperation: BandedBlur, @unchecked Sendable {
    override func main() {
        for band in 1...bands {
            // Your code: once the operation is cancelled, start no new band.
            runBand(band)
        }
    }
}

// Runs one filter on a queue with nothing to cancel it, and waits until it has finished: it should run all its bands.
BandedBlur.runUncancelled(try BandedFilterOperation(name: "uncancelled filter"))
// Runs another on a queue, cancels it while band 1 works, and waits until it has finished.
BandedBlur.runAndCancelDuringBandOne(try BandedFilterOperation(name: "banded filter"))
