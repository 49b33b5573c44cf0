/*:
 # Barrier

 Running work concurrently is half the job; the other half is the state that work shares. An object that is changed from several threads at once, with nothing to order the changes, ends up in a state nobody asked for. This page breaks an object that way, repairs it with a dispatch barrier, and lets a tool prove which of the two is safe.

 - speaker: Say: this page breaks a shared object, repairs it, and proves which is safe. For a rehearsal that matches the talk, run with `--seed N`: the order the unsafe person's clients take their turns in, and so its mixed names, come out the same every time. Nothing else repeats: the safe person's order and final name, the blocks beside the barrier and which lane printed what come from each run's timing, so do not promise the room a safe final name. Usual question: "isn't a race random?" In an app, yes; this page stages one with holds, so the room sees a mixture every time, and Thread Sanitizer still finds the race the holds leave open.
 */
import Foundation
import LessonKit

/// Which person's experiment a run performs; the Thread Sanitizer run uses this to race one person at a time.
enum People: String, CaseIterable {
    case both, unsafe, safe
}

/// Where the safe person's clients run: each on a serial queue of its own, or all as blocks on one concurrent queue.
enum Clients: String, CaseIterable {
    case serialQueues, oneConcurrentQueue
}

//: - experiment: Set `people` to `unsafe` or `safe`: only that person is raced, and the page's other experiments are left out.
let people = knob("people", default: People.both, "which person is raced: both, or only the unsafe or the safe one")
//: - experiment: Set `clients` to `oneConcurrentQueue`: the safe person's five clients share the thread pool its writes need. Blocked in their reads, they hold every thread of it, and a write waits seconds for one, whatever the speed factor, while the pool grows by one thread a second. The page prints the longest such wait and the pool's threads before and after.
let clients = knob("clients", default: Clients.serialQueues, "where the safe person's five clients run: on serial queues of their own, or as blocks on one concurrent queue")
//: - experiment: Set `threadSanitizer` to true: the page rebuilds itself with Thread Sanitizer and races each person under it, with warnings for the unsafe person and none for the safe one.
let threadSanitizer = knob("threadSanitizer", default: false, "rebuild this page with Thread Sanitizer and run each person's race under it")

/*:
 ## A person with a slow name change

 A `Person` has a first and a last name, and changing them takes a moment between the two: think of a database write for each. Nothing is wrong with this class as long as one thread uses it.

 - important: Swift 6 will not let a class with mutable properties be shared between threads: it is not `Sendable`. The operations of earlier pages were marked `@unchecked Sendable`, a promise to the compiler that the class orders access to its own state, and each page said why it kept it. This class makes the same promise and breaks it: nothing orders its writes. That is exactly what the rest of the page is about.
 */
class Person: @unchecked Sendable {
    private var firstName: String
    private var lastName: String
    /// What happens between storing the first name and the last: a slow database write, unless the page stages it.
    private let slowMoment: @Sendable (_ firstName: String, _ lastName: String) -> Void

    init(firstName: String, lastName: String,
         slowMoment: @escaping @Sendable (_ firstName: String, _ lastName: String) -> Void = Person.databaseWrite) {
        self.firstName = firstName
        self.lastName = lastName
        self.slowMoment = slowMoment
    }

    func changeName(firstName: String, lastName: String) {
        self.firstName = firstName
        slowMoment(firstName, lastName)
        self.lastName = lastName
    }

    /// A database write's moment. PageRandom, not the system's generator: `--seed N` makes it the same every run.
    static func databaseWrite(_ firstName: String, _ lastName: String) {
        var random = PageRandom(stream: "\(firstName) \(lastName)")
        Simulated.wait(.random(in: 0.05...0.3, using: &random))
    }

    var name: String {
        "\(firstName) \(lastName)"
    }
}

let newNames = [("Charlie", "Cheesecake"), ("Delia", "Dingle"), ("Eva", "Evershed"), ("Freddie", "Frost"), ("Gina", "Gregory")]

/*:
 ## Changing it from five places at once

 Five clients, each with a serial queue of its own as five separate parts of an app would have, each change the name and then read it back. They run side by side, so one client's first name can meet another client's last name: a person called "Eva Dingle" that nobody ever named.

 In an app, which mixture you get depends on the timing of that run, and a run may even be lucky. So that every run shows one, the page stages the timing with holds (`StagedClients`, in `StagedClients.swift` beside this page): each client waits for its turn before storing its first name, and again before storing its last name and reading the name back. Two clients store their first names at the same moment, with nothing to order them; after that, each of the other three stores its first name while another client is between its two writes, and four of the five clients read back a first name that is not their own. The order of the clients is drawn at random: run the page again and the names change; with `--seed N` they are the same every run.

 - note: The holds are dispatch groups, which order memory as well as time, so Thread Sanitizer sees the order they make: the writes they keep apart are not what it reports at the end of the page. The two first names stored at the same moment are: those two clients wait until both have come to their first turn, then both write, and nothing orders the two writes, whichever thread happens to go first.

 - speaker: Point at the five client lanes, one per serial queue, overlapping, then at the printed names: first names and last names from different clients, a person nobody named. Say: in an app the mixture depends on the timing; the page stages it so the room sees one every time, and Swift 6 would have refused this class without the false `@unchecked Sendable`.
 */
let clientQueues = newNames.indices.map { DispatchQueue(label: "tour.barrier.client\($0 + 1)") }

if people != .safe {
    let staging = StagedClients(clients: newNames.map { "\($0) \($1)" })
    // Between its two writes a client ends its first turn and waits for its second: another client's first name lands there.
    let person = Person(firstName: "Alison", lastName: "Anderson") { first, last in
        staging.end(.firstName, of: "\(first) \(last)")
        staging.waitForTurn(.lastName, of: "\(first) \(last)")
        Person.databaseWrite(first, last)
    }
    let changes = DispatchGroup()
    for ((first, last), client) in zip(newNames, clientQueues) {
        client.async(group: changes) {
            staging.waitForTurn(.firstName, of: "\(first) \(last)")
            trace("change to \(first) \(last)") {
                person.changeName(firstName: first, lastName: last)
            }
            print("Unsafe person is now: \(person.name)")
            staging.end(.lastName, of: "\(first) \(last)")
        }
    }
    changes.wait()
    print("Unsafe person's final name: \(person.name)")
}

/*:
 - note: A race on a `String` can do worse than mix two names. A string is more than one machine word, and two writes at the same moment can leave half of each: under Thread Sanitizer's slower timing this page once printed `Gina` followed by stray blanks, a first name neither client wrote. Longer strings live on the heap, and there the same race can crash the program. That is why Swift 6 refuses to share such a class unless someone promises, wrongly here, that it is safe.
 */

/*:
 ## Readers and writers, with a barrier

 The fix gives the person a private **isolation queue**, a concurrent one, and sends every access through it:

 * a read is a `sync` block: the caller waits for the answer, and any number of reads may run at the same time, because reading does not change anything;
 * a write is an `async` block with the `.barrier` flag: the queue lets the blocks already running finish, runs the barrier **alone**, and only then starts what came after it. The caller does not wait.

 This is the readers–writer pattern: many readers or one writer, never both. A read that comes after a write waits for it, so no read can see half a change. (`isolationLog`, a `RunLog` from `RunLog.swift` beside this page, notes when each write was asked for and when each block ran, for an experiment further down.)

 The subclass repeats `@unchecked Sendable`, and this time the promise is kept: after `init`, the names are touched only inside blocks on the isolation queue, and the queue orders every write before or after every other access. The compiler cannot see that, which is why the check stays switched off; Thread Sanitizer, at the end of the page, can.

 - speaker: Point at the isolation queue's write spans, each alone on the timeline, and the reads that overlap each other between them. Usual question: "why not a serial queue?" It works too, but reads would wait for each other; the barrier lets reads run together and writes alone.
 */
final class ThreadSafePerson: Person, @unchecked Sendable {
    private let isolation = DispatchQueue(label: "tour.barrier.isolation", attributes: .concurrent)

    override func changeName(firstName: String, lastName: String) {
        let requested = DispatchTime.now()
        isolation.async(flags: .barrier) {
            isolationLog.traced("write \(firstName) \(lastName)", requestedAt: requested) {
                super.changeName(firstName: firstName, lastName: lastName)
            }
        }
    }

    override var name: String {
        isolation.sync {
            isolationLog.traced("read name") {
                // A read takes a moment too, so several readers can be seen sharing the queue.
                Simulated.wait(0.02)
                return super.name
            }
        }
    }
}

let isolationLog = RunLog()

if people != .unsafe {
    let person = ThreadSafePerson(firstName: "Anna", lastName: "Adams")
    let changes = DispatchGroup()
    let sharedClientQueue = DispatchQueue(label: "tour.barrier.clients", attributes: .concurrent)
    let poolBefore = ThreadCensus.threadIDs(ofPool: ThreadCensus.defaultQoSPool).count
    for (number, (first, last)) in newNames.enumerated() {
        let client = clients == .serialQueues ? clientQueues[number] : sharedClientQueue
        client.async(group: changes) {
            mark("client \(number + 1) asks for \(first) \(last)")
            person.changeName(firstName: first, lastName: last)
            print("Thread-safe person is now: \(person.name)")
        }
    }
    changes.wait()
    let longestWait = isolationLog.longestIdleWait
    print("Thread-safe person's final name: \(person.name)")
    print("Clients on \(clients == .serialQueues ? "five serial queues" : "one concurrent queue"): a write waited up to \(formatSeconds(longestWait)) with the isolation queue standing still; the default-QoS pool had \(poolBefore) threads before and \(ThreadCensus.threadIDs(ofPool: ThreadCensus.defaultQoSPool).count) after, on \(usableCores()) cores")
}

/*:
 - note: The writes still happen in whatever order the clients reach the isolation queue, so the final name is any one of the five. What the barrier guarantees is that it is always a whole name.

 ## Readers that starve the writer

 Why five serial queues, and not five blocks on one concurrent queue as an Apple example would use? Because of the thread pool. Blocks on a concurrent queue you create share the pool of the global queue of their QoS, and so does the isolation queue. A client blocked in a `sync` read, waiting for a write, holds its thread. If every thread of the pool is such a client, the write itself has no thread to run on, and nothing moves until the pool grows. Apple's kernel hears of a worker blocking as it blocks and can add a thread at once; libdispatch on Linux looks only once a second, and adds one thread each time it finds all of them blocked. A serial queue you create is served by a different pool, one that gets a thread whenever it has work, so the clients never starve the writes. The `clients` knob puts them on one concurrent queue; the page reports how long a write waited with the isolation queue standing still, and the pool's threads, counted in `/proc`.

 - deep dive: On Linux, libdispatch runs its own thread pools (`src/event/workqueue.c`, `DISPATCH_USE_INTERNAL_WORKQUEUE`). A non-overcommit pool, the one behind `DispatchQueue.global()` and concurrent queues, may start as many threads as there are cores (`_dispatch_root_queue_init_pthread_pool`); an overcommit pool, behind the serial queues you create, up to 255. The main queue is in neither while the main thread serves it (its run loop, as on page 6); only once `dispatchMain()` has ended the main thread does the main queue become an ordinary serial queue, served by the overcommit pool. A timer on libdispatch's manager queue runs `_dispatch_workq_monitor_pools` once a second (`NSEC_PER_SEC`). For each pool with work waiting, it reads `/proc/<tid>/stat` of every worker and counts those in state `R`. When none is, it starts one more thread, past any limit; when fewer are than there are cores, it starts one as long as all pools together have fewer than twice the cores running (`WORKQ_OVERSUBSCRIBE_FACTOR`). A thread the pool no longer needs exits after 5 s without work (`_dispatch_worker_thread`). Threads are named after their root queue's label, cut to its last 15 characters, so the page counts this pool's threads as those named `oot.default-qos`.

 ## A barrier on a global queue is no barrier

 The barrier flag works only on a concurrent queue **you created**. On a global queue, shared by the whole process, libdispatch cannot hold everyone else back, so it ignores the flag and the "barrier" runs like any other block. The same five half-second blocks go to each kind of queue, the middle one flagged as a barrier, and the page checks what ran while the barrier did.

 A block counts as running alongside the barrier when the two shared at least a tenth of the barrier's time, from the later start to the earlier end. Blocks that only meet the barrier at an edge, one ending on a thread as the barrier starts on another, share a fraction of a millisecond, the moment a thread takes to pass from one block to the next, and are not counted. Each block the line names comes with the time it shared with the barrier.

 - speaker: Point at the two lines: on the custom queue the barrier ran alongside nothing; on the global queue it ran alongside at least one other block. Which blocks, and for how long, varies with when the pool's threads come free. Say: libdispatch ignores the barrier flag on a global queue, silently.
 */
/// The share of a barrier's time another block must run beside it to count as running alongside it.
let alongsideShare = 0.1

/// "nothing", or each block with the time it shared: "block 3 for 50.1 ms".
func describe(_ overlapping: [(name: String, seconds: Double)]) -> String {
    overlapping.isEmpty ? "nothing" : overlapping.map { "\($0.name) for \(formatSeconds($0.seconds))" }.joined(separator: ", ")
}

func barrierExperiment(on queue: DispatchQueue, title: String) -> [String] {
    let log = RunLog()
    let batch = DispatchGroup()
    let blocks: [(name: String, seconds: Double, flags: DispatchWorkItemFlags)] = [
        ("block 1", 0.5, []), ("block 2", 0.5, []), ("barrier", 0.5, .barrier), ("block 3", 0.5, []), ("block 4", 0.5, []),
    ]
    for (name, seconds, flags) in blocks {
        queue.async(group: batch, flags: flags) {
            log.traced(name, onTimeline: "\(title) \(name)") { Simulated.wait(seconds) }
        }
    }
    batch.wait()
    let overlapping = log.overlapping("barrier", forAtLeast: alongsideShare)
    print("On the \(title), the barrier ran alongside: \(describe(overlapping))")
    return overlapping.map(\.name)
}

if people == .both {
    let ownQueue = DispatchQueue(label: "tour.barrier.experiment", attributes: .concurrent)
    peek(barrierExperiment(on: ownQueue, title: "custom queue"))
    peek(barrierExperiment(on: .global(), title: "global queue"))
}

/*:
 ## The same idea for operations

 `OperationQueue` has a barrier too: `addBarrierBlock(_:)` runs its block once every operation added before it has finished, and holds back every operation added after it until the block is done. swift-corelibs-foundation builds it out of dependencies (`Operation.swift`): the block becomes an internal operation that depends on each operation already in the queue, and each operation added while it waits gets a dependency on it. On an empty queue it is a dispatch barrier, sent to the queue's own concurrent dispatch queue.
 */
if people == .both {
    let operations = OperationQueue()
    operations.name = "tour.barrier.operations"
    let log = RunLog()
    for number in 1...2 {
        operations.addOperation { log.traced("operation \(number)") { Simulated.wait(0.3) } }
    }
    operations.addBarrierBlock { log.traced("barrier block") { Simulated.wait(0.2) } }
    operations.addOperation { log.traced("operation 3") { Simulated.wait(0.3) } }
    operations.waitUntilAllOperationsAreFinished()
    let alongside = log.overlapping("barrier block", forAtLeast: alongsideShare)
    print("On the operation queue, the barrier block ran alongside: \(describe(alongside))")
}

/*:
 ## Proving it with Thread Sanitizer

 A race that happens to give a sensible answer is still a race, and the next run may not be so lucky. **Thread Sanitizer** (TSan) finds races whether or not they show: the compiler instruments every memory access, and at run time TSan tracks which accesses are ordered by locks, queues and other synchronisation. Two accesses to the same memory from different threads, at least one a write, with nothing ordering them: that is reported, with both stacks.

 It works with Swift on Linux. This knob rebuilds this very page with `--sanitize=thread`, in a build folder of its own (`.build/tsan`) so your normal build is untouched, and runs the instrumented program twice more, with the knob off and `people` set: once racing only the unsafe person, once only the safe one. TSan names Swift functions in their mangled form; the report goes through `swift demangle --simplified` on its way here.

 Expect two warnings for the unsafe person (the page shows the first in full and the summary line of the other), one for each half of the first name: an access in `changeName` on one worker thread, a write to the same name on another, and both stacks. Those are the two clients that store their first names at the same moment: the page's holds order every other access, and TSan follows them, but nothing orders those two, and TSan finds that on every run, whichever thread happened to write first. For the safe person expect none: TSan understands libdispatch on Linux too, so it knows that a barrier block and a `sync` read on the same queue never overlap.

 - experiment: Set `threadSanitizer` to true. The first build takes a while (it compiles LessonKit again, instrumented); after that it is quick.

 - speaker: Demo, if there is time (the first build takes a while): set `threadSanitizer` to true. Expect two warnings for the unsafe person, two clients storing the first name at once, with both stacks, and none for the safe one. Usual question: "does TSan work with Swift on Linux?" Yes, and it understands libdispatch's queues.
 */
if threadSanitizer {
    let sanitized = ThreadSanitizerRun(product: "Lesson08Barrier")
    if sanitized.build() {
        for racer in People.allCases where racer != .both && (people == .both || people == racer) {
            sanitized.run(knobs: ["people=\(racer.rawValue)"], title: "the \(racer.rawValue) person")
        }
    }
}

//: That is the end of part one: operations, their queues, and Grand Central Dispatch. Every page is a program you can run again with other knobs; go back to any of them. Part two does the same work with Swift Concurrency, and its last page makes this page's person safe to share with an actor instead of a queue of your own: [Tasks](@next). [Previous: Groups](@previous)
switch people {
case .both: print("Done: an unsafe person, a safe one behind a barrier, a barrier that only works on a queue of your own, and one for operations.")
case .unsafe, .safe: print("Done: the \(people.rawValue) person's race alone.")
}
