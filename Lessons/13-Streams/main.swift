/*:
 # Streams and cancellation

 Page 9 turned one callback into one `await` with a continuation. Many callback APIs call back again and again: a timer, a sensor, a socket, a stream of notifications. This page bridges a repeated callback, a Dispatch timer, into an `AsyncStream` that a task reads with `for await`; counts what the stream's buffer keeps and drops when the reader is slower than the timer; watches `onTermination` stop the timer in each of the three ways a stream ends; and then makes a callback-style download cancellable with `withTaskCancellationHandler`, cancelled through its parent task. Page 12 asked who may touch what; this page asks who stops what.

 - speaker: Say: "Page 9 wrapped one callback. Today: a callback that keeps coming, and how to stop the thing behind it when nobody listens any more." The two questions of the page are how many elements survive a slow reader, and who stops the producer.
 */
import Foundation
import LessonKit
import Synchronization

/// The buffering policy the tick stream is made with, as the knob names it.
enum Buffering: String, CaseIterable {
    case unbounded
    case bufferingOldest
    case bufferingNewest
}

//: - experiment: Set `buffering` to `unbounded`: nothing is dropped, the reader sees all 20 ticks, and it reads most of them after the timer has stopped (after the mark `tick timer stopped`). Set it to `bufferingOldest`: each tick dropped is the new one (`yield 9: dropped 9`), so the reader gets stale ticks.
let buffering = knob("buffering", default: Buffering.bufferingNewest, "the tick stream's buffering policy: unbounded, bufferingOldest(bufferSize) or bufferingNewest(bufferSize)")
//: - experiment: Set `bufferSize` to 5: fewer ticks are dropped, and the buffer still holds the last five when the timer stops, so the reader's last five reads are ticks 16 to 20.
let bufferSize = knob("bufferSize", default: 1, in: 1...8, "how many ticks the stream keeps for its reader, for the two bounded policies")
//: - experiment: Set `finishStream` to false: the producer stops its timer after the last tick but never calls `finish()`, and the reader's `for await` waits for good; the watchdog ends the run.
let finishStream = knob("finishStream", default: true, "the producer finishes the stream after its last tick; false: it only stops its timer")
//: - experiment: Set `cancelAlbum` to false: nobody cancels the album, neither download's `onCancel` runs, and both downloads run all ten chunks.
let cancelAlbum = knob("cancelAlbum", default: true, "the page cancels the album task while its two downloads run")

let tickCount = 20
let tickInterval = 0.04
let readSeconds = 0.12

/*:
 ## A timer as a stream

 `AsyncStream { continuation in … }` runs its closure once, at once, and hands it a *continuation*: a handle the producer keeps, whatever thread it runs on. Each `continuation.yield(value)` puts one element into the stream, `continuation.finish()` ends it, and the reader takes the elements with `for await`, suspending while there is none. Unlike page 9's continuation, this one may be called any number of times.

 The producer here is a Dispatch timer (`DispatchSourceTimer`, in `RepeatingTimer.swift` beside this page, which wraps it so it can be stopped from any thread) firing every 40 ms at 1× on a serial queue of its own. Each fire yields its number, and the mark on the timer's lane says what `yield` answered:

 - `.enqueued(remaining:)`: the stream took the tick: it went straight to a reader waiting in `for await`, or into the buffer, with room for `remaining` more;
 - `.dropped(tick)`: the buffer was full, and this tick was thrown away;
 - `.terminated`: the stream has ended, and nobody will ever read it.

 `yield` never waits for the reader: a callback cannot be suspended. So when the reader is slower than the producer, the buffer decides what survives, by the policy the stream was made with: `.unbounded` keeps everything (and grows for as long as the reader lags), `.bufferingOldest(n)` keeps the first `n` and drops each new tick that finds it full, `.bufferingNewest(n)` keeps the last `n`, so each new tick pushes out the oldest one waiting. The dropped element is the one `.dropped` carries.
 */
/// The yields' answers, counted as they come: the page prints these counts, never a figure it expects.
final class YieldCounts: Sendable {
    private let counts = Mutex((enqueued: 0, dropped: 0))

    func count(_ result: AsyncStream<Int>.Continuation.YieldResult) {
        counts.withLock { counts in
            if case .dropped = result { counts.dropped += 1 } else { counts.enqueued += 1 }
        }
    }

    var enqueued: Int { counts.withLock { $0.enqueued } }
    var dropped: Int { counts.withLock { $0.dropped } }
}

/// What `yield` answered for `tick`, as the timer's lane shows it.
func describe(_ result: AsyncStream<Int>.Continuation.YieldResult, of tick: Int) -> String {
    switch result {
    case .enqueued(let remaining) where remaining == .max: "yield \(tick): enqueued"
    case .enqueued(let remaining): "yield \(tick): enqueued, room for \(remaining)"
    case .dropped(let dropped): "yield \(tick): dropped \(dropped)"
    case .terminated: "yield \(tick): terminated"
    @unknown default: "yield \(tick): \(result)"
    }
}

/// The fires of `timer` as a stream of tick numbers. The stream's end, however it comes, stops the timer. After tick
/// `last`, if given, the producer finishes the stream (or, with `finishStream` off, only stops its timer).
func ticks(of timer: RepeatingTimer, last: Int? = nil,
           buffering policy: AsyncStream<Int>.Continuation.BufferingPolicy = .unbounded,
           counting counts: YieldCounts? = nil) -> AsyncStream<Int> {
    AsyncStream(bufferingPolicy: policy) { continuation in
        continuation.onTermination = { reason in
            mark("\(timer.name): onTermination(.\(reason))")
            timer.stop()
        }
        timer.start { tick in
            let result = continuation.yield(tick)
            counts?.count(result)
            mark("\(timer.name): \(describe(result, of: tick))")
            guard tick == last else { return }
            if finishStream {
                trace("\(timer.name): finish()") { continuation.finish() }
            } else {
                timer.stop()
            }
        }
    }
}

/*:
 The reader takes 120 ms over each tick, three of the timer's intervals, so it falls behind from the start. It suspends while it works (`Task.sleep`), so its thread is free meanwhile.
 */
let policy: AsyncStream<Int>.Continuation.BufferingPolicy = switch buffering {
case .unbounded: .unbounded
case .bufferingOldest: .bufferingOldest(bufferSize)
case .bufferingNewest: .bufferingNewest(bufferSize)
}
let yields = YieldCounts()
let tickTimer = RepeatingTimer("tick timer", every: tickInterval)
let tickStream = ticks(of: tickTimer, last: tickCount, buffering: policy, counting: yields)
if !finishStream {
    expectEnding(.stuck, because: "the producer stops its timer after the last tick without calling finish(), so the reader's for await waits for a tick that never comes")
}
let reader = tracedTask("reader") {
    await trace("for await tick in ticks") {
        var seen: [Int] = []
        for await tick in tickStream {
            await trace("read tick \(tick)") {
                try? await Task.sleep(for: .seconds(readSeconds / Simulated.speed))
            }
            seen.append(tick)
        }
        return seen
    }
}
let seen = await reader.value
print("With \(policy), the timer yielded \(yields.enqueued + yields.dropped) ticks: \(yields.enqueued) enqueued, \(yields.dropped) dropped. The reader saw \(seen.count): \(seen.map(String.init).joined(separator: ", "))")

/*:
 With the page's `bufferingNewest(1)`, the reader reads about one tick in three, and always the last: whenever it comes back for more, the tick waiting is the newest. How many it reads varies a little from run to run, with the moments the reader and the timer happen to wake; the counts printed above come from what `yield` answered in this run, and every tick yielded is either one the reader saw or one counted dropped.

 - speaker: Point at the timer's lane: a row of marks such as `yield 3: dropped 2`, `yield 4: dropped 3`, about three for every `read tick` span on the reader's lane. Then at the printed line: enqueued plus dropped is the number of ticks, and the reader saw exactly the enqueued ones. The exact count varies by a tick or so between runs. Usual question: "why not make yield wait?" Because the producer is a callback on a Dispatch queue: it cannot suspend, and blocking it would hold up the timer. Back-pressure needs a producer that can await; `AsyncStream` is for producers that cannot.

 ## `onTermination`: who stops the producer

 A stream that nobody reads any more should stop what feeds it, or the timer fires for ever into a buffer nobody empties. `continuation.onTermination` is the place: the runtime calls it once, when the stream ends, with `.finished` or `.cancelled`, and this page's handler stops the timer. In the Swift 6.3.1 runtime (`stdlib/public/Concurrency/AsyncStreamBuffer.swift`), the stream's storage takes the handler out under its lock before it calls it, so however many ways the stream is ended, the handler runs once, on whichever thread ended it first. There are three ways to end one:

 1. **The producer finishes it.** Above, the `finish()` span on the timer's lane holds the mark `onTermination(.finished)`: `finish()` calls the handler itself, on the producer's thread, before it wakes the reader. The reader still reads what was buffered, then its `for await` ends.
 2. **The reader's task is cancelled.** The stream's `next()` wraps its wait in `withTaskCancellationHandler`, whose handler cancels the stream: so if the reader is suspended in `for await` when its task is cancelled, `onTermination(.cancelled)` runs at once on the thread that called `cancel()`. If the reader is busy with a tick, nothing is waiting to hear it: the handler runs when the reader next asks for a tick, on the reader's thread. Below, the reader is held inside tick 3 until the page has sent `cancel()`, so it is the second case, on every run.
 3. **The stream is dropped.** When the last copy of the stream, its iterator included, goes away, the runtime cancels it: a `for await` left with `break`, in a function that owned the stream, ends it with `onTermination(.cancelled)` on the reader's own thread.
 */
let cancelledTimer = RepeatingTimer("cancel timer", every: tickInterval)
let cancelledTicks = ticks(of: cancelledTimer)
let readingTickThree = Gate()
let cancelSent = Gate()
let cancelledReader = tracedTask("cancelled reader") {
    var read = 0
    for await tick in cancelledTicks {
        read += 1
        guard tick == 3 else { continue }
        await trace("cancelled reader holds tick 3") {
            readingTickThree.open()
            await cancelSent.wait()
        }
        mark("cancelled reader asks for the next tick")
    }
    mark("cancelled reader's loop ends")
    return read
}
await readingTickThree.wait()
trace("cancelledReader.cancel()") { cancelledReader.cancel() }
cancelSent.open()
print("The cancelled reader read \(await cancelledReader.value) ticks before its for await ended")

/// Reads ticks from a stream of its own until tick 3, then leaves the loop: the stream, this function's alone, goes.
func readThreeTicksAndLeave() async {
    for await tick in ticks(of: RepeatingTimer("dropped timer", every: tickInterval)) where tick == 3 {
        mark("break after tick 3")
        break
    }
}
await readThreeTicksAndLeave()
print("The dropped stream's reader left after tick 3")

/*:
 In the lanes: the `cancelledReader.cancel()` span holds no `onTermination`, because the reader was busy and not waiting; the mark `cancel timer: onTermination(.cancelled)` comes on the reader's lane right after `cancelled reader asks for the next tick`, and `cancel timer stopped` follows on the timer's queue. A tick that fired while the reader held tick 3 was already in the buffer: the reader still gets it before its loop ends, so it reads 3 or 4 ticks, by whether the timer fired in that moment. The dropped stream's `onTermination(.cancelled)` sits on the lane of `break after tick 3`. In all three, no `yield` mark follows the timer's `stopped`: Dispatch runs a timer's cancel handler only after the fire in progress has returned. A `yield` mark may come just after `onTermination`, though: the mark is made after `yield` returns, and the reader may have taken that very tick and ended the stream in between.

 - speaker: Walk the three `onTermination` marks, one per timer: on the tick timer's lane inside `finish()`; on the reader's lane after its cancel; on the lane of the `break`. Say: "the handler runs where the stream ends, so it must be quick and thread-safe: here it only cancels a timer." Usual question: "what if I forget onTermination?" Then the timer runs until the process ends, yielding into a stream whose every `yield` answers `.terminated`. The cancelled reader reads 3 or 4 ticks, by whether a tick fired while it was held.

 ## Cancellation that reaches the work: `withTaskCancellationHandler`

 Page 9 showed that cancelling a task only sets a flag. A task suspended in a continuation (page 9's `withCheckedContinuation`) checks nothing: it waits for a callback, and the download behind that callback goes on as if nobody had cancelled. `withTaskCancellationHandler(operation:onCancel:)` is the bridge: it runs `operation`, and if the task is cancelled meanwhile, it runs `onCancel` **immediately, on the thread that called `cancel()`**, while the operation is still suspended. That is the moment to cancel the underlying work, as page 3's operation did in its `cancel()` override.

 `PhotoDownload` below is a callback API: `start` returns at once, ten chunks of 50 ms at 1× arrive on a thread of the download's own, and `completion` is called once, with the photo's size, or with `CancellationError` as soon as it sees `cancel()`. `download(_:)` wraps it the standard way.
 */
/// A download in the style of a callback API; `onChunk` hears of each chunk as it begins, for the page's holds.
final class PhotoDownload: Sendable {
    let name: String
    private let cancelled = Atomic<Bool>(false)
    private let onChunk: @Sendable (Int) -> Void

    init(_ name: String, onChunk: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.name = name
        self.onChunk = onChunk
    }

    func start(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        // A cancel() that came before start() is remembered: the download never begins.
        if cancelled.load(ordering: .acquiring) {
            return completion(.failure(CancellationError()))
        }
        // A thread of its own, as a network library's would be: its chunks block it, never the pool's threads.
        Thread { [self] in
            for chunk in 1...10 {
                if cancelled.load(ordering: .acquiring) {
                    mark("\(name) stops before chunk \(chunk)")
                    return completion(.failure(CancellationError()))
                }
                trace("\(name) chunk \(chunk)") {
                    onChunk(chunk)
                    Simulated.wait(0.05)
                }
            }
            completion(.success(10 * 40_000))
        }.start()
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }
}

/// Downloads through `download`, cancellable: the task's cancellation reaches the download through `onCancel`.
func download(_ download: PhotoDownload) async throws -> Int {
    try await withTaskCancellationHandler {
        mark("\(download.name): operation starts")
        return try await withCheckedThrowingContinuation { continuation in
            download.start { result in
                mark("\(download.name): continuation resumed")
                continuation.resume(with: result)
            }
        }
    } onCancel: {
        mark("\(download.name): onCancel")
        download.cancel()
    }
}

/*:
 The album task downloads two photos as child tasks (`async let`) and is cancelled, from the page's top-level code, while coffee's chunk 3 runs (a `Gate` holds the page until then, so the moment is certain). Cancelling a task cancels its children at once, on the same call, and each child's `onCancel` runs on the thread that called `album.cancel()`, inside that call: the spans show both `onCancel` marks inside the `album.cancel()` span, on its lane. Each download sees its flag before its next chunk and calls back once with `CancellationError`, and each continuation is resumed exactly once.
 */
let coffeeAtChunkThree = Gate()
let album = tracedTask("album") {
    async let coffee = asTracedTask("download coffee") {
        try await download(PhotoDownload("coffee") { chunk in if chunk == 3 { coffeeAtChunkThree.open() } })
    }
    async let chelsea = asTracedTask("download chelsea") {
        try await download(PhotoDownload("chelsea"))
    }
    return try await [coffee, chelsea]
}
if cancelAlbum {
    await coffeeAtChunkThree.wait()
    trace("album.cancel()") { album.cancel() }
}
switch await album.result {
case .success(let sizes): print("The album downloaded both photos: \(sizes.map { "\($0 / 1000) kB" }.joined(separator: " and "))")
case .failure(let error): print("The album ended with \(error)")
}

/*:
 **Cancelled before it starts.** A task cancelled before it reaches `withTaskCancellationHandler` does not miss the handler: the runtime runs `onCancel` at once, on the task's own thread, *before* the operation begins, and then runs the operation anyway. So the handler may run before the work it should cancel exists, and the work must remember a cancel that came first. `PhotoDownload` does: its `start` sees the flag and calls back at once, with no chunk downloaded. Below, the page cancels a task while it waits at a gate, then opens the gate.

 - deep dive: Where `onCancel` runs, in the runtime's sources. `withTaskCancellationHandler` (`stdlib/public/Concurrency/TaskCancellation.swift`) adds a cancellation record to the current task, runs the operation, and removes the record when the operation returns. Adding the record to a task already cancelled runs the handler there and then (`swift_task_addCancellationHandler` in the runtime's `Task.cpp`), which is why it comes before the operation. `Task.cancel()` (`swift_task_cancel`) marks the task cancelled and walks its records (`performCancellationAction` in `TaskStatus.cpp`): it runs each cancellation handler and cancels each child task the same way, recursively, all on the calling thread, before `cancel()` returns. So a handler runs concurrently with the operation, and may run while the task's internal lock is held: the documentation warns not to take, in a handler, a lock that is held while cancelling or resuming a continuation.
 */
let lateStart = Gate()
let lateTask = tracedTask("late download") {
    await lateStart.wait()
    mark("late download calls download(rocket)")
    return try await download(PhotoDownload("rocket"))
}
lateTask.cancel()
lateStart.open()
let lateResult = await lateTask.result
print("The download cancelled before it started: \((try? lateResult.get()).map { "\($0 / 1000) kB" } ?? "CancellationError"), with no chunk downloaded")

/*:
 - speaker: Point at the `album.cancel()` span on its lane: both `coffee: onCancel` and `chelsea: onCancel` marks sit inside it, on that lane, not on the downloads' lanes. Then at the late download: `rocket: onCancel` comes before `rocket: operation starts`, on the same lane. Say: "the handler is the only code that runs at the moment of cancel; everything else finds out later." Usual question: "why not resume the continuation from onCancel?" Because the download will still call back, and a checked continuation resumed twice crashes (page 9): let the work report its own cancellation, once.
 */
//: Next, what happens when the threads behind all these tasks are blocked: [When the pool runs dry](@next)
//:
//: Back to the page before: [Isolation](@previous)
print("Done: a timer bridged into a stream, its drops counted, its timer stopped by onTermination three ways, and a download cancelled through its parent task.")
