/*:
 # Operation

 An `Operation` is one unit of work wrapped in an object: something to run, plus the state around it (is it ready, is it running, is it done, was it cancelled). On its own it runs nothing. You hand it to a queue, or you call `start()` yourself, and the object keeps track of what happened.

 This page does real work on real pixels: it tilt-shifts a photo, blurring the top and bottom so the scene looks like a miniature. Watch the timeline: every span is a stretch of time one thread spent on one job.
 */
import Foundation
import LessonKit

enum Photo: String, CaseIterable {
    case coffee, chelsea, astronaut, rocket
}

//: - experiment: Pick another photo with the `photo` knob, and give the block operation more execution blocks with `executionBlocks`.
let photoName = knob("photo", default: Photo.coffee, "which shipped photo to filter")
let executionBlocks = knob("executionBlocks", default: 3, in: 1...6, "how many blocks the block operation runs")
let reAddFinishedOperation = knob("reAddFinishedOperation", default: false, "add an operation that already ran to a queue")

let photo = try Photos.load(photoName.rawValue)
print("Loaded \(photoName.rawValue): \(photo.width)×\(photo.height) pixels")

//: Filtering once, on the main thread, with nothing around it. `duration` measures it and shows the time beside this line.
duration {
    _ = tiltShift(photo)
}

/*:
 ## A block operation

 `BlockOperation` wraps a closure. Calling `start()` yourself runs the work **right here, on the calling thread**, and returns only when it is done: there is no concurrency yet. The timeline shows the span on the `main` lane.
 */
final class ImageBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RGBImage?
    var image: RGBImage? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

let filtered = ImageBox()
let blockOperation = BlockOperation {
    trace("tilt-shift in a block operation") {
        filtered.image = tiltShift(photo)
    }
}
blockOperation.start()
peek(filtered.image.map { "\($0.width)×\($0.height) filtered" })

/*:
 A block operation can hold more than one closure: `addExecutionBlock` adds another, and the operation is finished only when all of them are.

 - important: On Apple platforms the extra blocks run concurrently, on several threads. In swift-corelibs-foundation on Linux they run **one after another, on one thread**, in the order you added them. The spans below sit end to end on a single lane.
 */
let severalBlocks = BlockOperation()
for number in 1...executionBlocks {
    severalBlocks.addExecutionBlock {
        trace("execution block \(number)") {
            Simulated.wait(0.05)
        }
    }
}
let allBlocks = duration {
    severalBlocks.start()
}
print("\(executionBlocks) execution blocks took \(formatSeconds(allBlocks)) in all")

/*:
 ## Subclassing Operation

 The usual way to use operations is to subclass `Operation`: give the subclass properties for its input and output, and do the work in `main()`. The operation is then a small, reusable, testable object.

 On Apple platforms you would watch `isExecuting` and `isFinished` with key-value observing. Linux has no KVO, so LessonKit's `ObservedOperation` reports each state change itself: subclass it exactly as you would subclass `Operation`.
 */
final class TiltShiftOperation: ObservedOperation, @unchecked Sendable {
    var inputImage: RGBImage?
    var outputImage: RGBImage?

    override func main() {
        // A well-behaved main() checks isCancelled before anything expensive, and again before it publishes.
        guard !isCancelled, let inputImage else { return }
        let result = trace("tilt-shift body") { tiltShift(inputImage) }
        guard !isCancelled else { return }
        outputImage = result
    }
}

let filterOperation = TiltShiftOperation(name: "filter \(photoName.rawValue)")
filterOperation.inputImage = photo
//: The completion block runs once the operation is finished. Foundation schedules it on a global queue, so it runs on a worker thread, not on the thread that called `start()`.
let completionRan = DispatchSemaphore(value: 0)
filterOperation.completionBlock = {
    mark("completion block")
    print("Completion block: the operation is finished")
    completionRan.signal()
}
filterOperation.start()
completionRan.wait()
peek(filterOperation.outputImage != nil)
peek(filterOperation.isFinished)

/*:
 ## Cancelling

 `cancel()` only sets a flag. Cancelled **before** it starts, an operation never runs `main()` at all; it goes straight to finished.
 */
let cancelledEarly = TiltShiftOperation(name: "cancelled before start")
cancelledEarly.inputImage = photo
cancelledEarly.cancel()
cancelledEarly.start()
peek(cancelledEarly.outputImage == nil)

/*:
 Cancelled **while** it runs, nothing stops the work by force: `main()` goes on until it next looks at `isCancelled`. This operation blurs the photo in eight bands, with a simulated delay per band, and checks the flag between bands. The page waits until the operation has started, then cancels it.
 */
final class BandedFilterOperation: ObservedOperation, @unchecked Sendable {
    let bands = 8
    let started = DispatchSemaphore(value: 0)
    private(set) var bandsDone = 0

    override func main() {
        started.signal()
        for band in 1...bands {
            guard !isCancelled else {
                print("Saw the cancellation before band \(band) of \(bands): the rest never runs")
                return
            }
            trace("band \(band)") {
                Simulated.wait(0.1)
                _ = boxBlur(photo, radius: band)
            }
            bandsDone = band
        }
    }
}

let cancelledLate = BandedFilterOperation(name: "cancelled while running")
let lateQueue = OperationQueue()
lateQueue.name = "page1.cancel-demo"
lateQueue.addOperation(cancelledLate)
cancelledLate.started.wait()
cancelledLate.cancel()
lateQueue.waitUntilAllOperationsAreFinished()
peek(cancelledLate.bandsDone)

/*:
 ## An operation runs once

 An operation instance is a single run of its work. Once finished it stays finished: calling `start()` again does nothing, and adding it to a queue again is a programming error that Foundation stops with a fatal error.

 - experiment: Set `reAddFinishedOperation` to true and run again. The page crashes on purpose; the tutorial catches the crash and explains it, because the page runs in a process of its own.
 */
filterOperation.start()
peek(filterOperation.isFinished)
if reAddFinishedOperation {
    expectEnding(.crash, because: "an operation that already finished is added to a queue a second time")
    let queue = OperationQueue()
    queue.addOperation(filterOperation)
    queue.waitUntilAllOperationsAreFinished()
}

/*:
 - note: To run the same work again, make a new operation. Operations are cheap; the objects are meant to be thrown away.

 Next, the queue that runs operations for you, without calling `start()`: [Queue](@next)
 */
print("Done: four operations, one block operation with \(executionBlocks) blocks, and nothing left running.")
