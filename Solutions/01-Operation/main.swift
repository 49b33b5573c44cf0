/*:
 # Solution: Stop a cancelled filter within one band

 `main()` looks at `isCancelled` before each band. In the first run nothing cancels the filter, so every look finds the flag clear and all eight bands run. In the second, the cancel arrives while band 1 works; band 1 runs to its end (nothing stops it by force), the next look sees the flag, and `main()` returns: Foundation's `start()` then marks the operation finished, and `waitUntilFinished()` returns on the main thread.

 The look comes *before* the band's span begins, not inside it: a check inside `trace("band 2") { ... }` would still begin band 2 after the cancel, and the check counts it. A long band could look again inside its own work, as page 1's `TiltShiftOperation` does before it publishes its result.
 */
import Foundation
import LessonKit

/// Blurs a photo in eight bands, each a span of its own, and counts the bands it finished. `BandedBlur`, in LessonKit,
/// does one band in `runBand(_:)`; band 1 holds there until the program lets it go on.
final class BandedFilterOperation: BandedBlur, @unchecked Sendable {
    override func main() {
        for band in 1...bands {
            guard !isCancelled else {
                print("Saw the cancellation before band \(band) of \(bands): the rest never runs")
                return
            }
            runBand(band)
        }
    }
}

// Runs one filter on a queue with nothing to cancel it, and waits until it has finished: it should run all its bands.
BandedBlur.runUncancelled(try BandedFilterOperation(name: "uncancelled filter"))
// Runs another on a queue, cancels it while band 1 works, and waits until it has finished.
BandedBlur.runAndCancelDuringBandOne(try BandedFilterOperation(name: "banded filter"))
