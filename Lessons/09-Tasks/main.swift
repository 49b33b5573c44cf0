/*:
 # Tasks

 Part two: Swift Concurrency

 Part one waited for work in three ways: by blocking a thread, by turning a run loop, or by handing over a completion handler. Swift's own concurrency has a fourth: a function marked `async` can *suspend* at an `await`, giving its thread back until what it waits for is there, and then carry on from the same line. What runs it is a *task*.

 This page sets `await` beside the run-loop wait and the completion handler, starts tasks two ways, measures how many of them run at once and on whose threads, watches a task change threads, cancels tasks, and builds an `async` function from a callback with a continuation, the way page 3's asynchronous operation called `finish()`.

 - speaker: Say: part two is Swift's own concurrency, and one word carries it: `await` suspends a task and gives its thread back, where part one blocked a thread or nested a callback. Point, all through the page, at the queue names the spans carry: `com.apple.main-thread` for main-actor work, `Swift global concurrent queue` for detached tasks, `com.apple.root.default-qos` for plain Dispatch blocks. Usual question: "does Swift Concurrency replace Dispatch?" Not on Linux: it runs on it, and this page shows tasks on libdispatch's own worker threads.
 */
@preconcurrency import Glibc
import Foundation
import LessonKit
import Synchronization

let taskCount = knob("taskCount", default: 8, in: 1...32, "how many tasks each pool batch starts")
let gcdBlocksCompute = knob("gcdBlocksCompute", default: false, "the Dispatch blocks that fill the pool compute instead of sleeping")
let resumeTwice = knob("resumeTwice", default: false, "the buggy photo service answers twice, so its continuation is resumed twice")

/// Blocks the calling thread for `seconds` at 1×, shortened by the speed factor, as a blocking read or a lock would.
func blockThread(_ seconds: Double) {
    usleep(useconds_t(seconds / Simulated.speed * 1e6))
}

/// Suspends the calling task for `seconds` at 1×, shortened by the speed factor; its thread is free meanwhile.
/// A cancelled task's sleep ends at once, throwing `CancellationError`.
func sleepTask(_ seconds: Double) async throws {
    try await Task.sleep(for: .seconds(seconds / Simulated.speed))
}

print("Before the first await, the page runs on thread \(ThreadIdentity.current); the main thread: \(ThreadIdentity.isMainThread)")

/*:
 ## From callbacks to `await`

 Here is a download followed by a filter, written in the style of part one: each step takes a completion handler, and the next step goes inside it. Errors and results travel by hand, and the code reads inside out.

 `downloadPhoto(_:completion:)`, in `CallbackNetwork.swift` beside this page, is page 3's pretend network: it returns at once and calls back later on a Dispatch thread.
 */
func filteredPhotoWithCallbacks(_ name: String, completion: @escaping @Sendable (RGBImage?) -> Void) {
    downloadPhoto(name) { photo in
        guard let photo else { return completion(nil) }
        DispatchQueue.global().async {
            completion(trace("tilt-shift \(name)") { tiltShift(photo) })
        }
    }
}

/*:
 The same two steps with `async`: the function suspends at each `await` and reads top to bottom, like page 3's run-loop wait. The difference is what the thread does meanwhile. `waitWhileRunLoopTurns` kept its thread busy turning a run loop, and a second wait started from inside nested in the first. An `await` gives the thread back: it goes off to run other tasks, and the rest of the function is scheduled again when the awaited work is done.

 This download waits with `Task.sleep`, which suspends the task without holding a thread, as a real network request in an `async` API does.
 */
func downloadPhoto(_ name: String, seconds: Double = 0.3) async throws -> RGBImage {
    try await trace("network load \(name)") {
        try await sleepTask(seconds)
    }
    return try Photos.load(name)
}

func filteredPhoto(_ name: String) async throws -> RGBImage {
    let photo = try await downloadPhoto(name)
    return trace("tilt-shift \(name)") { tiltShift(photo) }
}

/*:
 The callback version is still waited for here, to compare: `withCheckedContinuation` turns it into something to `await`, and the last section of this page is about exactly that.

 - note: The line just below is the page's first `await`. From here on, the page's top-level code, which runs on the *main actor*, runs on pool threads, and the `main` lane goes quiet. On Linux, a program whose top-level code awaits hands its main thread over to Dispatch (`dispatchMain()`, page 6), so main-actor work is served by a worker thread under the label `com.apple.main-thread`. Page 11 looks at the main actor.
 */
let viaCallbacks = await withCheckedContinuation { continuation in
    filteredPhotoWithCallbacks("coffee") { continuation.resume(returning: $0) }
}
print("After the first await, the page runs on thread \(ThreadIdentity.current); the main thread: \(ThreadIdentity.isMainThread)")
let viaAwait = try await filteredPhoto("coffee")
print("Filtered with callbacks: \(viaCallbacks.map { "\($0.width)×\($0.height)" } ?? "nothing"); with await: \(viaAwait.width)×\(viaAwait.height)")

/*:
 What the thread does during an `await` shows in ticks. A task on the main actor marks a tick on its lane every 50 ms at 1×. While the page *awaits* a download, the main actor is free and the ticks go on; while it *blocks* the main actor with `usleep` for as long, the ticking task cannot run at all. That is page 3's run-loop experiment, with tasks.

 - speaker: Point at the tick marks: they go on through the `awaiting a download` span and stop for the whole of `blocking the main actor`. How many ticks the line counts varies from run to run; the gap during the block does not. Usual question: "why are the ticks not on the main lane?" After the page's first `await` the main thread has handed the main queue to Dispatch, so main-actor work runs on a `T` lane under the main queue's label (page 11 comes back to it).
 */
let tickerShouldStop = Atomic<Bool>(false)
let ticker = Task { @MainActor in
    var ticks = 0
    while !tickerShouldStop.load(ordering: .relaxed) {
        mark("tick")
        ticks += 1
        try? await sleepTask(0.05)
    }
    return ticks
}
try await trace("awaiting a download") {
    _ = try await downloadPhoto("chelsea", seconds: 0.5)
}
trace("blocking the main actor") {
    blockThread(0.5)
}
tickerShouldStop.store(true, ordering: .relaxed)
print("The ticker ticked \(await ticker.value) times in all; the timeline shows where")

/*:
 ## `Task {}` and `Task.detached`

 `Task { … }` starts a new task that runs its closure concurrently with the code that made it. It inherits what surrounds it: the actor (here the main actor, since top-level code runs there), the priority, and any *task-local* values. `Task.detached { … }` inherits none of those and runs on the *global concurrent executor*, which on Linux is a Dispatch queue: Swift keeps no threads of its own there (two sections down).

 `.value` awaits a task's result, like page 3's `waitUntilFinished()`, but without blocking a thread.

 The timeline tells them apart by queue: the inheriting task's span runs on `com.apple.main-thread`, the main actor's queue, and the detached one's on `Swift global concurrent queue`, the global executor's.

 - speaker: Read the two printed lines aloud: `Task {}` sees `request 42` and runs on the main queue; `Task.detached` sees `none` and runs on `Swift global concurrent queue`. Usual question: "which should I use?" `Task {}`, nearly always: a detached task drops the actor, the priority and the task-locals, which is rarely what you want.
 */
enum Request {
    /// A value every task started inside `withValue` can read: an id for a log line, say.
    @TaskLocal static var id = "none"
}

let (inheriting, detached) = await Request.$id.withValue("request 42") {
    let inheriting = Task {
        trace("Task {} body") { "sees Request.id = \(Request.id), on \(ThreadIdentity.currentQueueLabel)" }
    }
    let detached = Task.detached {
        trace("Task.detached body") { "sees Request.id = \(Request.id), on \(ThreadIdentity.currentQueueLabel)" }
    }
    return (await inheriting.value, await detached.value)
}
print("Task {} \(inheriting)")
print("Task.detached \(detached)")

/*:
 ## The global executor: a queue as wide as the cores

 Detached tasks, and the children of page 10's groups, run on a concurrent Dispatch queue called `Swift global concurrent queue` (one for each task priority), whose *width*, how many of its jobs may run at once, the Swift runtime sets to the number of CPUs. Not more: a task is supposed to *suspend* when it waits, never to block, so one running job a core is all tasks need.

 The page starts `taskCount` detached tasks twice. The first batch blocks its threads with `usleep`, the second suspends with `Task.sleep`, each for half a second at 1×.

 - experiment: Change `taskCount`. The blocking batch takes one half second for every queue's width of tasks (the page prints the rounds it expects), the suspending batch about one half second whatever the count.
 */
let taskWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))
let jobSeconds = 0.5
let rounds = (taskCount + taskWidth - 1) / taskWidth
print("The tasks' queue here is \(taskWidth) wide (sysconf(_SC_NPROCESSORS_CONF)), so \(taskCount) blocking tasks take \(rounds) rounds")

/// Starts `taskCount` detached tasks that each run `job` as the span "`spanName` N", counted by `meter`, waits for all
/// of them, and says how long that took.
func runBatch(_ label: String, meter: OverlapMeter, spanName: String,
              _ job: @escaping @Sendable () async -> Void) async -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    await trace(label) {
        let tasks = (1...taskCount).map { number in
            Task.detached {
                await meter.trace("\(spanName) \(number)") { await job() }
            }
        }
        for task in tasks {
            await task.value
        }
    }
    return (clock.now - start) / .seconds(1)
}

let blockingMeter = OverlapMeter()
let blockingTime = await runBatch("\(taskCount) tasks that block", meter: blockingMeter, spanName: "usleep task") {
    blockThread(jobSeconds)
}
print("\(taskCount) tasks blocking in usleep for \(Simulated.describe(jobSeconds)) took \(formatSeconds(blockingTime)), at most \(blockingMeter.mostAtOnce) at once, on \(blockingMeter.threadCount) threads")

let sleepingMeter = OverlapMeter()
let sleepingTime = await runBatch("\(taskCount) tasks that suspend", meter: sleepingMeter, spanName: "Task.sleep task") {
    try? await sleepTask(jobSeconds)
}
print("\(taskCount) tasks suspended in Task.sleep for \(Simulated.describe(jobSeconds)) took \(formatSeconds(sleepingTime)), at most \(sleepingMeter.mostAtOnce) at once")

/*:
 The blocking tasks line up, a queue's width at a time: the queue starts no more of its jobs while that many run, and a job stuck in `usleep` is still running. The suspending tasks all wait at once, because a suspended task holds no thread and no place in the queue.

 That is a promise as much as a limit: tasks alone never cause a thread explosion, but a task that blocks (a lock held long, a `DispatchSemaphore.wait()`, a synchronous read) takes one of those places away from every other task for as long as it blocks.

 - speaker: Point at the blocking batch: its `usleep task` spans go as many at a time as the printed width (two on a two-core machine), one round after another; then at the suspending batch, every `Task.sleep task` span side by side. Say: the width counts running jobs, not busy cores, so a task asleep in `usleep` keeps its place. Usual question: "doesn't Dispatch add threads for blocked work?" It does, to its pool, after a second or so; the tasks' queue still starts no more than its width. The next section shows that pool is Dispatch's own.

 - deep dive: Where the width comes from. In the Swift runtime on Linux (`stdlib/public/Concurrency/DispatchGlobalExecutor.cpp`, `getGlobalQueue`), the global executor creates its queue with `dispatch_queue_create("Swift global concurrent queue", …)`, with the task priority as its quality of service, and calls `dispatch_queue_set_width(queue, -3)`, `DISPATCH_QUEUE_WIDTH_MAX_LOGICAL_CPUS`. libdispatch 6.3.1 (`_dispatch_lane_set_width` in `src/queue.c`, `_dispatch_qos_max_parallelism` in `src/shims.h`) turns that into `dispatch_hw_config(logical_cpus)`, which on Linux is `sysconf(_SC_NPROCESSORS_CONF)` (`src/shims/hw_config.h`): the CPUs the machine has, not the ones this process may use.

   The width only counts jobs. The threads that run them come from the pool the queue targets, libdispatch's pool for its quality of service, and that pool is sized by the affinity mask (next section). So under `taskset -c 0` on a two-core machine the tasks' queue stays two wide while the pool starts with room for one thread: the blocking batch runs one task at a time until libdispatch's once-a-second check finds that thread blocked and adds a second (measured at 1× on this machine, busy with builds: eight blocking tasks took 2.54 to 2.63 s in three runs, not the 2.0 s the page predicts; how much longer varies with when the check comes). The thread it added stays for 5 s once idle, so the next section's single block leaves it free, and the task there starts at once.

   On Apple platforms the runtime asks Dispatch for its *cooperative* global queues instead (`dispatch_get_global_queue` with a cooperative flag), which a page on Linux cannot show.

 ## One pool for tasks and Dispatch

 On Linux Swift keeps no threads of its own for tasks. The tasks' queue targets libdispatch's pool for its quality of service, and a task started without a priority, like every task on this page, has the default one (`TaskPriority.medium`): its jobs run on the same worker threads as the blocks of `DispatchQueue.global()` (page 2). That pool has room for as many threads as this process may use cores (`usableCores()`, read from the affinity mask), made as work comes and gone after 5 s idle; beyond that, libdispatch adds one only when its once-a-second check finds work waiting and fewer of the pool's workers runnable than there are cores, because the others are blocked.

 So Dispatch work can hold up tasks. The page fills the pool: it sends to `DispatchQueue.global()` as many blocks as the pool has room for threads, each blocking its thread for two seconds at 1×, waits until all of them run, and starts one detached task. The task's span starts only when it gets a thread: when a block ends and frees one, or when the check adds one. Which comes first varies: at 1× the check always does, within a second of real time whatever the speed; at `--speed 4` the blocks end after half a second, and either can. The page prints which.

 The lanes show the sharing: the blocks, in Dispatch's colour, run on the threads that ran the batches above in the tasks' colour.

 - experiment: Set `gcdBlocksCompute` to true. The blocks now keep their cores busy computing instead of sleeping. A computing worker is not blocked, so the check adds no thread, and the task's span starts only when a block ends, on that block's lane.

 - speaker: Point at the `Dispatch block` spans in Dispatch's colour on the same `T` lanes that just ran tasks, and at the task's span, which starts only when a thread comes to it. Read the printed line: whether a block ended first or the pool added a thread varies with the speed and with when libdispatch's once-a-second check falls (at 1× it is the added thread). Usual question: "so GCD code can hold up my tasks?" On Linux, yes: one pool serves both, and a pool full of blocked Dispatch work delays tasks until a thread frees or the check adds one. Demo: set `gcdBlocksCompute` to true, and the task waits for a block to end, on its lane.
 */
let poolThreads = usableCores()
let gcdSeconds = 2.0
let blockMeter = OverlapMeter()
let blocksRunning = DispatchGroup()
let blocksDone = DispatchGroup()

for number in 1...poolThreads {
    blocksRunning.enter()
    DispatchQueue.global().async(group: blocksDone) {
        blockMeter.trace("Dispatch block \(number)") {
            blocksRunning.leave()
            if gcdBlocksCompute { Simulated.compute(gcdSeconds) } else { blockThread(gcdSeconds) }
        }
    }
}
// Blocks the main actor for the moment the blocks take to start: resuming an await while the blocks hold every thread
// of the pool would itself wait for a thread (measured: until the pool grew).
blocksRunning.wait()
mark("Task.detached behind the blocks")
let taskCreated = ContinuousClock.now
let (behindThread, behindWait) = await Task.detached {
    trace("task behind the Dispatch blocks") { (ThreadIdentity.current, ContinuousClock.now - taskCreated) }
}.value
await withCheckedContinuation { continuation in
    blocksDone.notify(queue: .main) { continuation.resume() }
}
let gotThread = blockMeter.threads.contains(behindThread) ? "the thread a block freed" : "a thread the pool added"
print("\(poolThreads) Dispatch block\(poolThreads == 1 ? "" : "s") \(gcdBlocksCompute ? "computing" : "blocked") for \(Simulated.describe(gcdSeconds)); the task behind them waited \(formatSeconds(behindWait / .seconds(1))) and ran on \(gotThread)")

/*:
 ## An `await` may resume on another thread

 A suspended task holds no thread, so when it resumes it runs on whichever pool thread is free, not necessarily the one it left. Four detached tasks run four steps each, sleeping between steps; each step is a span on the lane of the thread that ran it.

 - speaker: Read the hop count aloud, and point at a task whose steps sit on different lanes, if this run has one: how many hop varies from run to run, and on a busy machine a run can have none. Say: nothing tied to a thread survives an `await`. Usual question: "can I pin a task to one thread?" Not on the global executor; an actor with a custom executor decides where its code runs, which is beyond this page.
 */
let hoppers = (1...4).map { number in
    Task.detached {
        var threads: [Int32] = []
        for step in 1...4 {
            trace("task \(number), step \(step)") {
                threads.append(ThreadIdentity.current)
                blockThread(0.02)
            }
            if step < 4 { try? await sleepTask(0.05) }
        }
        return threads
    }
}
var resumptions = 0
var hops = 0
for hopper in hoppers {
    let threads = await hopper.value
    resumptions += threads.count - 1
    hops += zip(threads, threads.dropFirst()).filter { $0 != $1 }.count
}
print("In this run \(hops) of \(resumptions) resumptions came back on another thread than the step before")

/*:
 So nothing tied to a thread survives an `await`: not a thread-local value, not a lock taken before it (a `Mutex` or `NSLock` must be unlocked by the thread that locked it), not the assumption that `Thread.current` is the same. What does survive is the task: its task-locals, its priority, its cancellation.

 ## Cancellation is cooperative

 `cancel()` on a task sets a flag, as `cancel()` on an `Operation` does (page 1), and nothing more: the task runs on until it looks. It looks in one of two ways:

 - `Task.isCancelled` is `Operation.isCancelled`: a `Bool` to check between steps, and stop however suits;
 - `try Task.checkCancellation()` throws `CancellationError` if the task was cancelled, and the error carries the stop up through every `try`.

 Only some waits look for you. A cancelled `Task.sleep` ends at once and throws, as does any function that calls `Task.checkCancellation()` itself. Most awaits do not: a task awaiting a continuation, another task's `value`, a group's `next()` or an actor waits exactly as long as it would have, cancelled or not. To stop such a wait at the moment of cancelling, the code that waits installs a handler with `withTaskCancellationHandler`; page 13, Streams and cancellation, runs one.

 The first task works in six chunks and checks `Task.isCancelled` between them. The page cancels it while chunk 3 runs: a gate (LessonKit's `Gate`, a hold made of a continuation: `wait()` suspends the task until someone calls `open()`) keeps chunk 3 going until the `cancel()` has been sent, so the order is certain. Chunk 3 still runs to its end, and the task stops at its next check.
 */
let chunkThreeStarted = Gate()
let cancelSent = Gate()
let chunked = Task.detached {
    var chunksDone = 0
    for chunk in 1...6 {
        if Task.isCancelled {
            mark("saw Task.isCancelled before chunk \(chunk)")
            break
        }
        await trace("chunk \(chunk)") {
            if chunk == 3 {
                chunkThreeStarted.open()
                await cancelSent.wait()
            }
            blockThread(0.05)
        }
        chunksDone += 1
    }
    return chunksDone
}
await chunkThreeStarted.wait()
chunked.cancel()
mark("cancel() the chunked task")
cancelSent.open()
print("The chunked task did \(await chunked.value) of 6 chunks")

//: The second task sleeps for ten seconds at 1×, and `Task.sleep` throws `CancellationError` the moment the task is cancelled. Its `try Task.checkCancellation()` afterwards would throw too, for work that has no waiting call of its own to do it.
let aboutToSleep = Gate()
let sleeper = Task.detached {
    do {
        try await trace("Task.sleep for 10 s") {
            aboutToSleep.open()
            try await sleepTask(10)
        }
        try Task.checkCancellation()
        return "slept to the end"
    } catch is CancellationError {
        mark("CancellationError")
        return "stopped by CancellationError"
    } catch {
        return "stopped by \(error)"
    }
}
await aboutToSleep.wait()
// Marked first: the sleep may end before cancel() even returns.
mark("cancel() the sleeper")
sleeper.cancel()
print("The sleeping task \(await sleeper.value)")

/*:
 The third task awaits a continuation: LessonKit's `Gate.wait()` is one, resumed by `open()`. Cancelled while it waits, it goes on waiting, and only when the page opens the gate, a fifth of a second at 1× after the `cancel()`, does it carry on, to find `Task.isCancelled` true.

 - speaker: Point at three things: chunk 3 running on past the `cancel()` mark and no chunk after it; the 10 s sleep cut short at its cancel mark; the continuation's span running past its cancel mark until the page's `open()` mark. Say: cancelling sets a flag; only waits that look at it end early. Usual question: "then how do I cancel a network request?" Check between steps, or wrap the wait in `withTaskCancellationHandler`, which page 13 runs.
 */
let continuationReached = Gate()
let resumedByHand = Gate(announcing: continuationReached)
let continuationWaiter = Task.detached {
    await trace("awaiting a continuation") { await resumedByHand.wait() }
    return Task.isCancelled
}
await continuationReached.wait()
continuationWaiter.cancel()
mark("cancel() the continuation's task")
try await sleepTask(0.2)
mark("open() its gate")
resumedByHand.open()
print("The task awaiting a continuation waited until it was resumed; Task.isCancelled then: \(await continuationWaiter.value)")

/*:
 Unlike an operation's, a task's cancellation reaches further: cancelling a task cancels its child tasks too (page 10), and `withTaskCancellationHandler` runs code at the moment of cancelling, to stop a callback-style request as page 3's fetch did in its `cancel()` override (page 13 runs it).

 ## Continuations: `finish()` for `async`

 Page 3's asynchronous operation stayed executing until its callback called `finish()`. A *continuation* does the same for a task: `withCheckedContinuation` hands its closure a continuation and suspends the task; the callback calls `resume(returning:)` once, on whatever thread it came, and the task carries on with that value.
 */
func photoSize(named name: String) async -> String? {
    await withCheckedContinuation { continuation in
        downloadPhoto(name) { photo in
            continuation.resume(returning: photo.map { "\($0.width)×\($0.height)" })
        }
    }
}

let rocketSize = await trace("await photoSize(named: rocket)") {
    await photoSize(named: "rocket")
}
print("The rocket photo, through a continuation: \(rocketSize ?? "not found")")

/*:
 Where `finish()` counted only its first call, a continuation must be resumed **exactly once**, and the *checked* continuation checks.

 **Resumed twice**, it crashes the program. A task cannot return twice from one `await`, so the second `resume` is a bug, and the runtime stops at once rather than let it corrupt a task that has moved on. The message names the function that made the continuation, from the `function:` argument, `#function` by default.

 - experiment: Set `resumeTwice` to true. The buggy service below answers twice, its callback resumes twice, and the page crashes with `Fatal error: SWIFT TASK CONTINUATION MISUSE: photoSizeFromTheBuggyService(named:) tried to resume its continuation more than once, returning Optional("…")!`, from `_Concurrency/CheckedContinuation.swift` line 169 of the Swift 6.3.1 runtime.

 - speaker: Point at `await photoSize(named: rocket)` spanning the download on another lane: the task holds no thread while the callback is pending. Demo: set `resumeTwice` to true, and the page stops with the runtime's misuse message, which the tutorial shows as the announced ending. Usual question: "checked or unsafe continuation?" Checked: the unsafe one says nothing when it is misused, as the box below tells.
 */
func photoSizeFromTheBuggyService(named name: String) async -> String? {
    await withCheckedContinuation { continuation in
        downloadPhoto(name, answersTwice: true) { photo in
            continuation.resume(returning: photo.map { "\($0.width)×\($0.height)" })
        }
    }
}

if resumeTwice {
    expectEnding(.crash, because: "the buggy service answers twice, and a checked continuation resumed a second time stops the program")
    print("The buggy service says: \(await photoSizeFromTheBuggyService(named: "retina") ?? "not found")")
}

/*:
 **Never resumed**, the awaiting task stays suspended for good, and nothing crashes. The callback below forgets the error path: for a photo that does not exist it returns without resuming. The checked continuation notices when its last copy goes away, here when Dispatch releases the callback after it returned, and the runtime writes a warning to standard error: `SWIFT TASK CONTINUATION MISUSE: photoSizeFromTheForgetfulService(named:) leaked its continuation without resuming it. This may cause tasks waiting on it to remain suspended forever.` (The output pane shows it as the page's stderr.)

 - important: The warning comes when the continuation is destroyed, not when the task has waited too long, and not at exit. A continuation kept alive somewhere (stored in a dictionary of pending requests, say) and never resumed leaks silently. `withUnsafeContinuation` checks neither mistake: never resumed, it says nothing; resumed twice, what happens is undefined (tried on this machine, the task allocator aborted the program with `freed pointer was not the last allocation`).
 */
func photoSizeFromTheForgetfulService(named name: String) async -> String? {
    await withCheckedContinuation { continuation in
        downloadPhoto(name) { photo in
            guard let photo else { return }   // the bug: no resume on this path
            continuation.resume(returning: "\(photo.width)×\(photo.height)")
        }
    }
}

let forgottenTaskEnded = Atomic<Bool>(false)
Task.detached {
    _ = await photoSizeFromTheForgetfulService(named: "unicorn")
    forgottenTaskEnded.store(true, ordering: .relaxed)
}
// The rocket again, as long as the unicorn's download: by the time it is in, the unicorn's callback has long returned.
_ = await photoSize(named: "rocket")
try await sleepTask(0.2)
print("The task that awaited the unicorn has ended: \(forgottenTaskEnded.load(ordering: .relaxed))")

/*:
 Tasks one at a time, each started and awaited by hand. Next, tasks in families, whose children the parent waits for and cancels together: [Task groups](@next)

 Back to the last page of part one: [Barrier](@previous)
 */
print("Done: every task ended but one, still waiting on a continuation nobody resumed.")
