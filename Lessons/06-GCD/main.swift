/*:
 # GCD

 Under `OperationQueue` sits Grand Central Dispatch, the C library `libdispatch`. It has no operation objects and no states: you hand a closure to a `DispatchQueue`, and the queue runs it on one of the threads of its pool. A great deal of concurrent code on Apple platforms uses it directly, and so can yours.

 Linux runs the same library, built from the open-source swift-corelibs-libdispatch. What differs is underneath: on Apple platforms the kernel runs the worker threads, on Linux libdispatch keeps pools of threads of its own. This page measures what those pools do.

 - speaker: Say: Grand Central Dispatch is the engine under `OperationQueue`: blocks on queues, with no objects to track. Point at the queue names in the lanes: the labels you give queues are what the timeline shows, so name your queues.
 */
@preconcurrency import Glibc
import Foundation
import Synchronization
import LessonKit

//: - experiment: Change `jobs`: the serial queue's time grows by one job's length for every job you add, the concurrent queue's only for every pool's width of jobs (the page prints the cores it found).
let jobs = knob("jobs", default: 4, in: 1...8, "how many half-second jobs go to the serial and to the concurrent queue")
//: - experiment: Set `cancelEarlierSearches` to false: no keystroke cancels the search before it, so all four searches run instead of only the last.
let cancelEarlierSearches = knob("cancelEarlierSearches", default: true, "each keystroke cancels the search the keystroke before it scheduled")
let syncOntoCurrentQueue = knob("syncOntoCurrentQueue", default: false, "call sync on the serial queue from a block it is already running")

/*:
 ## Queues you are given, queues you make

 Every process has a **main queue**, tied to the main thread, and a handful of **global queues**, concurrent and shared by everyone, one per quality of service. Every queue has a label; the global ones are named after Apple's `com.apple.root` queues, on Linux too.
 */
print("main queue:   \(DispatchQueue.main.label)")
print("global queue: \(DispatchQueue.global().label)")
print("global queue for user-initiated work: \(DispatchQueue.global(qos: .userInitiated).label)")

/*:
 Your own queues are **serial** unless you ask otherwise: one block at a time, in the order they were added. Give them a label that says what they are for; it is what a debugger, a crash report and this tutorial's timeline show.
 */
let worker = DispatchQueue(label: "tour.gcd.worker")
let concurrentWorkers = DispatchQueue(label: "tour.gcd.concurrent", attributes: .concurrent)

/*:
 ## Which queue am I on?

 There is no public way to get hold of "the current queue" as an object, but libdispatch will tell you the current queue's **label**. LessonKit offers it as `ThreadIdentity.currentQueueLabel`, the same helper that labels every event on this page's timeline.

 - deep dive: The C function is `dispatch_queue_get_label(nil)`. Swift's `Dispatch` module on Linux marks it unavailable (use the `label` property, it says, which needs the queue you do not have), so LessonKit imports `CDispatch`, the C module beneath it, and calls it there.
 */
peek(ThreadIdentity.currentQueueLabel)
worker.sync {
    print("Inside a block on the worker, the current queue is \(ThreadIdentity.currentQueueLabel)")
}

/*:
 An `OperationQueue` on Linux is a dispatch queue underneath: Foundation creates a concurrent `DispatchQueue` with the operation queue's name the first time it needs one, so an operation sees that name as its current queue label.
 */
let operations = OperationQueue()
operations.name = "tour.gcd.operations"
operations.addOperation {
    print("Inside an operation, the current queue is \(ThreadIdentity.currentQueueLabel)")
}
operations.waitUntilAllOperationsAreFinished()

/*:
 ## `async` returns at once, `sync` waits

 `async` puts the block in the queue and returns; it does not wait for the block to start, let alone finish. To make that visible, the worker is first given a half-second job, so the block sent after it waits its turn while the caller carries on.

 - speaker: Point at the main lane: after `async` the main thread goes on at once while the block runs on a worker; after `sync` main's span spans the block's. Usual question: "does `sync` run the block on the main thread?" Often yes: libdispatch may run a `sync` block on the calling thread; the lane shows where it ran.
 */
worker.async {
    trace("earlier job") { Simulated.wait(0.5) }
}
let asyncCall = duration {
    worker.async {
        trace("async block") {
            print("The async block runs after the earlier job, on thread \(ThreadIdentity.current)")
        }
    }
}
mark("async returned")

/*:
 `sync` puts the block in the queue and **blocks the caller until the block has run**. On a serial queue that means after everything queued before it. Which thread runs the block while the caller waits is the page's prediction: the block prints its thread, whether that is the main thread, and the label of the queue it runs on, and its `sync block` span sits on that thread's lane.
 */
let syncCall = duration {
    worker.sync {
        trace("sync block") {
            let why = ThreadIdentity.isMainThread ? ": libdispatch handed the block to no worker thread; it ran it on the calling thread, which waits in sync anyway, once the queue was free" : ""
            print("The sync block runs on thread \(ThreadIdentity.current) (the main thread: \(ThreadIdentity.isMainThread)), queue \(ThreadIdentity.currentQueueLabel)\(why)")
        }
    }
}
mark("sync returned")
print("async returned after \(formatSeconds(asyncCall)); sync returned after \(formatSeconds(syncCall)), once the earlier job and both blocks were done")

/*:
 ### Here be dragons: `sync` onto the queue you are on

 A block running on a serial queue owns that queue until it returns. If it calls `sync` on the same queue, the new block waits for the queue to be free, and the queue is free only when the outer block returns, which waits for the new block. Neither can ever go on: a deadlock.

 libdispatch notices that the thread asking to wait is the one that owns the queue, and rather than hang forever it stops the process with an illegal instruction (`SIGILL`). On Linux it prints **nothing at all**: no message, exit status 132 in a shell. The same trap fires for `DispatchQueue.main.sync` called on the main thread.

 - deep dive: Apple's crash reports carry the line `dispatch_sync called on queue already owned by current thread`. In swift-corelibs-libdispatch (`src/internal.h`), `DISPATCH_CLIENT_CRASH` hands that text to `_dispatch_set_crash_log_cause_and_message`, which this open-source build defines, outside Windows, to drop the text (`strings libdispatch.so` does not find it here), then calls `_dispatch_hardware_crash()`, which is `__builtin_trap()`: on x86-64 the `ud2` instruction, hence `SIGILL`. The tutorial turns Swift's backtracer off to keep its output short; run the page on its own (`swift run Lesson06GCD --set syncOntoCurrentQueue=true`) and the backtrace shows where it stopped: in `__DISPATCH_WAIT_FOR_QUEUE__`, called from `_dispatch_sync_f_slow`, called from `DispatchQueue.sync`, twice.

 - experiment: Set `syncOntoCurrentQueue` to true: the page announces the crash, prints the outer block's line, and stops there with `SIGILL` instead of reaching "Done"; the tutorial names the ending a libdispatch trap.

 - speaker: Demo: set `syncOntoCurrentQueue` to true. The page dies of SIGILL at once instead of hanging, because libdispatch sees the queue is already held by this thread. Usual question: "is every such deadlock caught?" No: `sync` in a cycle through two serial queues simply hangs.
 */
if syncOntoCurrentQueue {
    expectEnding(.crash, because: "a block on the serial worker queue calls sync on that same queue, which could never return")
    worker.sync {
        print("The outer block owns the worker queue and now calls worker.sync…")
        worker.sync {
            print("This line never prints.")
        }
    }
}

/*:
 ## Serial and concurrent, timed

 The same half-second jobs go first to the serial worker, then to the concurrent queue; a **dispatch group** (the next page's subject) waits until all of a batch are done. On the serial queue each job starts when the previous one ends. On the concurrent queue they start together, as many at a time as the pool has threads.

 - note: The cores are a pool's cap, not its starting size. A pool makes its threads on demand: when a block arrives and no thread of the pool is idle, libdispatch starts one, up to as many as the cores this process may use (`_dispatch_root_queue_init_pthread_pool` and `_dispatch_root_queue_poke_slow`, `src/queue.c`), and a thread that has found no work for 5 s leaves (`_dispatch_worker_thread`, which waits for work with a 5-second timeout). Past the cap, once a second libdispatch looks at the pool, and if work is waiting while fewer of its threads are running than there are cores (these jobs sleep, so none is), it adds a thread. A long batch of sleeping jobs therefore slowly gets wider; a short one runs about as wide as the cores. Page 8 shows what that once-a-second look can cost.

 - speaker: Point at the serial queue's jobs end to end on one lane against the concurrent queue's jobs side by side on two: the times printed follow. Say that the concurrent queue's width is the pool's: a thread per core at most, each made as a block arrives and gone after 5 s idle, and more only after libdispatch's once-a-second look.
 */
func runJobs(on queue: DispatchQueue, kind: String) {
    let batch = DispatchGroup()
    for number in 1...jobs {
        queue.async(group: batch) {
            trace("\(kind) job \(number)") { Simulated.wait(0.5) }
        }
    }
    batch.wait()
}

let serialTime = duration { runJobs(on: worker, kind: "serial") }
let concurrentTime = duration { runJobs(on: concurrentWorkers, kind: "concurrent") }
print("\(jobs) jobs of \(Simulated.describe(0.5)): serial queue \(formatSeconds(serialTime)), concurrent queue \(formatSeconds(concurrentTime)) on \(usableCores()) cores")

/*:
 ## Work for later, and work you can take back

 `asyncAfter(deadline:)` hands a block to a queue once a deadline has passed; until then no thread waits for it. A `DispatchWorkItem` wraps a block in an object you keep, so you can still act on it after handing it over: `cancel()` it, have a block sent to a queue when it is over with `notify(queue:)`, or wait until it is over with `wait()`.

 Together they make a search box that waits for a pause in the typing: each keystroke schedules a search a moment later and cancels the one the keystroke before it scheduled. Only the last keystroke's search runs.
 */
let searchDelay = 0.3, typingInterval = 0.1
print("A keystroke every \(Simulated.describe(typingInterval)); each schedules its search for \(Simulated.describe(searchDelay)) later")
var searches: [(query: String, item: DispatchWorkItem)] = []
for query in ["t", "to", "tou", "tour"] {
    if cancelEarlierSearches { searches.last?.item.cancel() }
    let search = DispatchWorkItem { @Sendable in
        trace("search \"\(query)\"") {
            Simulated.wait(0.1)
            print("Searched for \"\(query)\"")
        }
    }
    search.notify(queue: worker) { @Sendable in
        mark("over: search \"\(query)\"")
    }
    mark("keystroke: \(query)")
    worker.asyncAfter(deadline: .now() + searchDelay / Simulated.speed, execute: search)
    searches.append((query, search))
    Simulated.wait(typingInterval)
}
duration { searches.last?.item.wait() }
let cancelled = searches.filter { $0.item.isCancelled }.map { "\"\($0.query)\"" }
print("wait() returned once the last search was over; cancelled: \(cancelled.isEmpty ? "none" : cancelled.joined(separator: ", "))")

/*:
 Cancelling does not take the item out of the queue. When its turn comes libdispatch skips the block, and then treats the item as over: its `notify` block is sent, and a `wait()` returns. The timeline shows an `over:` mark for each cancelled search at the time it was due, not when it was cancelled. And a block already running when you cancel it runs on to the end: `cancel()` only sets a flag, as with operations, and `isCancelled` reads it.

 - note: Why `@Sendable in`? Code at the top level of a Swift 6 program belongs to the main actor, and so does a closure written there unless it is marked `@Sendable`. `async` and `asyncAfter` declare their closures `@Sendable`; `DispatchWorkItem` and its `notify` do not. Unmarked, such a closure has Swift check, when it runs, that it is on the main queue, and on a worker thread that check stops the process with `SIGILL`. `DispatchWorkItem` is not `Sendable` either, so a closure cannot capture the item itself.
 */

/*:
 ## What quality of service means here

 A quality of service (QoS) says how urgent work is. libdispatch keeps one global queue per QoS on every platform; the `com.apple.root` labels come from its own source. What differs is what a QoS does to a thread. On Apple platforms the kernel schedules threads by their QoS. Linux has no such classes, so each global queue gets a pool of threads of its own, and libdispatch sets the **nice value** of that pool's threads: higher for less urgent work. A nice value matters only when threads compete for a core; on an idle machine, background work runs as fast as any other.

 A queue you create can ask for a QoS too, `DispatchQueue(label:qos:)`: its blocks then run on threads of that QoS. The nice values below are measured on each thread that ran a block, read from the kernel (field 19 of `/proc/thread-self/stat`), not looked up. Page 2 showed the same values reaching an `OperationQueue` through its `qualityOfService`.

 - deep dive: Each pool thread starts in `_dispatch_worker_thread` (`src/queue.c`), which names the thread after its root queue (the last 15 characters of the label) and calls `setpriority` with the value `_dispatch_pp_to_nice` picks (`src/shims/priority.h`): background 10, utility 2, default 0, user-initiated −2, user-interactive −4. Linux has no kernel QoS, so `dispatch_get_global_queue` hands out the user-initiated queue for user-interactive work and the −4 never happens. A nice value below 0 needs privileges: run by an ordinary user, the user-initiated threads stay at 0.
 */
let qualities: [DispatchQoS.QoSClass] = [.background, .utility, .default, .userInitiated, .userInteractive]
let qosSurvey = DispatchGroup()
for quality in qualities {
    DispatchQueue.global(qos: quality).async(group: qosSurvey) {
        print("QoS \(quality): queue \(ThreadIdentity.currentQueueLabel), thread \(ThreadIdentity.current), nice \(ThreadIdentity.niceValue)")
    }
}
let thumbnails = DispatchQueue(label: "tour.gcd.thumbnails", qos: .utility)
thumbnails.async(group: qosSurvey) {
    print("Own queue with QoS utility: queue \(ThreadIdentity.currentQueueLabel), thread \(ThreadIdentity.current), nice \(ThreadIdentity.niceValue)")
}
qosSurvey.wait()
print("The main thread's nice value is \(ThreadIdentity.niceValue)")

/*:
 ## The main queue needs the main thread to serve it

 Blocks sent to the main queue run only when the main thread asks for them: an app's run loop does that between events. A program that is busy running its own code, as this page is, never looks, so the block waits.

 The block raises a flag that the main thread reads, two threads touching one value. So the flag keeps its value in a `Mutex` (from the Synchronization module): `withLock` lets one thread at a time at the value, and every read and write goes through it. That is why `Flag` can be `Sendable` without `@unchecked`: `Mutex` is `Sendable` itself, and the compiler checks the rest.

 - speaker: Say: a block sent to the main queue waits until the main thread serves it, from a run loop or `dispatchMain()`. Usual question: "after `dispatchMain()`, does main-queue work run on the main thread?" Not on Linux: the main thread exits and a pool thread serves the main queue, as the lane shows.
 */
final class Flag: Sendable {
    private let value = Mutex(false)
    func raise() { value.withLock { $0 = true } }
    var isRaised: Bool { value.withLock { $0 } }
}

let mainBlockRan = Flag()
DispatchQueue.main.async {
    mainBlockRan.raise()
    print("Served by the run loop: main-queue block on thread \(ThreadIdentity.current) (the main thread: \(ThreadIdentity.isMainThread)), queue \(ThreadIdentity.currentQueueLabel)")
}
mark("main-queue block sent")
Simulated.wait(0.2)
peek(mainBlockRan.isRaised)

//: Turning the main run loop once serves the main queue: the block runs, on the main thread.
_ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
peek(mainBlockRan.isRaised)

/*:
 The other way to serve the main queue is `dispatchMain()`, for programs that do everything in blocks. It never returns: it makes the main thread exit (`pthread_exit`), and on its way out the thread turns the main queue into an ordinary serial queue, served by pool threads like a queue of your own. libdispatch does this on Apple platforms and Linux alike; only Windows ends the thread another way. The block below still finds itself on the queue labelled `com.apple.main-thread`, and `dispatchPrecondition(condition: .onQueue(.main))` holds, but it runs on a worker thread: code that checks `Thread.isMainThread` to decide whether it may touch the UI gets `false`.

 A libdispatch maintainer called that detached main queue an API mistake: using the main queue after `dispatch_main()` should have been made a trap from the start (swift-corelibs-libdispatch pull request 299).

 - deep dive: In `src/queue.c` at the 6.3.1 tag, `dispatch_main()` calls `pthread_exit(NULL)` on every platform but Windows (`_endthreadex` there). The exit runs the thread's destructors; the main queue's, `_dispatch_queue_cleanup2()`, clears the queue's `DQF_THREAD_BOUND` flag and hands it over as an ordinary serial queue. Its target is the default-QoS overcommit root queue, as for your own serial queues, hence the worker's name below: the last 15 characters of `com.apple.root.default-qos.overcommit`. A Linux process whose main thread has exited looks like a zombie to `ps`, so on Linux `dispatch_main()` first registers one more destructor, `_dispatch_sig_thread`, which parks the main thread in `sigsuspend` for good (pull request 99); the page reads that from `/proc`. Elsewhere the main thread really ends, and `_dispatch_queue_cleanup2()` parks a pool thread instead.

 Since `dispatchMain()` never returns, the last block ends the program itself.

 Next, waiting for a whole batch of work, and hearing when it is done: [Groups](@next)
 */
DispatchQueue.main.async {
    dispatchPrecondition(condition: .onQueue(.main))
    print("Served by dispatchMain: main-queue block on thread \(ThreadIdentity.current) (Thread.isMainThread: \(Thread.isMainThread)), queue \(ThreadIdentity.currentQueueLabel), thread name \(KernelThread.name(of: ThreadIdentity.current))")
    print("The original main thread \(getpid()) is still there: \(KernelThread.whereabouts(of: getpid(), expected: "sigsuspend"))")
    print("Done: two queues of your own, work for later, the global queues by QoS, and the main queue served two ways.")
    exit(0)
}
dispatchMain()
