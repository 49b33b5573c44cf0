/*:
 # When the pool runs dry

 Part two has repeated one rule since page 9: a task that waits suspends, and never blocks its thread. This page breaks it on purpose. On Linux, Swift's global executor is a libdispatch concurrent queue, `Swift global concurrent queue`, one for each task priority, each as wide as the machine's logical CPUs. Its work runs on libdispatch's pool for that quality of service: a task of the default priority runs on the default-QoS pool, the one `DispatchQueue.global()` uses too. That pool grows by about a thread a second while its workers are blocked, but the queue's width does not grow with it. The page blocks every slot of the queue on purpose, watches who can still run, fixes it with a continuation, counts the process's threads in `/proc` while GCD makes one per blocked block and tasks make none, and asks what a task's priority changes on Linux.

 - speaker: Say: this page breaks the rule part two kept repeating from page 9 on, never block a task's thread, and shows what happens when you do. Three questions to set up: who can still run when every task's thread is blocked, why GCD programs end up with dozens of threads and tasks do not, and what "priority" does on Linux. Everything here is read from this machine at run time: the queue's width, the thread counts, the nice values.
 */
@preconcurrency import Glibc
import Foundation
import LessonKit
import Synchronization

/// Who answers the tasks that wait on a semaphore in the first section.
enum Answerer: String, CaseIterable {
    /// A block on `DispatchQueue.global()`: it runs once libdispatch's monitor adds a thread to the pool.
    case dispatchBlock
    /// Another task of the same priority: it needs a slot of the queue the blocked tasks hold, and never gets one.
    case task
}

/// Where the thread-explosion section sends its blocking blocks.
enum GCDQueue: String, CaseIterable {
    /// A serial queue of its own for each block: each gets a thread of the overcommit pool at once.
    case ownSerialQueues
    /// `DispatchQueue.global()`: the default-QoS pool, which grows by about a thread a second while its workers block.
    case global
}

//: - experiment: Set `answeredBy` to `task`: the answer the blocked tasks wait for must come from another task, which needs one of the slots they hold. Nothing ever answers; the page hangs on purpose, and after a few seconds of silence the watchdog stops it, naming the blocked tasks' open spans ("task 1 waits on the semaphore").
let answeredBy = knob("answeredBy", default: Answerer.dispatchBlock, "dispatchBlock: a Dispatch block answers the blocked tasks, after about a second; task: another task must answer, and never can")
//: - experiment: Change `jobs`: the GCD batch has one thread per job, all at once, so the process's thread count climbs with `jobs`; the batch of tasks that await stays on the threads the pool had.
let jobs = knob("jobs", default: 8, in: 2...32, "how many jobs each batch of the thread-explosion section starts")
//: - experiment: Set `gcdQueue` to `global`: the blocking blocks share the default-QoS pool instead of a serial queue each. Fewer run at once (the page prints how many), so the batch takes longer: the pool has only the threads it kept from the sections above, and adds about one a second while all of them block.
let gcdQueue = knob("gcdQueue", default: GCDQueue.ownSerialQueues, "ownSerialQueues: a serial queue, and so a thread, for each blocking block; global: all on DispatchQueue.global()")

/// The width the Swift runtime gives its queue on Linux: libdispatch's logical CPUs, `sysconf(_SC_NPROCESSORS_CONF)`.
let queueWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))

/// Seconds since `start`, as the page prints them.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    (ContinuousClock.now - start) / .seconds(1)
}

/*:
 ## Every slot blocked

 The page starts as many tasks as the queue is wide, and each calls `DispatchSemaphore.wait()`, the old way to wait for a callback. Each task blocks its thread, and with it one of the queue's slots: `DispatchQueue.sync` on a busy queue, a lock held for long, or a synchronous read would do the same. When all of them are blocked, the queue has no slot left for another task of that priority, however many threads the pool has.

 Two things can still run. A task of **another priority** runs at once: it goes to another queue, on another pool. And a **Dispatch block** on `DispatchQueue.global()` runs, but only on a thread of the pool that is free. libdispatch adds one when its monitor, a timer that looks once a second, reads in `/proc` that fewer of the pool's workers are running than there are CPUs while work waits. Its first look comes the moment the pool starts its first thread, here blocked task 1's, and if a blocked task is still waiting for a thread then, it adds one: the pool may hold an idle thread before the page needs one. Measured on this machine with a small program doing the same while two other programs kept both cores busy, it did in 29 runs of 90, and in none of 30 when the program let the monitor's first look pass before it started the tasks. So before it queues the answer the tasks wait for, the page takes every thread the pool has: it queues blocks on `DispatchQueue.global()` that block too, one at a time, until one of them has to wait for a thread the pool adds. Then every thread of the pool is blocked, and the monitor has just looked. The page measures how long the answer waits for a thread after that.
 */
/// How the first section went: how long each block that holds a pool thread and the answer waited to run, and whether
/// each ran on a thread the pool added after it was queued or on one it had.
struct DryPool {
    var holders: [(waited: Double, onAddedThread: Bool)] = []
    /// Also the default-QoS pool's threads, by the name libdispatch gave them, when it was queued (all of them held by
    /// a blocked task or block) and when it ran.
    var answer: (waited: Double, onAddedThread: Bool, poolWhenQueued: Int, poolWhenRun: Int)?
}

/// Queues blocks on `DispatchQueue.global()` that block on `semaphore`, one at a time as each starts, until one runs on
/// a thread the pool added after it was queued and every thread bearing the pool's name is held by one of them or by
/// a task in `blockedTasks`: the pool has no idle thread left, and its monitor has just looked. The pool's threads
/// only grow once a second, so this stops within a few blocks; `limit` guards against a libdispatch that names its
/// threads otherwise. Returns how long each waited and whether its thread was new, and the pool's name.
func holdEveryPoolThread(on semaphore: DispatchSemaphore, beside blockedTasks: Set<Int32>, in group: DispatchGroup,
                         limit: Int) -> (holders: [(waited: Double, onAddedThread: Bool)], pool: String) {
    var holders: [(waited: Double, onAddedThread: Bool)] = []
    var held = blockedTasks
    var pool = ""
    repeat {
        let number = holders.count + 1
        let threadsWhenQueued = ThreadCensus.threadIDs()
        let queuedAt = ContinuousClock.now
        let started = DispatchSemaphore(value: 0)
        let ran = Mutex<(thread: Int32, pool: String, waited: Double, onAddedThread: Bool)?>(nil)
        DispatchQueue.global().async(group: group) {
            let thread = ThreadIdentity.current
            let onAddedThread = !threadsWhenQueued.contains(thread)
            ran.withLock { $0 = (thread, ThreadCensus.currentPool, secondsSince(queuedAt), onAddedThread) }
            trace("block \(number) holds a thread the pool \(onAddedThread ? "added" : "had")") {
                started.signal()
                semaphore.wait()
            }
        }
        started.wait()
        let holder = ran.withLock { $0! }
        holders.append((holder.waited, holder.onAddedThread))
        held.insert(holder.thread)
        pool = holder.pool
    } while holders.count < limit && !(holders.last!.onAddedThread && ThreadCensus.threadIDs(ofPool: pool).isSubset(of: held))
    return (holders, pool)
}

/// The threads the blocked tasks run on, as each records its own.
let blockedTaskThreads = Mutex<Set<Int32>>([])

/// Blocks `queueWidth` tasks on a semaphore, shows a high-priority task running meanwhile, holds every other thread of
/// the default-QoS pool, queues the answer as `answeredBy` says, and returns once the blocked tasks are through. It
/// runs on a serial queue of its own, where blocking is part one's way to wait, because a task awaiting here would need
/// a slot of the very queue this blocks.
func blockEverySlot() -> DryPool {
    let semaphore = DispatchSemaphore(value: 0)
    let arrived = DispatchSemaphore(value: 0)
    let released = DispatchGroup()
    for number in 1...queueWidth {
        released.enter()
        tracedDetachedTask("blocked task \(number)", priority: .medium) {
            trace("task \(number) waits on the semaphore") {
                _ = blockedTaskThreads.withLock { $0.insert(ThreadIdentity.current) }
                arrived.signal()
                semaphore.wait()
            }
            released.leave()
        }
    }
    for _ in 1...queueWidth { arrived.wait() }

    let highPriorityRan = DispatchSemaphore(value: 0)
    tracedDetachedTask("high-priority task", priority: .high) {
        mark("a high-priority task runs on the \(ThreadCensus.currentPool) pool")
        highPriorityRan.signal()
    }
    highPriorityRan.wait()

    var dryPool = DryPool()
    let (holders, pool) = holdEveryPoolThread(on: semaphore, beside: blockedTaskThreads.withLock { $0 }, in: released,
                                              limit: queueWidth * 4)
    dryPool.holders = holders
    let waiters = queueWidth + holders.count
    let threadsWhenQueued = ThreadCensus.threadIDs()
    let poolWhenQueued = ThreadCensus.threadIDs(ofPool: pool).count
    let queuedAt = ContinuousClock.now
    let answer = Mutex<(waited: Double, onAddedThread: Bool, poolWhenQueued: Int, poolWhenRun: Int)?>(nil)
    switch answeredBy {
    case .dispatchBlock:
        mark("answer queued on DispatchQueue.global()")
        DispatchQueue.global().async {
            let waited = secondsSince(queuedAt)
            let onAddedThread = !threadsWhenQueued.contains(ThreadIdentity.current)
            answer.withLock { $0 = (waited, onAddedThread, poolWhenQueued, ThreadCensus.threadIDs(ofPool: pool).count) }
            trace("Dispatch block answers") {
                for _ in 1...waiters { semaphore.signal() }
            }
        }
    case .task:
        expectEnding(.stuck, because: "every slot of the Swift global concurrent queue is held by a task blocked on the semaphore, so the task that would signal it never starts")
        mark("answer queued as a task")
        tracedDetachedTask("answering task", priority: .medium) {
            trace("task answers") {
                for _ in 1...waiters { semaphore.signal() }
            }
        }
    }
    released.wait()
    dryPool.answer = answer.withLock { $0 }
    return dryPool
}

/// How a block that waited `seconds` got its thread, as the page prints it.
func howItRan(waited seconds: Double, onAddedThread: Bool) -> String {
    "after \(formatSeconds(seconds)) on a thread the pool \(onAddedThread ? "added" : "had")"
}

let dryPool = await withCheckedContinuation { continuation in
    DispatchQueue(label: "page driver").async { continuation.resume(returning: blockEverySlot()) }
}
print("\(queueWidth) tasks (the queue's width, sysconf(_SC_NPROCESSORS_CONF)) blocked on a semaphore until the answer came")
print("Blocks that hold the pool's other threads: " + dryPool.holders.enumerated().map { number, holder in
    "block \(number + 1) ran \(howItRan(waited: holder.waited, onAddedThread: holder.onAddedThread))"
}.joined(separator: ", "))
if let answer = dryPool.answer {
    print("The Dispatch block ran \(howItRan(waited: answer.waited, onAddedThread: answer.onAddedThread)): the pool had \(answer.poolWhenQueued) threads when it was queued and \(answer.poolWhenRun) when it ran")
}

/*:
 The lanes show it: the tasks' spans open on as many pool threads, the high-priority task's mark on a thread of its own pool while they wait, then the blocks that hold the pool's other threads: any the pool had run at once, and the last on a new lane after the monitor's look. The Dispatch block that answers comes about a second after that, on another new lane (not scaled by `--speed`: it is libdispatch's clock, not the page's). The page queued it right after one look of the monitor, so it waits for the next, a second later, a little less or more on a loaded machine. The page prints each block's wait and whether its thread was one the pool had or one it added.

 The page drives this section from a serial queue of its own (`page driver`), which blocks its own thread as part one's code did. The page's top-level code could not wait here itself: measured on this machine, top-level code awaiting a `Task`'s `value`, a `for await` over an `AsyncStream` or a `Task.sleep` did not go on while every slot was blocked. For `Task.sleep` the reason is in the runtime: its timer fires on that same queue (`getTimerQueue` in `DispatchGlobalExecutor.cpp`).

 Had the answer been a task (`answeredBy` set to `task`), no second would be long enough. The monitor still adds a thread after about a second, but a queue that has handed out all its slots gives none to a new thread, so the answering task never starts, and the page is stuck for good. Measured on this machine with the same two blocked tasks and no watchdog: the process's thread count in `/proc` rose by one a second in, fell back 5 s later when that idle thread left, and nothing ran for the 60 s it was watched. That is the deadlock Swift's rule prevents: a task may only wait for work that does not need a slot of the queue it holds, which in practice means: never block a task's thread waiting for other async work.

 - deep dive: Where the monitor lives. libdispatch on Linux has no kernel workqueue to ask for threads, so it keeps its own pools (`src/queue.c`, `_dispatch_root_queue_init_pthread_pool`): a pool of the default QoS may have as many threads as the CPUs this process may use (`dispatch_hw_config(active_cpus)`, read from the affinity mask), and an idle worker leaves after 5 s. A timer on the manager queue (`src/event/workqueue.c`, `_dispatch_workq_init_once`) is set up the first time a pool other than an overcommit one starts a thread; it fires at once, then once a second, and runs `_dispatch_workq_monitor_pools`: for each pool with work waiting, it reads `/proc/<tid>/stat` of every registered worker and counts those in state `R`. If none is running, it asks for one more thread beyond the pool's size; if fewer are running than the CPUs (and fewer than twice the CPUs in all pools together), it asks for one too, up to the CPUs beyond the pool's size. That second rule is how the first look, as a blocked task waits for a thread, can leave the pool a thread to spare. The Swift runtime's queue (`DispatchGlobalExecutor.cpp`, `getGlobalQueue`) is a `dispatch_queue_create` with `dispatch_queue_set_width(queue, -3)`, one slot per logical CPU (`sysconf(_SC_NPROCESSORS_CONF)`), whatever the pool does. On Apple platforms the runtime asks Dispatch for its cooperative queues instead.

 - speaker: Point at the "waits on the semaphore" spans, one per logical CPU, then the high-priority mark, at once on another lane. Then the "holds a thread" blocks: usually one, which waits for a new lane; on some runs (6 of 50 measured here with both cores busy) one more first takes a thread the pool already had, at once (the printed line says which). Then the gap with nothing running, about a second, and the Dispatch block, late, on a new thread. Usual question: "so the pool does grow, why is that not a fix?" Because the block got a thread and the tasks did not: the queue's width caps tasks, not threads. Second usual question: "why the holding blocks?" Without them the answer sometimes ran at once on a thread the pool kept spare; the page takes those first so the answer needs a new one on every run. With `answeredBy` set to `task` the holding blocks run the same way, and still nothing answers: the watchdog names the blocked spans.

 ## The fix: suspend, do not block

 The same wait with a continuation: each task suspends in `withCheckedContinuation`, and the callback resumes it. A suspended task holds no slot and no thread, so the answer can come from a task of the same priority, the very case that hung above. Here it does: four times the queue's width of tasks each await an answer that another task sends after 0.2 s at 1×.
 */
/// Asks for an answer that another task of the same priority sends after `seconds` at 1×, and suspends until it comes.
func answerFromATask(_ number: Int, after seconds: Double) async {
    await withCheckedContinuation { continuation in
        tracedDetachedTask("answering task \(number)", priority: .medium) {
            try? await Task.sleep(for: .seconds(seconds / Simulated.speed))
            mark("answer \(number) sent")
            continuation.resume()
        }
    }
}

let suspendingStart = ContinuousClock.now
let suspendingCount = queueWidth * 4
let threadsBeforeSuspending = ThreadCensus.threadCount()
await withTaskGroup(of: Void.self) { group in
    for number in 1...suspendingCount {
        group.addTracedTask("suspending task \(number)", priority: .medium) {
            await trace("task \(number) awaits its answer") {
                await answerFromATask(number, after: 0.2)
            }
        }
    }
}
print("\(suspendingCount) tasks awaited answers from tasks of their own priority: all answered in \(formatSeconds(secondsSince(suspendingStart))), with \(threadsBeforeSuspending) threads in the process before and \(ThreadCensus.threadCount()) after")

/*:
 - speaker: Point at the "awaits its answer" spans, all open at once, far more than the queue's slots, and each closing 0.2 s later (at 1×) as its answer comes in. Say: the tasks give their slot back at the `await`, and that is what lets the answering tasks run on the same queue. Usual question: "why not make the queue wider instead?" Every blocked task would then hold one more thread, which is the explosion of the next section; the width is the promise that tasks of one priority never need more threads than there are logical CPUs.

 ## Thread explosion, counted from `/proc`

 GCD's answer to a blocked worker is another thread. A block on a serial queue of its own runs on libdispatch's *overcommit* pool, which starts a new thread whenever work arrives and none of its threads is idle, up to 255. So `jobs` blocks that each block for half a second at 1×, one queue each, mean `jobs` threads at once. Tasks that `await` instead share the queue's slots: the pool needs no new thread for a suspended task.

 Each job reads how many threads the process has, from the entries of `/proc/self/task`, as it begins, and marks it. The tasks go first, so the GCD batch's threads (which stay about 5 s after their work) are not in their count.
 */
/// The most threads any job of a batch counted in `/proc/self/task` as it began.
let mostThreadsSeen = Mutex(0)

/// Marks how many threads the process has now, and keeps the most seen.
func countThreads() {
    let threads = ThreadCensus.threadCount()
    mark("\(threads) threads")
    mostThreadsSeen.withLock { $0 = max($0, threads) }
}

let threadsBeforeTasks = ThreadCensus.threadCount()
let taskBatchStart = ContinuousClock.now
await trace("\(jobs) tasks that await") {
    await withTaskGroup(of: Void.self) { group in
        for number in 1...jobs {
            group.addTracedTask("awaiting job \(number)", priority: .medium) {
                countThreads()
                await trace("job \(number) awaits") {
                    try? await Task.sleep(for: .seconds(0.5 / Simulated.speed))
                }
            }
        }
    }
}
let taskBatchSeconds = secondsSince(taskBatchStart)
let mostThreadsWithTasks = mostThreadsSeen.withLock { seen in
    defer { seen = 0 }
    return seen
}
print("\(jobs) tasks that await: \(formatSeconds(taskBatchSeconds)); the process had \(threadsBeforeTasks) threads before and at most \(mostThreadsWithTasks) while they ran")

let threadsBeforeBlocks = ThreadCensus.threadCount()
let blockBatchStart = ContinuousClock.now
let blocksAtOnce = OverlapMeter()
await trace("\(jobs) GCD blocks that block") {
    let batch = DispatchGroup()
    for number in 1...jobs {
        let queue = gcdQueue == .global ? DispatchQueue.global() : DispatchQueue(label: "job \(number)")
        queue.async(group: batch) {
            blocksAtOnce.trace("block \(number) blocks") {
                countThreads()
                Simulated.wait(0.5)
            }
        }
    }
    await withCheckedContinuation { continuation in
        batch.notify(queue: .global()) { continuation.resume() }
    }
}
let blockBatchSeconds = secondsSince(blockBatchStart)
let mostThreadsWithBlocks = mostThreadsSeen.withLock { $0 }
print("\(jobs) GCD blocks that block, on \(gcdQueue == .global ? "DispatchQueue.global()" : "a serial queue each"): \(formatSeconds(blockBatchSeconds)), at most \(blocksAtOnce.mostAtOnce) at once; the process had \(threadsBeforeBlocks) threads before and at most \(mostThreadsWithBlocks) while they ran")

/*:
 With a serial queue each, every block got its own lane at once: the overcommit pool does not look at the cores at all. On `DispatchQueue.global()` (`gcdQueue` set to `global`) the blocks run on the threads the default-QoS pool already has (those the first section's tasks and blocks ran on, idle now, each kept about 5 s), and the monitor adds about one a second while every one of them is blocked, so the batch takes longer and the count grows slowly. Either way the threads are the answer to blocking; tasks answer it by not blocking.

 - speaker: Point at the lanes of the GCD batch, one per block, and read the two printed counts: the tasks' batch added no thread, the GCD batch about one per job. Usual question: "what is wrong with many threads?" Each has a stack of its own and is a kernel task to schedule; hundreds of them blocked cost memory and context switches, and when they all wake they fight for the cores. The counts vary a little from run to run: the threads libdispatch keeps idle for about 5 s are counted too.

 ## Priority: what Linux shows, and what it does not

 A task's priority (`.background` 9, `.low` 17, `.medium` 21, `.high` 25) picks which of the runtime's queues its jobs go to, and so which pool's threads run it: libdispatch gives each pool's threads a nice value (page 6), 10 for background, -2 for user-initiated. When a higher-priority task awaits a lower one, the runtime *escalates* the lower one: it records the higher priority in the task and calls the task's escalation handlers.

 On Apple platforms the runtime also raises the priority of the thread running the task at that moment. The Linux runtime is built without that (`SWIFT_CONCURRENCY_ENABLE_PRIORITY_ESCALATION` is set only for Apple platforms, in `include/swift/Runtime/Concurrency.h`). So here a background task works until a high-priority task awaits it, reads its priority and its thread as it runs on, and again after one suspension (a `Task.sleep` of a millisecond), when the runtime queues it anew.
 */
/// The running task's priorities, as the runtime reports them, and its thread, as the kernel does.
struct Standing: Sendable, CustomStringConvertible {
    let current: UInt8
    let base: UInt8?
    let thread: Int32
    let pool: String
    let nice: Int

    /// Reads them in the task and on the thread that calls it.
    init() {
        current = Task.currentPriority.rawValue
        base = Task.basePriority?.rawValue
        thread = ThreadIdentity.current
        (nice, pool) = (ThreadIdentity.niceValue, ThreadCensus.currentPool)
    }

    var description: String {
        "Task.currentPriority \(current), Task.basePriority \(base.map(String.init) ?? "nil"), thread \(thread) of the \(pool) pool at nice \(nice)"
    }
}

let escalated = Atomic<Bool>(false)
let backgroundIsWorking = Gate()
let backgroundTask = tracedDetachedTask("background task", priority: .background) {
    let before = Standing()
    await withTaskPriorityEscalationHandler {
        trace("background work until escalated") {
            backgroundIsWorking.open()
            while !escalated.load(ordering: .acquiring) { Simulated.wait(0.005) }
        }
    } onPriorityEscalated: { old, new in
        mark("escalated from \(old.rawValue) to \(new.rawValue)")
        escalated.store(true, ordering: .releasing)
    }
    let whileRunning = Standing()
    try? await Task.sleep(for: .milliseconds(1))
    let afterSuspending = Standing()
    trace("background work after its suspension") { Simulated.wait(0.02) }
    return (before, whileRunning, afterSuspending)
}
await backgroundIsWorking.wait()
let (before, whileRunning, afterSuspending) = try await tracedDetachedTask("high-priority waiter", priority: .high) {
    try await backgroundTask.value
}.value
print("Before the await: \(before)")
print("Escalated while running: \(whileRunning)")
print("After one suspension: \(afterSuspending)")

/*:
 Escalation here is real but late. `Task.currentPriority` says 25 the moment the high-priority task awaits, and the escalation handler runs then, on the awaiting task's thread (its mark is on that lane). The thread the background task runs on keeps its nice value of 10 for as long as the task runs there. Only at its next suspension does the task leave it: woken from its `Task.sleep`, its next job is queued at the escalated priority, on the user-initiated queue, and a thread of that pool at nice -2 runs the rest (in every run measured on this machine; after a `Task.yield()` instead, one run in eight stayed on the background thread). `Task.basePriority` stays at 9 throughout: it is what the task was created with.

 Child tasks, measured the same way on this machine: a child in a task group of a background task is escalated with its parent, and reports 25 at once, but after its own `Task.sleep` it went to the user-initiated pool in only 4 runs of 6, and stayed on its background thread in the other 2. A child added with `priority: .background` to a group of a `.high` task reports 25 and runs on the user-initiated pool from its start (6 runs of 6).

 - important: A task still queued behind others when it is escalated is not moved: the runtime marks it escalated and leaves the job where it is (the "TODO" in `swift_task_escalateImpl`, `TaskStatus.cpp`). On this machine a `.low` task queued and then awaited by a `.high` one ran on the utility pool at nice 2, reporting priority 25. And a nice value only matters on a busy core, which the scheduler shares by weight (page 2).

 - speaker: Read the three printed lines top to bottom: priority 9 then 25 then 25, nice 10 then 10 then -2, the thread number changing only on the third. Point at the escalation mark on the high-priority waiter's lane. Usual question: "so priority inversion is solved on Linux?" Only at the next suspension: a background task that holds a lock and never awaits keeps its nice-10 thread however urgent its waiter. On a Mac the thread itself would be raised at once.
 */

//: That is the end of part two. [Previous: Streams and cancellation](@previous)
print("Done: blocked tasks starved a queue a Dispatch block could still get a thread on, continuations freed it, GCD made a thread per blocked block, and escalation moved a task at its next suspension.")
