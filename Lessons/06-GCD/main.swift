/*:
 # GCD

 Under `OperationQueue` sits Grand Central Dispatch, the C library `libdispatch`. It has no operation objects and no states: you hand a closure to a `DispatchQueue`, and the queue runs it on one of the threads of its pool. A great deal of concurrent code on Apple platforms uses it directly, and so can yours.

 Linux runs the same library, built from the open-source swift-corelibs-libdispatch. The differences are in what is underneath: Apple's kernel manages the worker threads there, while on Linux libdispatch keeps a pool of its own. This page measures what that pool does.
 */
@preconcurrency import Glibc
import Foundation
import Synchronization
import LessonKit

//: - experiment: Change `jobs` and compare the serial and the concurrent queue: the serial one grows by half a second per job, the concurrent one by the pool's width at a time.
let jobs = knob("jobs", default: 4, in: 1...8, "how many half-second jobs go to the serial and to the concurrent queue")
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

 There is no public way to get hold of "the current queue" as an object, but libdispatch will tell you the current queue's **label**. Swift's `Dispatch` module on Linux does not expose the C function that does it, `dispatch_queue_get_label(nil)`; LessonKit reaches it through the `CDispatch` module and offers it as `ThreadIdentity.currentQueueLabel`. It is the same helper that labels every event on this page's timeline.
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

 `async` puts the block in the queue and returns; it does not wait for the block to start, let alone finish. To make that visible, the worker is first given a half-second job, so the block sent after it has to wait its turn, while the caller carries on.
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
 `sync` puts the block in the queue and **blocks the caller until the block has run**. On a serial queue that means after everything queued before it. The block is not handed to a worker thread: libdispatch runs it on the calling thread, here the main thread, once the queue is free. The label says `tour.gcd.worker`; the thread id is the main thread's.
 */
let syncCall = duration {
    worker.sync {
        trace("sync block") {
            print("The sync block runs on thread \(ThreadIdentity.current) (the main thread: \(ThreadIdentity.isMainThread)), queue \(ThreadIdentity.currentQueueLabel)")
        }
    }
}
mark("sync returned")
print("async returned after \(formatSeconds(asyncCall)); sync returned after \(formatSeconds(syncCall)), once the earlier job and both blocks were done")

/*:
 ### Here be dragons: `sync` onto the queue you are on

 A block running on a serial queue owns that queue until it returns. If it calls `sync` on the same queue, the new block waits for the queue to be free, and the queue is free only when the outer block returns, which waits for the new block. Neither can ever go on: a deadlock.

 libdispatch notices that the thread asking to wait is the one that owns the queue, and rather than hang forever it stops the process with an illegal instruction (`SIGILL`). On Linux it prints **nothing at all**: no message, exit status 132 in a shell. Apple's crash reports carry a line saying `dispatch_sync called on queue already owned by current thread`; the Linux build of libdispatch does not even contain that text, so here you have to know what the silent crash means. The same trap fires for `DispatchQueue.main.sync` called on the main thread.

 The tutorial turns Swift's crash backtracer off to keep its output short. Run the page on its own (`swift run Lesson06GCD --set syncOntoCurrentQueue=true`) and the backtrace shows where it stopped: in `__DISPATCH_WAIT_FOR_QUEUE__`, called from `_dispatch_sync_f_slow`, called from `DispatchQueue.sync`, twice.

 - experiment: Set `syncOntoCurrentQueue` to true. The page announces the crash, then makes it; the tutorial names it.
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

 The same half-second jobs go first to the serial worker, then to the concurrent queue. A **dispatch group** (the subject of the next page) lets the page wait until all of a batch are done. On the serial queue each job starts when the previous one ends. On the concurrent queue they start together, as many at a time as the thread pool has threads.

 - note: On Linux the pool starts as wide as the machine has cores and adds a thread only after its workers have been blocked for a while (roughly one more per half second to a second). On a two-core machine four sleeping jobs therefore run two at a time, not four.
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
print("\(jobs) jobs of 0.5 s: serial queue \(formatSeconds(serialTime)), concurrent queue \(formatSeconds(concurrentTime)) on \(ProcessInfo.processInfo.activeProcessorCount) cores")

/*:
 ## What quality of service means here

 A global queue's quality of service (QoS) says how urgent its work is. On Apple platforms the kernel schedules the threads accordingly. Linux has no such classes, so libdispatch does two things instead: each QoS gets a **root queue and pool of its own** (its label is the QoS), and it sets the **nice value** of that pool's threads: higher for less urgent work. A nice value only matters when threads compete for a core; on an idle machine, background work runs as fast as any other.

 Two Linux details: `userInteractive` shares the user-initiated queue, and lowering a nice value below 0 needs privileges, so the user-initiated threads of a process started by an ordinary user stay at 0 (as root they get −2). The nice values below are measured on each worker thread, not looked up.
 */
func niceValue() -> Int32 {
    getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(ThreadIdentity.current))
}

let qualities: [DispatchQoS.QoSClass] = [.background, .utility, .default, .userInitiated, .userInteractive]
let qosSurvey = DispatchGroup()
for quality in qualities {
    DispatchQueue.global(qos: quality).async(group: qosSurvey) {
        print("QoS \(quality): queue \(ThreadIdentity.currentQueueLabel), thread \(ThreadIdentity.current), nice \(niceValue())")
    }
}
qosSurvey.wait()
print("The main thread's nice value is \(niceValue())")

/*:
 ## The main queue needs the main thread to serve it

 Blocks sent to the main queue run only when the main thread asks for them: an app's run loop does that between events. A program that is busy running its own code, as this page is, never looks, so the block waits.
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
 The other way to serve the main queue is `dispatchMain()`, for programs that do everything in blocks. It never returns. On Linux it differs from Apple platforms in a way you can see: the main thread **exits**, and libdispatch serves the main queue from one of its worker threads. The block below still finds itself on the queue labelled `com.apple.main-thread`, and `dispatchPrecondition(condition: .onQueue(.main))` holds, but the thread id is not the process id. Code that checks `Thread.isMainThread` to decide whether it may touch the UI gets `false` here.

 Since `dispatchMain()` never returns, the last block ends the program itself.

 Next, waiting for a whole batch of work, and hearing when it is done: [Groups](@next)
 */
DispatchQueue.main.async {
    dispatchPrecondition(condition: .onQueue(.main))
    print("Served by dispatchMain: main-queue block on thread \(ThreadIdentity.current) (the main thread: \(ThreadIdentity.isMainThread)), queue \(ThreadIdentity.currentQueueLabel)")
    print("Done: two queues of your own, the global queues by QoS, and the main queue served two ways.")
    exit(0)
}
dispatchMain()
