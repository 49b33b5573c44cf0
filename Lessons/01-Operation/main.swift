/*:
 # Operation

 Part one: Operations and Dispatch

 An `Operation` is one unit of work wrapped in an object: something to run, plus the state around it (is it ready, is it running, is it done, was it cancelled). On its own it runs nothing. You hand it to a queue, or you call `start()` yourself, and the object keeps track of what happened.

 This page does real work on real pixels: it tilt-shifts a photo, blurring the top and bottom so the scene looks like a miniature. Watch the timeline: every span is a stretch of time one thread spent on one job.

 - speaker: Say: an operation is an object around one piece of work, and this page runs every one of them by hand, with no queue. Point at the lanes: nearly everything sits on the main lane, one span after another; the only other lane, T1, appears for the completion block and the cancel demo's queue. Usual question: "so where is the concurrency?" None yet, on purpose: the queue on the next page brings it.
 */
import Foundation
import LessonKit

//: - experiment: Set `photoScale` to 3: the photo is made three times as wide and as tall before anything filters it, nine times the pixels. The size line says 1200×900, the filtered image below has that size, and the time beside the first filter grows, because the filter visits every pixel.
let photoScale = knob("photoScale", default: 1, in: 1...3, "how many times wider and taller the photo is made before it is filtered")
let executionBlocks = knob("executionBlocks", default: 3, in: 1...6, "how many blocks the block operation runs")
let startBeforeReady = knob("startBeforeReady", default: false, "call start() on an operation whose dependency has not finished")
let reAddFinishedOperation = knob("reAddFinishedOperation", default: false, "add an operation that already ran to a queue")

let photoName = "coffee"
let shippedPhoto = try Photos.load(photoName)
let photo = enlarged(shippedPhoto, by: photoScale)
print("Loaded \(photoName): \(shippedPhoto.width)×\(shippedPhoto.height) pixels\(photoScale == 1 ? "" : ", enlarged to \(photo.width)×\(photo.height)")")

//: Filtering once, on the main thread, with nothing around it. `duration` measures it and shows the time beside this line. The tilt-shift blurs around every pixel, so its work grows with the pixels.
duration {
    _ = tiltShift(photo)
}

/*:
 ## A block operation

 `BlockOperation` wraps a closure. Calling `start()` yourself runs the work **right here, on the calling thread**, and returns only when it is done: there is no concurrency yet. The timeline shows the span on the `main` lane.

 The closure must put its result somewhere the page can read it. Swift 6 lets a closure that may run on another thread capture only values that are `Sendable`: safe to share between threads. A class with a mutable `var` is not, unless it says so with `@unchecked Sendable`. That annotation is a promise the compiler cannot check: *I made every access safe myself*. `ImageBox` keeps the promise with an `NSLock`: `withLock` lets one thread at a time in, and a second thread that arrives waits at the door until the first leaves, so a read never sees half a write.

 - speaker: Point at the execution block spans sitting end to end on the main lane, and at the total printed below: about three waits, not one. On Linux swift-corelibs-foundation runs a block operation's blocks one after another on one thread; on Apple platforms they may run concurrently. Usual question: "is that a bug?" It is how corelibs' `main()` is written, a loop over the blocks; code that needs them side by side should give separate operations to a queue.
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

 - important: On Apple platforms the extra blocks may run concurrently, on several threads: Apple's documentation says a block operation manages the concurrent execution of its blocks, and that they must assume nothing about where they run. In swift-corelibs-foundation on Linux they run **one after another, on one thread**, in the order you added them: its `BlockOperation.main()` is a plain loop over the blocks. The spans below sit end to end on a single lane.

 - experiment: Set `executionBlocks` to 6. Six spans sit end to end on one lane, and the total printed below grows to about six waits, because each block starts only when the one before it has returned.
 */
let severalBlocks = BlockOperation()
for number in 1...executionBlocks {
    severalBlocks.addExecutionBlock {
        trace("execution block \(number)") {
            Simulated.wait(0.04)
        }
    }
}
let allBlocks = duration {
    severalBlocks.start()
}
print("\(executionBlocks) execution blocks, each waiting \(Simulated.describe(0.04)), took \(formatSeconds(allBlocks)) in all")

/*:
 ## Subclassing Operation

 The usual way to use operations is to subclass `Operation`: give the subclass properties for its input and output, and do the work in `main()`. The operation is then a small, reusable, testable object.

 On Apple platforms you would watch `isExecuting` and `isFinished` with key-value observing. Linux has no KVO, so this page subclasses LessonKit's `ObservedOperation`, exactly as you would subclass `Operation`. It leaves Foundation's own `start()` in charge and only listens: at each change of state, Foundation's `start()` and `cancel()` read the operation's own `isReady`, `isExecuting` and `isFinished`, and `ObservedOperation` overrides those getters to report the first new answer Foundation gives. The timeline draws each operation as a span named after it, from its `executing` to its `finished`; the run's trace keeps every state line (`--trace run.json` exports them, for ui.perfetto.dev). Each one is a change Foundation made. One is not quite a change: an operation with no dependencies is ready from birth, so its `ready` line marks the moment Foundation first asked, here inside `start()`.

 `Operation` is already `@unchecked Sendable`, and a subclass must say so again. The promise holds here without a lock because the two `var`s are never touched by two threads at once: `inputImage` is set before the operation starts, `outputImage` is read only after it has finished, and Foundation takes a lock of its own as it starts and as it finishes, which orders the accesses.
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

let filterOperation = TiltShiftOperation(name: "filter \(photoName)")
filterOperation.inputImage = photo
//: The completion block runs once the operation is finished. Which thread runs it is Foundation's choice, and the page's prediction asks you to guess before the run: the block prints the thread and the queue it ran on, and its `completion block` mark sits on that thread's lane. So that the page goes on only after the block has run, wherever it runs, the page waits for it with a `DispatchSemaphore`, a counter with a waiting room: `wait()` takes one from the count, or sleeps while the count is zero; `signal()` adds one and wakes a sleeper. Starting at zero, it makes the main thread sleep until the completion block signals.
let completionRan = DispatchSemaphore(value: 0)
filterOperation.completionBlock = {
    mark("completion block")
    let queue = ThreadIdentity.currentQueueLabel
    // Dispatch's global queues carry the `com.apple.root` labels (page 6, *Queues you are given, queues you make*).
    let why = queue.hasPrefix("com.apple.root.") ? ": once the operation was finished, Foundation handed the block to a global queue, so a worker thread ran it, not the thread that called start()" : ""
    print("Completion block: the operation is finished. It runs on thread \(ThreadIdentity.current) (the main thread: \(ThreadIdentity.isMainThread)), queue \(queue)\(why)")
    completionRan.signal()
}
filterOperation.start()
completionRan.wait()
peek(filterOperation.outputImage != nil)
peek(filterOperation.isFinished)

/*:
 ## Cancelling

 `cancel()` stops nothing by force: it sets a flag. On an operation that has not started, Foundation's `cancel()` also drops its wait for dependencies, so it is ready at once: the one below depends on an operation that never runs, and its `ready` line comes from the `cancel()`. Cancelled **before** it starts, an operation never runs `main()` at all: Foundation's `start()` sees the flag and goes straight to finished, with no `executing` line in between, so the timeline has no span named after it.

 - speaker: Say: `cancel()` sets a flag and nothing more; no thread is interrupted. Point at the T1 lane of the cancel demo: one band span, then nothing, because the body looked at `isCancelled` before band 2. Usual question: "can I force an operation to stop?" No; the operation decides, at its own checks, so check often in long work.
 */
let cancelledEarly = TiltShiftOperation(name: "cancelled before start")
cancelledEarly.inputImage = photo
cancelledEarly.addDependency(TiltShiftOperation(name: "dependency never started"))
cancelledEarly.cancel()
cancelledEarly.start()
peek(cancelledEarly.outputImage == nil)

/*:
 Cancelled **while** it runs, nothing stops the work by force: `main()` goes on until it next looks at `isCancelled`. This operation blurs the photo in eight bands, with a simulated delay per band, and checks the flag between bands. It runs on a queue (the next page's subject), so it is on a worker thread; the page waits on its `started` semaphore, which band 1 signals once it has begun, then cancels it. Band 1 holds until the page signals `cancelSent`, so the cancel lands while band 1 works, however loaded the machine.

 `waitUntilFinished()` then blocks the calling thread until this one operation is finished; its span on the `main` lane ends just after the operation's own span, on the worker's lane, ends at `finished`. `bandsDone` is written on the worker and read on the main thread, safely for the same reason as above: it is read only after `waitUntilFinished()` has returned, and Foundation's lock orders the write before the read.
 */
final class BandedFilterOperation: ObservedOperation, @unchecked Sendable {
    let bands = 8
    let started = DispatchSemaphore(value: 0)
    let cancelSent = DispatchSemaphore(value: 0)
    private(set) var bandsDone = 0

    override func main() {
        for band in 1...bands {
            guard !isCancelled else {
                print("Saw the cancellation before band \(band) of \(bands): the rest never runs")
                return
            }
            trace("band \(band)") {
                // Signalled inside band 1, past its check: a cancel sent at once still lands while band 1 works.
                if band == 1 { started.signal() }
                Simulated.wait(0.1)
                _ = boxBlur(photo, radius: band)
                if band == 1 { cancelSent.wait() }
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
cancelledLate.cancelSent.signal()
trace("waitUntilFinished") {
    cancelledLate.waitUntilFinished()
}
peek(cancelledLate.bandsDone)

/*:
 ## An operation runs once

 An operation instance is a single run of its work. Once finished it stays finished: Foundation's `start()` looks at its internal state first and returns at once, without running `main()` and without asking a single getter, so the timeline shows nothing for this second call: no state line, no span, only the mark after it. Adding a finished operation to a queue is a programming error, and Foundation stops it with a fatal error.

 - experiment: Set `reAddFinishedOperation` to true and run again. The page crashes on purpose; the tutorial catches the crash and explains it, because the page runs in a process of its own.

 - speaker: Demo: set `reAddFinishedOperation` to true and run. The page dies of SIGILL with Foundation's "operations finished, executing or already in a queue cannot be enqueued", and the tutorial explains it and carries on, because every page is a process of its own. Usual question: "can I reset an operation and reuse it?" No: make a new one, they are cheap.
 */
filterOperation.start()
mark("second start() returned")
peek(filterOperation.isFinished)
if reAddFinishedOperation {
    expectEnding(.crash, because: "an operation that already finished is added to a queue a second time")
    let queue = OperationQueue()
    queue.addOperation(filterOperation)
    queue.waitUntilAllOperationsAreFinished()
}

/*:
 Starting too early is the other error `start()` refuses. An operation is ready when every operation it depends on (`addDependency`, page 4) has finished. Started by hand before that, Foundation's `start()` reads `isReady`, finds it false, and stops the program: a queue would have waited, but a direct call has no one to wait for.

 - experiment: Set `startBeforeReady` to true. The page crashes with Foundation's "receiver is not yet ready to execute", and the trace has no state line at all for the operation, not even `ready`. Foundation asked twice, and both times the answer was no: `addDependency` reads `isReady` as it records the dependency, and `start()` reads it again. The operation below marks each answer it gives on the timeline, so the two `isReady: false` marks show both questions.
 */
/// An operation that marks every answer its `isReady` gives, so the timeline shows each time Foundation asks.
final class ReadinessMarkingOperation: ObservedOperation, @unchecked Sendable {
    override var isReady: Bool {
        let ready = super.isReady
        mark("isReady: \(ready)")
        return ready
    }
}

if startBeforeReady {
    let neverRun = TiltShiftOperation(name: "dependency that never runs")
    let tooEarly = ReadinessMarkingOperation(name: "started before ready")
    trace("addDependency") {
        tooEarly.addDependency(neverRun)
    }
    expectEnding(.crash, because: "start() is called on an operation whose dependency has not finished")
    trace("start()") {
        tooEarly.start()
    }
}

/*:
 - note: To run the same work again, make a new operation. Operations are cheap; the objects are meant to be thrown away.

 Next, the queue that runs operations for you, without calling `start()`: [Queue](@next)
 */
print("Done: four operations, one block operation with \(executionBlocks) blocks, and nothing left running.")
