/*:
 # Async

 So far every operation was done when its `main()` returned. That holds for work that runs start to end on one thread, but much work does not: a download, a database query, a timer. You call a function, it returns at once, and the result arrives later in a callback, on some other thread.

 This page wraps such work in operations that say for themselves when they are finished, gives them a typed result, and shows a way to wait for them without freezing the thread that waits.
 */
import Foundation
import LessonKit
import Synchronization

enum RequestedPhoto: String, CaseIterable {
    case rocket, coffee, hubble, unicorn
}

let requestedPhoto = knob("requestedPhoto", default: RequestedPhoto.rocket, "the photo the result-typed operation fetches; there is no unicorn")
let forgetToFinish = knob("forgetToFinish", default: false, "the last image loader never calls finish()")

/*:
 The asynchronous work on this page is a pretend network: `downloadPhoto` returns at once, waits on another thread as a slow connection would (half a second unless told otherwise), then calls back with the photo, or with `nil` for a name it does not know.

 A download can also be *held* until the page lets the server answer (`heldBy:`). Wherever this page shows which of two things happens first, it holds the download, so the order you see is the order it must be, never a lucky race.
 */
func downloadPhoto(_ name: String, seconds: Double = 0.5, heldBy hold: DispatchSemaphore? = nil,
                   completion: @escaping @Sendable (RGBImage?) -> Void) {
    DispatchQueue.global().async {
        hold?.wait()
        Simulated.networkLoad(name, seconds: seconds)
        completion(try? Photos.load(name))
    }
}

/*:
 ## Returning is not finishing

 Wrap `downloadPhoto` in an ordinary operation and the queue is misled: `main()` starts the download and returns, and an ordinary operation is finished the moment `main()` returns. The queue reports the operation done while the photo is still on its way.
 */
final class TooEarlyImageLoad: ObservedOperation, @unchecked Sendable {
    let photoName: String
    let reply: DispatchSemaphore
    let arrived = DispatchSemaphore(value: 0)
    private let image = Mutex<RGBImage?>(nil)

    var outputImage: RGBImage? { image.withLock { $0 } }

    init(photoName: String, heldBy reply: DispatchSemaphore) {
        self.photoName = photoName
        self.reply = reply
        super.init()
        name = "too-early load \(photoName)"
    }

    override func main() {
        downloadPhoto(photoName, heldBy: reply) { image in
            self.image.withLock { $0 = image }
            self.arrived.signal()
        }
        // Returning here tells the queue the operation is finished; the download has barely begun.
    }
}

let coffeeReply = DispatchSemaphore(value: 0)
let tooEarly = TooEarlyImageLoad(photoName: "coffee", heldBy: coffeeReply)
let firstQueue = OperationQueue()
firstQueue.name = "first queue"
firstQueue.addOperation(tooEarly)
duration {
    trace("waitUntilAllOperationsAreFinished") {
        firstQueue.waitUntilAllOperationsAreFinished()
    }
}
peek(tooEarly.outputImage.map { "\($0.width)×\($0.height)" } ?? "no image yet")
//: Now the server answers. The photo does arrive, after the queue has stopped caring: nothing that depended on this operation would have had it.
coffeeReply.signal()
tooEarly.arrived.wait()
peek(tooEarly.outputImage.map { "\($0.width)×\($0.height), too late" } ?? "no image")

/*:
 ## An operation that finishes when it says so

 An *asynchronous* operation keeps its own state (`ready`, `executing`, `finished`) and reports it through `isExecuting` and `isFinished`. The queue starts it with `start()`, and then believes it is executing until the operation itself says it has finished. The base class `AsyncOperation`, in `AsyncOperation.swift` beside this page, does the bookkeeping:

 - `isAsynchronous` returns `true`;
 - `start()` moves to `executing` and calls `main()`, where a subclass starts its work;
 - `finish()` moves to `finished`. A subclass calls it from its callback, on whatever thread that is.

 The state is read and written under a lock: `finish()` runs on the callback's thread while the queue reads `isFinished` on its own.

 - important: On Apple platforms the queue learns of a change through key-value observing: you call `willChangeValue(forKey: "isFinished")`, change the state, then `didChangeValue(forKey: "isFinished")`. Linux has no KVO. In swift-corelibs-foundation `willChangeValue` does nothing, and `didChangeValue(forKey:)` calls straight into the queue, which then reads `isFinished`. So the state must already have changed when `didChangeValue` is called; flip the flag without calling it, and the queue never notices. `AsyncOperation` calls both, in that order, so it works on either platform.
 */
final class ImageLoadOperation: AsyncOperation, @unchecked Sendable {
    let photoName: String
    private(set) var outputImage: RGBImage?

    init(photoName: String) {
        self.photoName = photoName
        super.init()
        name = "load \(photoName)"
    }

    override func main() {
        downloadPhoto(photoName) { image in
            self.outputImage = image
            self.finish()
        }
    }
}

let imageLoad = ImageLoadOperation(photoName: "astronaut")
let loadQueue = OperationQueue()
loadQueue.name = "image loads"
loadQueue.addOperation(imageLoad)
//: This time the wait lasts as long as the download, and the image is there when it ends.
duration {
    trace("waitUntilAllOperationsAreFinished") {
        loadQueue.waitUntilAllOperationsAreFinished()
    }
}
peek(imageLoad.outputImage.map { "\($0.width)×\($0.height)" } ?? "no image")

/*:
 ## A result with a type

 An output property that may be `nil` says little about *why* it is `nil`. A result-typed operation finishes with a `Result`: a value, or an error saying what went wrong. It also hands the result to an `onResult` closure the moment it is known.

 - `finish(with:)` stores the result, calls `onResult`, and finishes;
 - `cancel(with:)` cancels with a reason; a running operation finishes at once with that error, and the late answer of its abandoned work is ignored.

 - experiment: Set `requestedPhoto` to `unicorn`: no such photo exists, and the operation finishes with a typed error instead of a silent `nil`.
 */
class ResultOperation<Success: Sendable, Failure: Error>: AsyncOperation, @unchecked Sendable {
    private struct Outcome {
        var result: Result<Success, Failure>?
        var cancellationReason: Failure?
    }

    private let outcome = Mutex(Outcome())
    var onResult: (@Sendable (Result<Success, Failure>) -> Void)?

    var result: Result<Success, Failure>? { outcome.withLock { $0.result } }

    /// Finishes with `result`, unless the operation was cancelled with a reason, which then wins. Only the first call counts.
    func finish(with result: Result<Success, Failure>) {
        let delivered: Result<Success, Failure>? = outcome.withLock { outcome in
            guard case .none = outcome.result else { return nil }
            outcome.result = outcome.cancellationReason.map { .failure($0) } ?? result
            return outcome.result
        }
        guard let delivered else { return }
        onResult?(delivered)
        finish()
    }

    func cancel(with reason: Failure) {
        outcome.withLock { $0.cancellationReason = $0.cancellationReason ?? reason }
        cancel()
        // Not yet started: start() sees the cancellation and finishes. Running: finish now, not when the work returns.
        if isExecuting { finish(with: .failure(reason)) }
    }

    override func start() {
        if isCancelled, let reason = outcome.withLock({ $0.cancellationReason }) {
            finish(with: .failure(reason))
        }
        super.start()
    }
}

enum FetchError: Error {
    case notFound(String)
    case cancelled
}

final class FetchPhotoOperation: ResultOperation<RGBImage, FetchError>, @unchecked Sendable {
    let photoName: String
    let reply: DispatchSemaphore?
    let requestSent = DispatchSemaphore(value: 0)

    init(photoName: String, heldBy reply: DispatchSemaphore? = nil) {
        self.photoName = photoName
        self.reply = reply
        super.init()
        name = "fetch \(photoName)"
    }

    override func main() {
        downloadPhoto(photoName, heldBy: reply) { [photoName] image in
            self.finish(with: image.map { .success($0) } ?? .failure(.notFound(photoName)))
        }
        requestSent.signal()
    }
}

func describe(_ result: Result<RGBImage, FetchError>, of name: String) -> String {
    switch result {
    case .success(let image): "fetched \(name): \(image.width)×\(image.height)"
    case .failure(let error): "fetching \(name) failed: \(error)"
    }
}

let fetch = FetchPhotoOperation(photoName: requestedPhoto.rawValue)
fetch.onResult = { [name = requestedPhoto.rawValue] result in print(describe(result, of: name)) }
let hubbleReply = DispatchSemaphore(value: 0)
let abandoned = FetchPhotoOperation(photoName: "hubble", heldBy: hubbleReply)
abandoned.onResult = { result in print(describe(result, of: "hubble")) }
let fetchQueue = OperationQueue()
fetchQueue.name = "fetches"
fetchQueue.addOperations([fetch, abandoned], waitUntilFinished: false)
//: Once its request is out, the hubble fetch is cancelled: it finishes straight away with `FetchError.cancelled`. Its download still runs once the server answers, and its answer is ignored.
abandoned.requestSent.wait()
abandoned.cancel(with: .cancelled)
hubbleReply.signal()
trace("waitUntilAllOperationsAreFinished") {
    fetchQueue.waitUntilAllOperationsAreFinished()
}

/*:
 ## Waiting without freezing: the run loop

 `waitUntilAllOperationsAreFinished()` blocks the calling thread. On a thread with a *run loop* (the main thread of an app, or one that serves timers), blocking means the loop stops turning: its timers do not fire and the blocks sent to it wait.

 Before Swift had `async`/`await`, a popular trick was a run-loop "await": start the work elsewhere, then keep turning the current run loop until the work is done. The calling code still reads top to bottom, and the thread keeps serving its timers meanwhile. Swift now reserves the word `await`, so here it is called `waitWhileRunLoopTurns`, in `RunLoopWait.swift` beside this page. It comes in the usual forms:

 - `waitWhileRunLoopTurns { work() }` runs `work` on a global queue and returns its value;
 - `waitWhileRunLoopTurns { finish in … finish(value) }` hands over a `finish` function for callback-style work;
 - `waitWhileRunLoopTurns(until: { condition })` turns the loop until the condition holds;
 - each takes a `timeout:`, after which it throws; the work itself carries on.

 - important: On Linux, neither `RunLoop.perform`, a zero-interval `Timer`, nor `CFRunLoopWakeUp` alone makes a turn of the loop end early. `CFRunLoopStop` does, but a stop that arrives just before the turn begins is lost and the wait sleeps on to its deadline. The helper gives the run loop a source of its own instead, and *signals* it when the work is done: a signalled source stays signalled until the loop serves it, so the wake-up cannot be missed.

 A timer on the main run loop ticks every tenth of a second; each tick is a mark on the main thread's lane. The same one-second download is waited for twice: watch the ticks stop during the blocking wait and carry on during the run-loop wait.
 */
let ticks = Atomic<Int>(0)
let ticker = Timer(timeInterval: 0.1 / Simulated.speed, repeats: true) { _ in
    ticks.add(1, ordering: .relaxed)
    mark("tick")
}
RunLoop.main.add(ticker, forMode: .default)

func ticksDuring(_ body: () throws -> Void) rethrows -> Int {
    let before = ticks.load(ordering: .relaxed)
    try body()
    return ticks.load(ordering: .relaxed) - before
}

/// The old way to wait for a callback: block on a semaphore until it arrives.
func downloadBlocking(_ name: String, seconds: Double) -> RGBImage? {
    let arrived = DispatchSemaphore(value: 0)
    let image = Mutex<RGBImage?>(nil)
    downloadPhoto(name, seconds: seconds) { downloaded in
        image.withLock { $0 = downloaded }
        arrived.signal()
    }
    arrived.wait()
    return image.withLock { $0 }
}

let ticksWhileBlocked = ticksDuring {
    trace("blocking wait") {
        _ = downloadBlocking("chelsea", seconds: 1)
    }
}
print("Timer ticks during the blocking wait: \(ticksWhileBlocked)")

var chelsea: RGBImage?
let ticksWhileTurning = try ticksDuring {
    // A block sent to the main queue runs during the wait too: the main run loop serves the main queue.
    DispatchQueue.main.async {
        mark("main-queue block")
    }
    chelsea = try trace("waitWhileRunLoopTurns") {
        try waitWhileRunLoopTurns { finish in
            downloadPhoto("chelsea", seconds: 1) { finish($0) }
        }
    }
}
print("Timer ticks during the run-loop wait: \(ticksWhileTurning)")

//: The simplest form moves ordinary work off this thread; here, filtering the photo that just arrived.
if let chelsea {
    let filteredChelsea = try waitWhileRunLoopTurns {
        trace("tilt-shift chelsea") { tiltShift(chelsea) }
    }
    peek("\(filteredChelsea.width)×\(filteredChelsea.height) filtered")
}

//: `until:` waits for any condition, here for an operation on a queue to finish, while the timer keeps ticking.
let retinaLoad = ImageLoadOperation(photoName: "retina")
loadQueue.addOperation(retinaLoad)
try trace("waitWhileRunLoopTurns until") {
    try waitWhileRunLoopTurns(until: { retinaLoad.isFinished })
}
peek(retinaLoad.outputImage != nil)

/*:
 With a `timeout:`, the wait gives up and throws, and the page carries on. The work it was waiting for does not stop; here the download still lands later, and its answer goes nowhere.

 - note: The run-loop trick has a trap. If something the loop serves during the wait (a timer, a main-queue block) starts a second wait, the loops nest: the outer wait cannot return until the inner one has, even when its own work finished long before, and its timeout fires late.
 */
let giveUpAfter = 0.2 / Simulated.speed
let rocketReply = DispatchSemaphore(value: 0)
do {
    _ = try trace("waitWhileRunLoopTurns timeout") {
        try waitWhileRunLoopTurns(timeout: giveUpAfter) { finish in
            downloadPhoto("rocket", heldBy: rocketReply) { finish($0) }
        }
    }
} catch {
    print("The rocket download: \(error); the download itself carries on")
}
rocketReply.signal()
ticker.invalidate()

/*:
 ## The classic bug: forgetting to finish

 An asynchronous operation is finished only when it says so. Forget `finish()` on one path (an error branch, an early `return` in the callback) and the queue waits for it forever, and so does everything that depends on it or waits for the queue.

 - experiment: Set `forgetToFinish` to true. The loader below stores its image and never calls `finish()`. The page hangs in `waitUntilAllOperationsAreFinished`, and after a few silent seconds the tutorial stops it and names the operation that never finished.
 */
final class ForgetfulImageLoadOperation: AsyncOperation, @unchecked Sendable {
    let photoName: String
    private(set) var outputImage: RGBImage?

    init(photoName: String) {
        self.photoName = photoName
        super.init()
        name = "forgetful load \(photoName)"
    }

    override func main() {
        downloadPhoto(photoName) { image in
            self.outputImage = image
            if !forgetToFinish {
                self.finish()
            }
        }
    }
}

if forgetToFinish {
    expectEnding(.stuck, because: "the forgetful loader never calls finish(), so its queue waits for it forever")
}
let forgetfulLoad = ForgetfulImageLoadOperation(photoName: "hubble")
loadQueue.addOperation(forgetfulLoad)
trace("waitUntilAllOperationsAreFinished") {
    loadQueue.waitUntilAllOperationsAreFinished()
}

/*:
 Operations that finish on their own schedule can now be chained: one waits for another, and hands its result on. [Dependencies](@next)

 Back: [Queue](@previous)
 */
print("Done: every operation finished, each when it said so.")
