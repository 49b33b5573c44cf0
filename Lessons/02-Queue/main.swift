/*:
 # Queue

 Wrapping work in operations pays off once you stop calling `start()` yourself. An `OperationQueue` takes operations and runs them for you on threads it borrows from Dispatch, as many at a time as you allow, in an order it decides from their readiness and priority.

 This page filters the shipped photos on a queue, measures what two at once buys for computing and for waiting work, then looks at which operation a queue starts next, and how to pause or empty it.

 - speaker: Say: a queue takes operations and runs them for you, on worker threads it gets from Dispatch. Point at the first stretch of the timeline: two worker lanes, T1 and T2, fill side by side in the photos queue's colour while the main lane waits. Usual question: "why two?" `maxConcurrentOperationCount` is 2 here, and this machine has two cores.
 */
import Foundation
import LessonKit

enum Workload: String, CaseIterable {
    case sleeping, computing
}

enum Priority: String, CaseIterable {
    case veryLow, low, normal, high, veryHigh

    var queuePriority: Operation.QueuePriority {
        switch self {
        case .veryLow: .veryLow
        case .low: .low
        case .normal: .normal
        case .high: .high
        case .veryHigh: .veryHigh
        }
    }
}

/// A quality of service, as a knob can name it.
enum ServiceClass: String, CaseIterable {
    case background, utility, `default`, userInitiated, userInteractive

    var quality: QualityOfService {
        switch self {
        case .background: .background
        case .utility: .utility
        case .default: .default
        case .userInitiated: .userInitiated
        case .userInteractive: .userInteractive
        }
    }
}

let maxConcurrent = knob("maxConcurrentOperationCount", default: 2, in: 1...8, "how many photos the photo queue filters at once")
let workload = knob("workload", default: Workload.sleeping, "what the eight pool jobs do: wait like a download, or compute")
let previewPriority = knob("previewPriority", default: Priority.veryHigh, "queuePriority of the preview, the operation added last")
let serialQoSQueue = knob("serialQoSQueue", default: false, "run the quality-of-service jobs one at a time")
let rounds = knob("rounds", default: 3, in: 1...5, "how many times each width runs the batch; its fastest run counts")
let queueQualityOfService = knob("queueQualityOfService", default: ServiceClass.background, "the qualityOfService of the second queue whose operation reads its nice value")

let photoNames = Photos.names
let photos = try photoNames.map { try Photos.load($0) }
print("Loaded \(photos.count) photos of \(photos[0].width)×\(photos[0].height) pixels: \(photoNames.joined(separator: ", "))")

/*:
 ## Adding operations to a queue

 The operation is the same kind as on the previous page: a subclass with an input, an output and a `main()` that does the work. This time nobody calls `start()`; the queue does, on one of its threads. Its `meter`, a helper of this page, counts how many filters run at once and on which threads.

 - note: `@unchecked Sendable` is page 1's promise that the class is safe to share between threads although the compiler cannot check it. It holds here: `inputImage` is a `let`, and `outputImage` is written once, in `main()`, and read only after the queue has reported the operation finished. Reporting that takes a lock that the waiting thread takes too, so the write comes before the read.

 - speaker: Point at the time beside the loop that adds the filters, well under a millisecond, then at the batch's time below it: adding hands the work over and returns. Usual question: "then how do I know when they are done?" Wait for the queue (as here), or make a last operation depend on them (page 4).
 */
final class TiltShiftOperation: ObservedOperation, @unchecked Sendable {
    let photoName: String
    let inputImage: RGBImage
    let meter: PoolMeter
    private(set) var outputImage: RGBImage?

    init(photoName: String, image: RGBImage, meter: PoolMeter) {
        self.photoName = photoName
        inputImage = image
        self.meter = meter
        super.init()
        name = "tilt-shift \(photoName)"
    }

    override func main() {
        meter.measure {
            outputImage = trace("filtering \(photoName)") {
                tiltShift(inputImage)
            }
        }
    }
}

/// One operation per shipped photo, all counted by `meter`.
func filterOperations(meter: PoolMeter) -> [TiltShiftOperation] {
    zip(photoNames, photos).map { TiltShiftOperation(photoName: $0, image: $1, meter: meter) }
}

let photoQueue = OperationQueue()
photoQueue.name = "photos"
photoQueue.maxConcurrentOperationCount = maxConcurrent
announceWidth(of: photoQueue)
let photoMeter = PoolMeter()
let filters = filterOperations(meter: photoMeter)

/*:
 `addOperation` only files the operation and returns: the queue starts it as soon as a slot is free, on another thread, while the caller carries on.

 - important: Adding is asynchronous. When the loop below returns, the filters have at best just begun; the time beside it is the cost of *handing over* the work, not of doing it.
 */
duration {
    for filter in filters {
        photoQueue.addOperation(filter)
    }
}

/*:
 To block until the queue is empty, call `waitUntilAllOperationsAreFinished()`. Its time is the real cost of the batch.

 - experiment: Set `maxConcurrentOperationCount` to 1: the queue becomes *serial*, the filters line up one after another on a single lane, and the line below says at most 1 at a time. At 2, two lanes fill at once. The next section measures what each width buys.
 */
let batchTime = duration {
    trace("waitUntilAllOperationsAreFinished") {
        photoQueue.waitUntilAllOperationsAreFinished()
    }
}
let filteredCount = filters.filter { $0.outputImage != nil }.count
print("\(filteredCount) of \(filters.count) photos filtered at width \(maxConcurrent), at most \(photoMeter.mostAtOnce) at a time on \(photoMeter.threadCount) threads, in \(formatSeconds(batchTime))")

/*:
 ## What two at once buys

 The same batch now runs at width 1, at width 2, and at twice this machine's cores. `addOperations(_:waitUntilFinished: true)` adds a whole batch and returns only once every operation in it has finished, so the time around the call is the batch's. Each width runs `rounds` times (three unless you turn the knob), taking turns, and its fastest run counts: other programs on the machine can slow a run down, never speed it up.

 - speaker: Read the width lines aloud: they are measured in this very run. On a quiet two-core machine width 2 beats width 1 and width 4 gains nothing more; on a busy one (a build running beside the talk) the widths come out alike, because the cores are taken. Either way the lesson holds: a queue cannot be wider than the free cores.
 */
let cores = usableCores()
let coresInWords = cores == 1 ? "1 core" : "\(cores) cores"
let widths = Set([1, 2, 2 * cores]).sorted()

/// How a batch went: its time on the wall clock and what its meter counted.
struct BatchRun {
    let seconds: Double
    let meter: PoolMeter
}

/// Runs `operations` on a new queue `width` wide (`OperationQueue.defaultMaxConcurrentOperationCount` for no limit
/// of its own), with the wall-clock time of the whole batch as the span `label`.
func runBatch(_ operations: [Operation], width: Int, meter: PoolMeter, label: String) -> BatchRun {
    let queue = OperationQueue()
    queue.name = label
    queue.maxConcurrentOperationCount = width
    announceWidth(of: queue)
    let start = DispatchTime.now().uptimeNanoseconds
    trace(label) {
        queue.addOperations(operations, waitUntilFinished: true)
    }
    return BatchRun(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, meter: meter)
}

var fastest: [Int: BatchRun] = [:]
var everyOutputWasThere = true
for round in 1...rounds {
    for width in widths {
        let meter = PoolMeter()
        let batch = filterOperations(meter: meter)
        let run = runBatch(batch, width: width, meter: meter, label: "width \(width), round \(round)")
        // addOperations(_:waitUntilFinished: true) has returned: every output must be there already.
        everyOutputWasThere = everyOutputWasThere && batch.allSatisfy { $0.outputImage != nil }
        if run.seconds < fastest[width]?.seconds ?? .infinity {
            fastest[width] = run
        }
    }
}
print("Every time addOperations(_:waitUntilFinished: true) returned, all \(photos.count) photos were filtered: \(everyOutputWasThere)")
let serialSeconds = fastest[1]!.seconds
for width in widths {
    let run = fastest[width]!
    let speedUp = String(format: "%.2f", serialSeconds / run.seconds)
    let busyCores = String(format: "%.2f", run.meter.cpuSeconds / run.seconds)
    print("Width \(width): \(formatSeconds(run.seconds)), \(speedUp)× the speed of width 1, at most \(run.meter.mostAtOnce) at once, \(busyCores) cores busy")
}
print("This process may run on \(coresInWords) (sched_getaffinity); ProcessInfo.activeProcessorCount says \(ProcessInfo.processInfo.activeProcessorCount)")

/*:
 With two cores or more, width 2 takes about half the time of width 1: each filter is tens of milliseconds of computing, and handing an operation to a thread costs microseconds. Past the cores the time barely moves. A filter is pure computation, and a core computes one thing at a time.

 The last figure, the filters' CPU time over the batch's time, says how many cores the batch really got. While other programs keep the machine busy it is less than the width, and the speed-up shrinks with it.

 - deep dive: How the page counts cores. It asks the kernel which CPUs this process may run on (`sched_getaffinity`), because that is what sizes Dispatch's pool: libdispatch 6.3.1 counts the CPUs with `pthread_getaffinity_np` (`src/shims/hw_config.h`) and gives each quality-of-service class room for that many threads (`src/queue.c`), created as work arrives. Run under `taskset -c 0`, the count is 1.

   `ProcessInfo.activeProcessorCount` does not count the affinity mask. On Linux, Foundation 6.3.1 takes `ProcessInfo` from swift-foundation (`FoundationEssentials/ProcessInfo/ProcessInfo.swift`), which reads only cgroup v1 files: the CPU quota, `/sys/fs/cgroup/cpu/cpu.cfs_quota_us` over `cpu.cfs_period_us` rounded up; failing that, the first range in `/sys/fs/cgroup/cpuset/cpuset.cpus`; failing both, `sysconf(_SC_NPROCESSORS_ONLN)`, the CPUs online. It never reads cgroup v2, where today's containers keep their limits (`cpu.max`, `cpuset.cpus.effective`), so in such a container, or under `taskset`, it can count CPUs the process may not use. (CoreFoundation's own `__CFActiveProcessorCount` in swift-corelibs-foundation does count the affinity mask, but `ProcessInfo` does not call it.) Here the two numbers are printed side by side.

   Why a busy machine flattens the speed-up: when more threads want to run than there are cores, the scheduler shares each core by weight, a weight that follows the nice value, rather than giving a core to one thread. Where `/proc/sys/kernel/sched_autogroup_enabled` is 1, as Debian ships it, it weighs sessions first (each terminal, each `setsid`), and only then the threads inside one. So a second thread of this page has a second core to itself only while no other thread wants that core; while another program's thread does, they share it, each with its weight's part of the time.

 ## Work that waits

 A download or a disk read mostly *waits*, and a thread that waits leaves its core free. Eight jobs run at the cores' width, then at the default width (`OperationQueue.defaultMaxConcurrentOperationCount`, -1: no limit of the queue's own). A sleeping job waits like a download; a computing job tilt-shifts photos for as long in CPU time.

 - experiment: Switch `workload` between `sleeping` and `computing`, and compare the lines below. Computing jobs take as long at the default width as at the cores' width, and use the CPU of all eight jobs: no width makes the cores compute faster. Sleeping jobs use almost no CPU, and at 1× the default width finishes sooner, because the pool adds threads while its workers wait, about one a second. At higher speeds the jobs may end before it does.

 - speaker: Point at the line about the default width. At 1× more sleeping jobs usually run at once there than there are cores, and how many varies from run to run: on Linux libdispatch looks for blocked workers once a second and adds one thread each time, on a timer that starts with the process, not with this batch, so the first look can fall anywhere in the batch's first second; and threads an earlier batch made stay in the pool until they have been idle 5 s. At `--speed 4` and above the batch can end before any look, and the line says no more than the cores ran at once. Apple's kernel tells Dispatch at once when a worker blocks. Usual question: "so sleeping jobs on Linux are capped at the cores?" Until the pool's next look; then it grows, one thread a second.
 */
let jobCount = 8
let jobSeconds = 0.5
// CPU time rather than the clock on the wall: other programs busy on this machine would make a filter look slower than it is.
let cpuPerFilter = fastest[1]!.meter.cpuSeconds / Double(photos.count)
// Enough passes for one computing job to use about `jobSeconds` of CPU at this speed factor, as a sleeping job waits.
let passesPerJob = max(1, Int((jobSeconds / Simulated.speed / cpuPerFilter).rounded()))

/// `jobCount` jobs of the chosen `workload`, counted by `meter`.
func poolJobs(meter: PoolMeter) -> [BlockOperation] {
    (1...jobCount).map { number in
        BlockOperation {
            meter.measure {
                trace("\(workload.rawValue) job \(number)") {
                    switch workload {
                    case .sleeping:
                        Simulated.wait(jobSeconds)
                    case .computing:
                        for _ in 0..<passesPerJob {
                            _ = tiltShift(photos[number % photos.count])
                        }
                    }
                }
            }
        }
    }
}

let poolWidths = [(name: "\(cores), the cores", width: cores), (name: "default", width: OperationQueue.defaultMaxConcurrentOperationCount)]
var poolRuns: [BatchRun] = []
for pool in poolWidths {
    let meter = PoolMeter()
    let run = runBatch(poolJobs(meter: meter), width: pool.width, meter: meter, label: "\(workload.rawValue) jobs, width \(pool.name)")
    poolRuns.append(run)
    let busyCores = String(format: "%.2f", meter.cpuSeconds / run.seconds)
    print("Width \(pool.name): \(jobCount) \(workload.rawValue) jobs of \(Simulated.describe(jobSeconds)) took \(formatSeconds(run.seconds)) on \(meter.threadCount) threads, at most \(meter.mostAtOnce) at once; CPU \(formatSeconds(meter.cpuSeconds)), \(busyCores) cores busy on average")
}
let mostLent = poolRuns[1].meter.mostAtOnce
if mostLent > cores {
    print("At the default width \(mostLent) jobs ran at once, more than the \(coresInWords): the pool added threads while its workers waited")
} else if workload == .sleeping {
    print("At the default width no more than \(mostLent) jobs ran at once: they ended before the pool next looked for waiting workers")
} else {
    print("At the default width no more than \(mostLent) jobs ran at once: workers that compute keep the pool as wide as the cores")
}

/*:
 - deep dive: How Linux's pool grows. On Apple platforms the kernel tells Dispatch when a worker blocks, and a replacement thread arrives at once. Linux has no such hook, so libdispatch 6.3.1 polls (`src/event/workqueue.c`): once a second a timer reads `/proc/<tid>/stat` for each worker and counts those in state `R`, running or waiting for a core.

   If work is queued and none are running, it adds one thread; if fewer than the cores are running, it adds one while the running ones stay under twice the cores. A worker asleep or blocked in a read does not count as running, so waiting work makes the pool grow, one thread a second. Computing workers count as running, so the pool stays about as wide as the cores, and rightly: more threads could only take turns on the same cores. (A computing worker caught blocked for a moment, on a lock or a page fault, can still earn the pool one more thread; the widest batch above may show it.)

 ## Which operation starts next: `queuePriority`

 When a slot frees up and several operations are ready, the queue starts the one with the highest `queuePriority`; among equals, the one added first. The difference only shows while operations wait, so this queue is *suspended* while three are added, runs one at a time, and is then resumed. Its jobs only wait; every property they have is a `let`, which is what makes their `@unchecked Sendable` true.

 - experiment: The preview is added last, yet at `veryHigh` it runs first. Set `previewPriority` to `veryLow` and it ties with the backup: the one added earlier, the backup, goes first.
 */
/// Stands for a slow job such as a download: it waits `seconds`, shortened by the speed factor, and signals `started`
/// as it begins.
final class SlowJob: ObservedOperation, @unchecked Sendable {
    let seconds: Double
    let started = DispatchSemaphore(value: 0)

    init(_ name: String, seconds: Double) {
        self.seconds = seconds
        super.init()
        self.name = name
    }

    override func main() {
        started.signal()
        Simulated.wait(seconds)
    }
}

let priorityQueue = OperationQueue()
priorityQueue.name = "priorities"
priorityQueue.maxConcurrentOperationCount = 1
announceWidth(of: priorityQueue)
priorityQueue.isSuspended = true
let backup = SlowJob("backup", seconds: 0.2)
backup.queuePriority = .veryLow
let filterJob = SlowJob("filter", seconds: 0.2)
filterJob.queuePriority = .normal
let preview = SlowJob("preview", seconds: 0.2)
preview.queuePriority = previewPriority.queuePriority
priorityQueue.addOperations([backup, filterJob, preview], waitUntilFinished: false)
priorityQueue.isSuspended = false
trace("waitUntilAllOperationsAreFinished") {
    priorityQueue.waitUntilAllOperationsAreFinished()
}

/*:
 Priority orders only what is *ready*. An operation still waiting for a dependency (next pages) is passed over, whatever its priority.

 ## What `qualityOfService` does here

 `qualityOfService` says how much the work matters to the user: `userInteractive`, `userInitiated`, `utility`, `background`. You can give it to a whole queue or to one operation, and on Linux the two do different things.

 A queue's quality of service reaches the threads. swift-corelibs-foundation runs a queue's operations on a concurrent `DispatchQueue` it makes for the queue, once, when it schedules the first operation, and gives it the queue's quality of service (`_synthesizeBackingQueue`, in `Operation.swift`): set it before adding anything. libdispatch runs that dispatch queue on its pool of threads for that class, and on Linux, where the kernel has no such classes, it gives each pool thread a *nice value* as it starts it (`setpriority` in `_dispatch_worker_thread`, `src/queue.c`): 10 for `background`, 2 for `utility`, 0 for the default (page 6 measures every class). A higher nice value gives the core away sooner while threads compete for one; on an idle core the thread runs as fast as any other.

 An operation's own quality of service does not. Foundation hands it to libdispatch with the operation's block, but the block runs on a thread of the queue's pool, and libdispatch on Linux sets a nice value only as it starts a thread. (Its overrides, which move urgent work to another class's threads, are compiled only where the kernel has such classes: `HAVE_PTHREAD_WORKQUEUE_QOS` is 0 with libdispatch's own thread pools, `src/internal.h`.) What an operation's class does change is the *order*: on a queue wider than one, an operation without an explicit `queuePriority` gets one from its quality of service. On a queue of width 1 even that is skipped.

 Each job below reads the nice value of the thread running it from the kernel, field 19 of `/proc/thread-self/stat`, prints it and marks it on its lane. (`Thread.current.qualityOfService` would tell you nothing: corelibs keeps it as a stored property that nothing sets, `Thread.swift`, so it says `default` on every thread.)

 - experiment: Set `queueQualityOfService` to `utility`: the second queue's operation then runs at nice 2 instead of 10, and at `default` at the same nice value as the first queue's.
 */
/// A job that reads, from inside, the nice value of the thread running it, and says so.
final class NiceValueJob: ObservedOperation, @unchecked Sendable {
    override func main() {
        let jobName = name ?? "job"
        let nice = ThreadIdentity.niceValue
        mark("nice \(nice)")
        print("\(jobName) ran on thread \(ThreadIdentity.current) at nice \(nice)")
        trace("\(jobName) at work") {
            Simulated.wait(0.2)
        }
    }
}

/// Runs one `NiceValueJob` named `jobName` on a new queue whose quality of service is `quality`, or left unset.
func runOnQueue(named queueName: String, quality: QualityOfService?, jobName: String) {
    let queue = OperationQueue()
    queue.name = queueName
    if let quality { queue.qualityOfService = quality }
    announceWidth(of: queue)
    queue.addOperation(NiceValueJob(name: jobName))
    trace("waitUntilAllOperationsAreFinished") {
        queue.waitUntilAllOperationsAreFinished()
    }
}

runOnQueue(named: "default queue", quality: nil, jobName: "The operation on a queue left at the default quality of service")
runOnQueue(named: "\(queueQualityOfService.rawValue) queue", quality: queueQualityOfService.quality,
           jobName: "The operation on a queue whose qualityOfService is \(queueQualityOfService.rawValue)")

/*:
 The four jobs below each set their own quality of service, on one queue left at the default, and are added from least to most urgent.

 - experiment: At width 2 the two most urgent start first; as slots free up the queue picks `utility`, then `background`. Set `serialQoSQueue` to true and they run strictly in the order added. Either way every job runs at the first queue's nice value.

 - speaker: Point at the two queue lines: with the knob left at `background`, that queue's operation ran at nice 10 and the default queue's at 0 (in a tour started under `nice`, the default shows that value instead, and background no less). Then at the four jobs' lines: each set its own class, and each ran at the default queue's nice value; their order is all their class changed. Usual question: "does nice 10 make the work slower?" Only while threads compete for a core: the scheduler then gives a nice-10 thread about a tenth of the share of a nice-0 one; on an idle core it runs as fast.
 */
let qualityQueue = OperationQueue()
qualityQueue.name = "quality of service"
qualityQueue.maxConcurrentOperationCount = serialQoSQueue ? 1 : 2
announceWidth(of: qualityQueue)
qualityQueue.isSuspended = true
for serviceClass in [ServiceClass.background, .utility, .userInitiated, .userInteractive] {
    let job = NiceValueJob(name: serviceClass.rawValue)
    job.qualityOfService = serviceClass.quality
    qualityQueue.addOperation(job)
}
qualityQueue.isSuspended = false
trace("waitUntilAllOperationsAreFinished") {
    qualityQueue.waitUntilAllOperationsAreFinished()
}

/*:
 So on Linux, give a queue a lower quality of service to make its work yield the cores to other work, reach for `queuePriority` to order work, and for `maxConcurrentOperationCount` to hold it back. An operation's own quality of service only orders it, and only on a queue wider than one.

 ## Suspending and resuming

 Setting `isSuspended` to true stops the queue from *starting* anything. It does not touch what is already running: that finishes normally. Setting it back to false carries on where the queue left off. An app might pause its image downloads while the user scrolls, and resume them when the list comes to rest.

 Four downloads run one at a time. As soon as the first has started, the page suspends the queue for a while, then resumes it. It learns that the first has started from `started`, a `DispatchSemaphore` like page 1's: `wait()` blocks until another thread calls `signal()`.
 */
let downloadQueue = OperationQueue()
downloadQueue.name = "downloads"
downloadQueue.maxConcurrentOperationCount = 1
announceWidth(of: downloadQueue)
let downloads = (1...4).map { SlowJob("download \($0)", seconds: 0.3) }
downloadQueue.addOperations(downloads, waitUntilFinished: false)
downloads[0].started.wait()
downloadQueue.isSuspended = true
mark("queue suspended")
let pause = 1.0
Simulated.wait(pause)
let finishedWhilePaused = downloads.filter(\.isFinished).count
mark("queue resumed")
downloadQueue.isSuspended = false
print("While the queue was suspended for \(Simulated.describe(pause)), \(finishedWhilePaused) of \(downloads.count) downloads finished; the rest waited")
trace("waitUntilAllOperationsAreFinished") {
    downloadQueue.waitUntilAllOperationsAreFinished()
}

/*:
 - note: `waitUntilAllOperationsAreFinished()` on a suspended queue that still holds operations waits until someone resumes it. Called from the only thread that would resume it, it waits forever.

 ## Cancelling everything: `cancelAllOperations`

 `cancelAllOperations()` calls `cancel()` on every operation in the queue, and `cancel()` only sets a flag, as on the previous page. So:

 - the running operation carries on until its `main()` next checks `isCancelled`; this one never checks, so it runs to its end;
 - operations that have not started never run their `main()` at all;
 - every completion block still runs, cancelled or not, so clean-up code placed there is never skipped.

 - important: On a queue of width 1 the cancelled operations still wait for the running one to end before the queue passes over them, so their completion blocks come *after* it, not at the moment you cancel.

 The queue counts an operation done before its completion block has run, so the page waits for those with a `DispatchGroup`: a counter of unfinished work, where `enter()` adds one, `leave()` takes one away, and `wait()` blocks until it is back to zero. Page 7 is about groups.

 - speaker: Point at the five completion blocks that say `isCancelled = true`, all arriving together just after the running upload ended. Usual question: "why do cancelled operations still call their completion block?" A cancelled operation still finishes; the completion block is where you learn it ended, cancelled or not.
 */
final class UploadOperation: ObservedOperation, @unchecked Sendable {
    let started = DispatchSemaphore(value: 0)

    override func main() {
        started.signal()
        // No isCancelled check on purpose: once running, this body always runs to its end.
        for part in 1...3 {
            trace("\(name ?? "upload") part \(part)") {
                Simulated.wait(0.1)
            }
        }
    }
}

let uploadQueue = OperationQueue()
uploadQueue.name = "uploads"
uploadQueue.maxConcurrentOperationCount = 1
announceWidth(of: uploadQueue)
let completionBlocksDone = DispatchGroup()
let uploads = (1...5).map { number in
    let upload = UploadOperation(name: "upload \(number)")
    completionBlocksDone.enter()
    upload.completionBlock = { [unowned upload] in
        mark("completion block of upload \(number)")
        print("Completion block of upload \(number): isCancelled = \(upload.isCancelled)")
        completionBlocksDone.leave()
    }
    return upload
}
uploadQueue.addOperations(uploads, waitUntilFinished: false)
uploads[0].started.wait()
uploadQueue.cancelAllOperations()
mark("cancelAllOperations")
trace("waitUntilAllOperationsAreFinished") {
    uploadQueue.waitUntilAllOperationsAreFinished()
}
trace("waiting for the completion blocks") {
    completionBlocksDone.wait()
}
peek(uploads.filter(\.isCancelled).count)

/*:
 Operations so far finished when `main()` returned. Work that finishes later, in a callback, needs an operation that says for itself when it is done: [Async](@next)

 Back to the start: [Operation](@previous)
 */
print("Done: \(filteredCount) photos filtered, \(jobCount) pool jobs, and every queue empty.")
