/*:
 # Async

 So far every operation was done when its `main()` returned. That holds for work that runs start to end on one thread, but much work does not: a download, a database query, a timer. You call a function, it returns at once, and the result arrives later in a callback, on some other thread.

 This page wraps such work in operations that say for themselves when they are finished, gives them a typed result, and shows a way to wait for them without freezing the thread that waits.

 - speaker: Say: most real work is asynchronous, a call that returns at once and calls back later, and an operation has to be taught to wait for it. Point, throughout the page, at the gap between an operation's span and its download's span on another lane: that gap is the bug, and then the fix.
 */
import Foundation
import LessonKit
import Synchronization

enum RequestedPhoto: String, CaseIterable {
    case rocket, coffee, retina, unicorn
}

let requestedPhoto = knob("requestedPhoto", default: RequestedPhoto.rocket, "the photo the result-typed operation fetches; there is no unicorn")
let claimAsynchronous = knob("claimAsynchronous", default: false, "the too-early loader overrides isAsynchronous to return true")
let forgetToFinish = knob("forgetToFinish", default: false, "the last image loader never calls finish()")
let nestedWaits = knob("nestedWaits", default: false, "a main-queue block starts a second run-loop wait inside each of the last two waits")

/*:
 The asynchronous work on this page is a pretend network: `downloadPhoto` returns at once, waits on another thread as a slow connection would (half a second at 1× unless told otherwise; `--speed` shortens every simulated wait, and the page prints the times that apply), then calls back with the photo, or with `nil` for a name it does not know or a download that was cancelled.

 It returns the `PhotoDownload` it started; `cancel()` on that ends the wait at once, as cancelling a real request would. The cancelling thread and the waiting one share its flag, so the flag is an `Atomic` (Swift's `Synchronization` module): each load and `exchange` happens whole however threads race, and `exchange` returns the old value, so exactly one caller wakes the wait. (`.relaxed` asks for no more than that; the semaphore orders the rest.) Every stored property of this final class is safe to share, so it is plain `Sendable`, and the compiler checks it.

 A download can also be *held* (`heldBy:`, a `DispatchSemaphore` as on page 1) until the page lets the server answer. Wherever this page shows which of two things happens first, it holds the download, so the order you see is the order it must be, never a lucky race.
 */
/// A request in flight on the pretend network; `cancel()` cuts its wait short.
final class PhotoDownload: Sendable {
    private let cancelRequest = DispatchSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        // Only the first call signals, so the wait is woken once however often the download is cancelled.
        if !cancelled.exchange(true, ordering: .relaxed) { cancelRequest.signal() }
    }

    /// Waits as the network would, `seconds` at 1×; false if `cancel()` ended the wait first.
    func waitForAnswer(_ seconds: Double) -> Bool {
        cancelRequest.wait(timeout: .now() + seconds / Simulated.speed) == .timedOut
    }
}

@discardableResult
func downloadPhoto(_ name: String, seconds: Double = 0.5, heldBy hold: DispatchSemaphore? = nil,
                   into download: PhotoDownload = PhotoDownload(),
                   completion: @escaping @Sendable (RGBImage?) -> Void) -> PhotoDownload {
    DispatchQueue.global().async {
        hold?.wait()
        let clock = ContinuousClock()
        let began = clock.now
        guard trace("network load \(name)", { download.waitForAnswer(seconds) }) else {
            mark("\(name) download cancelled")
            let waited = (clock.now - began) / .seconds(1)
            print("The \(name) download stopped after \(formatSeconds(waited)) of its \(Simulated.describe(seconds))")
            return completion(nil)
        }
        completion(try? Photos.load(name))
    }
    return download
}

/*:
 ## Returning is not finishing

 Wrap `downloadPhoto` in an ordinary operation and the queue is misled: `main()` starts the download and returns, and an ordinary operation is finished the moment `main()` returns. The queue reports the operation done while the photo is still on its way.

 Like every operation class in this tutorial it restates `@unchecked Sendable` (page 1 says what that promises). This one keeps its promise with a `Mutex`, from the `Synchronization` module: the image it guards can only be reached inside `withLock`, one thread at a time, so the callback's thread can store it while the page's thread reads it.

 - speaker: Point at the loader's span ending almost at once while the download span goes on, on another lane: the queue already called the operation finished. Usual question: "why didn't the queue wait?" An ordinary operation is finished the moment `main()` returns; the queue cannot know about the callback.
 */
final class TooEarlyImageLoad: ObservedOperation, @unchecked Sendable {
    let photoName: String
    let reply: DispatchSemaphore
    let arrived = DispatchSemaphore(value: 0)
    private let image = Mutex<RGBImage?>(nil)

    var outputImage: RGBImage? { image.withLock { $0 } }

    /// Foundation says false; the `claimAsynchronous` knob makes this loader say true.
    override var isAsynchronous: Bool { claimAsynchronous }

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
 ### `isAsynchronous` changes nothing

 Looking for a fix, you find `isAsynchronous` in the documentation: "whether the operation executes its task asynchronously". The talk this page follows overrode it to return `true` and ran the code again: nothing changed. Nothing can. In swift-corelibs-foundation (Swift 6.3.1) nothing reads `isAsynchronous` at all: the queue calls `start()` whatever it says, and `start()` never looks at it. Apple's documentation says its queues ignore it too (under its older name, `isConcurrent`). It is a note to code that calls `start()` itself, that the work may outlast the call; heeding it is up to that code.

 - experiment: Set `claimAsynchronous` to true. The loader's `isAsynchronous` then returns `true`, as the line below prints, and nothing else changes: the queue still calls it finished before its download begins, and so does the `start()` called directly below.

 - speaker: Demo: set `claimAsynchronous` to true and run again; the line changes, the timeline does not. Say it plainly: nothing in swift-corelibs-foundation reads `isAsynchronous`. Usual question: "then what is it for?" A hint to code that calls `start()` itself, which is free to ignore it.
 */
print("The too-early loader's isAsynchronous: \(tooEarly.isAsynchronous)")
let startedByHand = TooEarlyImageLoad(photoName: "coffee", heldBy: coffeeReply)
startedByHand.name = "too-early load coffee, started by hand"
trace("start() called directly") {
    startedByHand.start()
}
peek(startedByHand.isFinished && startedByHand.outputImage == nil ? "finished, no image yet" : "still waiting")
coffeeReply.signal()
startedByHand.arrived.wait()

/*:
 ## An operation that finishes when it says so

 An *asynchronous* operation keeps its own state (`ready`, `executing`, `finished`) and reports it through `isExecuting` and `isFinished`. The queue starts it with `start()`, and then believes it is executing until the operation itself says it has finished. The base class `AsyncOperation`, in `AsyncOperation.swift` beside this page, does the bookkeeping:

 - `start()` moves to `executing` and calls `main()`, where a subclass starts its work;
 - `finish()` moves to `finished`. A subclass calls it from its callback, on whatever thread that is;
 - `isAsynchronous` returns `true`, for the reader's sake, as Apple's documentation asks.

 `finish()` runs on the callback's thread while the queue reads `isFinished` on its own, so the state sits in a `Mutex`, and an `NSLock` (page 1) makes each change and its announcement one step, so two racing calls to `finish()` cannot both announce one.

 - important: The queue has to be told of a change. Change the state first, then call `didChangeValue(forKey: "isFinished")` (with `willChangeValue` before, as KVO on Apple platforms wants); flip the flag later without that call and the queue never notices: it looks at `isFinished` by itself only once, as `start()` returns. `AsyncOperation` does it in that order, so it works on either platform.

 - deep dive: How the queue hears of a change on Linux. There is no key-value observing: in swift-corelibs-foundation `willChangeValue(forKey:)` does nothing, and `didChangeValue(forKey:)` calls straight into Foundation's internal observer, which reads `isFinished` there and then, releases the dependents, schedules the completion block and tells the queue. That is why the state must already have changed when `didChangeValue` is called. Both are plain `public` methods, not `open`: a subclass cannot override them to watch.

 The loader below keeps its image in a plain `var`, and that is safe too: the callback stores it *before* calling `finish()`, and the page reads it only after the queue's wait has learned that the operation finished. That news travels only through locks (the state's `Mutex`, then Foundation's own), and what a thread wrote before it released a lock is visible to whoever takes the lock after.

 - speaker: Point at the loader's span now ending with its download. Say: the state change and `didChangeValue(forKey: "isFinished")` are what the queue hears; on Linux there is no KVO and `willChangeValue` does nothing, corelibs' `didChangeValue` calls the queue directly. Usual question: "can I drop `willChangeValue` then?" Keep the pair: Apple's KVO needs both.
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

 An output property that may be `nil` says little about *why* it is `nil`. A result-typed operation finishes with a `Result`: a value, or an error saying what went wrong. It also hands the result to an `onResult` closure the moment it is known (set it before the operation is queued: the queue's locks then carry it to the thread that calls it). The base class `ResultOperation`, in `ResultOperation.swift` beside this page, adds two methods to `AsyncOperation`:

 - `finish(with:)` stores the result, calls `onResult`, and finishes; only the first call counts;
 - `cancel(with:)` records a reason and calls `cancel()`. When the operation finishes, the reason wins over whatever its work reported.

 On a running operation `cancel()` only sets a flag, and work that never looks at it runs on. So, as in the talk, the fetch below overrides `cancel()` to cancel the download it started: cancellation reaches the work, the download stops, and its callback finishes the operation.

 - experiment: Set `requestedPhoto` to `unicorn`: no such photo exists, and the operation finishes with a typed error instead of a silent `nil`.
 */
enum FetchError: Error {
    case notFound(String)
    case cancelled
}

final class FetchPhotoOperation: ResultOperation<RGBImage, FetchError>, @unchecked Sendable {
    let photoName: String
    let seconds: Double
    /// Made with the operation, so that a `cancel()` that comes before `main()` still stops it.
    let download = PhotoDownload()

    init(photoName: String, seconds: Double = 0.5) {
        self.photoName = photoName
        self.seconds = seconds
        super.init()
        name = "fetch \(photoName)"
    }

    override func main() {
        downloadPhoto(photoName, seconds: seconds, into: download) { [photoName, download] image in
            self.finish(with: image.map { .success($0) } ?? .failure(download.isCancelled ? .cancelled : .notFound(photoName)))
        }
    }

    /// Cancelling the operation cancels its download, so the work stops too, not only the flag.
    override func cancel() {
        super.cancel()
        download.cancel()
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
let largeFetch = FetchPhotoOperation(photoName: "hubble", seconds: 4)
largeFetch.onResult = { result in print(describe(result, of: "hubble")) }
let fetchQueue = OperationQueue()
fetchQueue.name = "fetches"
fetchQueue.addOperations([fetch, largeFetch], waitUntilFinished: false)
print("Fetching \(requestedPhoto.rawValue) (\(Simulated.describe(0.5))) and a large hubble (\(Simulated.describe(4)))")
//: `waitUntilFinished()` blocks until that one operation has finished. Once the first fetch is in, the page no longer wants the large hubble photo (as when a learner scrolls past it) and cancels its fetch. The download stops there, long before its wait is up, a mark on its lane says so, and the operation finishes with `FetchError.cancelled`.
fetch.waitUntilFinished()
largeFetch.cancel(with: .cancelled)
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

 - deep dive: How the wait ends on Linux. A turn of the loop (`RunLoop.run(mode:before:)`) returns once it has served a source. Neither `RunLoop.perform`, a zero-interval `Timer`, nor `CFRunLoopWakeUp` alone makes it return early (measured with Swift 6.3.1). `CFRunLoopStop` does, but only during a turn: in swift-corelibs-foundation's `CFRunLoop.c` it does nothing while the loop has no current mode, so a stop that arrives just before the turn begins is lost, and the wait sleeps on to its deadline. So the helper gives the run loop a source of its own and *signals* it when the work is done: a signalled source stays signalled until the loop serves it, so the wake-up cannot be missed, as long as no second wait nests inside this one (see below).

 A timer on the main run loop ticks at a steady pace; each tick is a mark on the main thread's lane. The same download is waited for twice: watch the ticks stop during the blocking wait and carry on during the run-loop wait.
 */
// The timer's closure must be @Sendable, which rules out a plain var; only the main thread touches this count.
let ticks = Atomic<Int>(0)
let ticker = Timer(timeInterval: 0.1 / Simulated.speed, repeats: true) { _ in
    ticks.add(1, ordering: .relaxed)
    mark("tick")
}
RunLoop.main.add(ticker, forMode: .default)
print("The timer ticks every \(Simulated.describe(0.1)); each download below takes \(Simulated.describe(1))")

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

//: The simplest form moves ordinary work off this thread; here, filtering the photo that just arrived: real work, on another thread, while the ticks go on.
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
 With a `timeout:`, the wait gives up and throws, and the page carries on. The work it was waiting for does not stop (nothing cancels it, unlike the hubble fetch); here the download still lands later (the page waits for that at its end), and its answer goes nowhere.
 */
let giveUpAfter = 0.2 / Simulated.speed
let rocketReply = DispatchSemaphore(value: 0)
let rocketLanded = DispatchSemaphore(value: 0)
do {
    _ = try trace("waitWhileRunLoopTurns timeout") {
        try waitWhileRunLoopTurns(timeout: giveUpAfter) { finish in
            downloadPhoto("rocket", heldBy: rocketReply) { image in
                finish(image)
                rocketLanded.signal()
            }
        }
    }
} catch RunLoopWaitError.timedOut {
    print("The rocket wait gave up after \(Simulated.describe(0.2)); the download itself carries on")
}
rocketReply.signal()

/*:
 ## Using the wait in an app

 The library this trick comes from says that in an app each wait must be wrapped in a block sent to the main queue. The code that handles an event, a tap, then only sends the block and returns to the run loop at once, and the wait runs later, as one more thing the loop serves; called in the handler itself, it would hold the handler until the work was done. Here the page plays the app: the tap handler sends the wrapped wait and returns, then the page turns the main run loop, as an app's would, until the wrapped wait has its photo.
 */
/// Plays the tap handler of an app: it wraps the wait in a main-queue block and returns at once.
func handleTap(whenDone done: @escaping @Sendable () -> Void) {
    DispatchQueue.main.async {
        let image = try? trace("wrapped wait") {
            try waitWhileRunLoopTurns { finish in
                downloadPhoto("retina", seconds: 0.3) { finish($0) }
            }
        }
        print("The wrapped wait, run by the run loop, got \(image.map { "\($0.width)×\($0.height)" } ?? "no image")")
        done()
    }
    mark("tap handler returned")
}

let wrappedWaitDone = Atomic<Bool>(false)
handleTap { wrappedWaitDone.store(true, ordering: .relaxed) }
print("The tap handler returned before its wait began")
// What an app's main run loop does all day: turn, serving timers and main-queue blocks as they come.
while !wrappedWaitDone.load(ordering: .relaxed) {
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
}

/*:
 The same library warns of the price: a wait and its timeout "may not finish at proper time" in such a block, because the loops nest. If something the loop serves during a wait (a timer, a main-queue block) starts a second wait, the first wait's loop is not the one turning: it cannot return until the inner wait has returned, even when its own work finished long before, and its timeout fires late.

 The two waits below run without anything inside them, unless you turn the knob: one waits for a download of 0.2 s, the other for a download that never answers in time, with a timeout of 0.3 s (at 1×). Each line says when it returned. They use the `until:` form, which looks at its condition at least every 10 ms, because nested, the callback forms can do worse than return late. Their wake-up is a source of the run loop, and the inner loop serves any source of the outer wait too: in runs on this machine the inner loop served the outer wait's wake-up, and once the inner wait had returned, the outer one slept on with its answer in hand: nothing was left to end its turn.

 - experiment: Set `nestedWaits` to true. A main-queue block sent before each wait starts a second wait inside it, for a download of 1 s. Both lines change: the first wait's download still lands after 0.2 s, but the wait returns only after about 1 s, when the inner wait does; the second wait's timeout of 0.3 s fires after about 1 s too.
 */
/// Sends a main-queue block that starts a wait of its own; the loop of the wait the page starts next serves it.
func startInnerWait(_ label: String) {
    guard nestedWaits else { return }
    DispatchQueue.main.async {
        let landed = Atomic<Bool>(false)
        downloadPhoto("retina", seconds: 1) { _ in landed.store(true, ordering: .relaxed) }
        try? trace("inner wait during \(label)") {
            try waitWhileRunLoopTurns(until: { landed.load(ordering: .relaxed) })
        }
    }
}

/// Seconds since `start`, on the clock the waits use.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    (ContinuousClock.now - start) / .seconds(1)
}

startInnerWait("the first wait")
let firstWaitStart = ContinuousClock.now
let landedAfter = Mutex<Double?>(nil)
downloadPhoto("astronaut", seconds: 0.2) { _ in
    landedAfter.withLock { $0 = secondsSince(firstWaitStart) }
}
try trace("first wait") {
    try waitWhileRunLoopTurns(until: { landedAfter.withLock { $0 } != nil })
}
let firstWaitReturned = secondsSince(firstWaitStart)
print("The first wait's download landed after \(formatSeconds(landedAfter.withLock { $0 } ?? 0)); the wait returned after \(formatSeconds(firstWaitReturned))")

startInnerWait("the second wait")
let neverInTime = DispatchSemaphore(value: 0)
let hubbleLanded = DispatchSemaphore(value: 0)
let secondWaitStart = ContinuousClock.now
downloadPhoto("hubble", heldBy: neverInTime) { _ in hubbleLanded.signal() }
do {
    try trace("second wait") {
        try waitWhileRunLoopTurns(until: { false }, timeout: 0.3 / Simulated.speed)
    }
} catch RunLoopWaitError.timedOut {
    print("The second wait was to give up after \(Simulated.describe(0.3)), and gave up after \(formatSeconds(secondsSince(secondWaitStart)))")
}
neverInTime.signal()
ticker.invalidate()

/*:
 ## The classic bug: forgetting to finish

 An asynchronous operation is finished only when it says so. Forget `finish()` on one path (an error branch, an early `return` in the callback) and the queue waits for it forever, and so does everything that depends on it or waits for the queue.

 - experiment: Set `forgetToFinish` to true. The loader below stores its image and never calls `finish()`. The page hangs in `waitUntilAllOperationsAreFinished`, and after a few silent seconds the tutorial stops it and names the operation that never finished.

 - speaker: Demo: set `forgetToFinish` to true. The page prints, then hangs in `waitUntilAllOperationsAreFinished`; after a few silent seconds the tutorial calls it stuck and names the span it stuck in (`forgetful load …`). Usual question: "would an app crash?" No, it just never moves on, which is worse: nothing tells you.
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
rocketLanded.wait()
hubbleLanded.wait()
print("Done: every operation finished, each when it said so, and the abandoned downloads landed too.")
