import Dispatch
import Foundation

// Page 1's exercise (`Exercises/01-Operation`): the banded blur the learner's operation runs, and the program that
// runs one filter with no cancel and then cancels another while band 1 works. The exercise, its solution and its test
// variants differ only in `main()`.

/// The filter of page 1's exercise: blurs a photo in eight bands, each a span of its own. Subclass it and write
/// `main()`, calling `runBand(_:)` for each band.
open class BandedBlur: ObservedOperation, @unchecked Sendable {
    public let bands = 8
    let image: RGBImage
    /// Signalled inside band 1, so the program cancels while band 1 works.
    let bandOneBegan = DispatchSemaphore(value: 0)
    /// Band 1 holds until the program lets it go on: at once when nothing will cancel the filter, or once the cancel is sent.
    let bandOneMayGoOn = DispatchSemaphore(value: 0)
    /// Written on the worker, read only after `waitUntilFinished()` has returned: Foundation's lock orders the two.
    public private(set) var bandsDone = 0

    /// An operation called `name` that blurs `photo`, one of `Photos.names`.
    public init(name: String, photo: String = "coffee") throws {
        image = try Photos.load(photo)
        super.init()
        self.name = name
    }

    /// Blurs band `band` as the span "band N"; band 1 holds until the program lets it go on.
    public func runBand(_ band: Int) {
        trace("band \(band)") {
            if band == 1 {
                bandOneBegan.signal()
                bandOneMayGoOn.wait()
            }
            Simulated.wait(0.05)
            _ = boxBlur(image, radius: band)
        }
        bandsDone = band
    }

    /// Runs `filter` on a queue with no cancel, waits until it has finished, and says how far it got. A `main()` that
    /// stopped after band 1 whatever happened would pass the cancelled run alone: this run shows it stopping early.
    public static func runUncancelled(_ filter: BandedBlur) {
        filter.bandOneMayGoOn.signal()
        run(filter) {}
    }

    /// Runs `filter` on a queue, cancels it while band 1 works, waits until it has finished, and says how far it got.
    public static func runAndCancelDuringBandOne(_ filter: BandedBlur) {
        run(filter) {
            trace("waiting for band 1 to begin") {
                filter.bandOneBegan.wait()
            }
            filter.cancel()
            filter.bandOneMayGoOn.signal()
        }
    }

    /// Adds `filter` to a queue of its own, does `meanwhile` on the calling thread, and waits until the filter has finished.
    private static func run(_ filter: BandedBlur, meanwhile: () -> Void) {
        let queue = OperationQueue()
        queue.name = "exercise1.filters"
        queue.addOperation(filter)
        meanwhile()
        trace("waitUntilFinished") {
            filter.waitUntilFinished()
        }
        print("\"\(filter.name ?? "")\" finished after \(filter.bandsDone) of \(filter.bands) bands; isCancelled = \(filter.isCancelled)")
    }
}
