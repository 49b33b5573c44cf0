/*:
 # Queue

 Wrapping work in operations pays off once you stop calling `start()` yourself. An `OperationQueue` takes operations and runs them for you on threads it borrows from Dispatch, as many at a time as you allow, in an order it decides from their readiness and priority.

 This page filters every shipped photo on one queue, then looks at what limits how fast a queue can go, which operation it starts next, and how to pause or empty it.
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

let maxConcurrent = knob("maxConcurrentOperationCount", default: 2, in: 1...8, "how many photos the photo queue filters at once")
let workload = knob("workload", default: Workload.sleeping, "what the eight pool jobs do: wait like a download, or compute")
let previewPriority = knob("previewPriority", default: Priority.veryHigh, "queuePriority of the preview, the operation added last")
let serialQoSQueue = knob("serialQoSQueue", default: false, "run the quality-of-service jobs one at a time")

let photoNames = Photos.names
let photos = try photoNames.map { try Photos.load($0) }
print("Loaded \(photos.count) photos: \(photoNames.joined(separator: ", "))")

/*:
 ## Adding operations to a queue

 The operation is the same kind as on the previous page: a subclass with an input, an output and a `main()` that does the work. This time nobody calls `start()`; the queue does, on one of its threads.
 */
final class TiltShiftOperation: ObservedOperation, @unchecked Sendable {
    let photoName: String
    let inputImage: RGBImage
    private(set) var outputImage: RGBImage?

    init(photoName: String, image: RGBImage) {
        self.photoName = photoName
        inputImage = image
        super.init()
        name = "tilt-shift \(photoName)"
    }

    override func main() {
        outputImage = trace("filtering \(photoName)") {
            tiltShift(inputImage)
        }
    }
}

let photoQueue = OperationQueue()
photoQueue.name = "photos"
photoQueue.maxConcurrentOperationCount = maxConcurrent
let filters = zip(photoNames, photos).map { TiltShiftOperation(photoName: $0, image: $1) }

/*:
 `addOperation` only files the operation and returns: the queue starts it as soon as a slot is free, on another thread, while the caller carries on. So adding is cheap, whatever the operations cost.

 - important: Adding is asynchronous. When the loop below returns, the filters have at best just begun; the time beside it is the cost of *handing over* the work, not of doing it.
 */
duration {
    for filter in filters {
        photoQueue.addOperation(filter)
    }
}

/*:
 To block until the queue is empty, call `waitUntilAllOperationsAreFinished()`. Its time is the real cost of the batch.

 - experiment: Set `maxConcurrentOperationCount` to 1: the queue becomes *serial*, one filter after another on the timeline, and the batch takes about six filters' time. At 2 two lanes fill at once and the time roughly halves. Past the number of cores (the next section prints it) it barely moves: filtering is pure computation, and a core computes one thing at a time.
 */
let batchTime = duration {
    trace("waitUntilAllOperationsAreFinished") {
        photoQueue.waitUntilAllOperationsAreFinished()
    }
}
let filteredCount = filters.filter { $0.outputImage != nil }.count
print("\(filteredCount) of \(filters.count) photos filtered, at most \(maxConcurrent) at a time, in \(formatSeconds(batchTime))")

/*:
 ## What really limits a queue

 A queue left at its default width (`OperationQueue.defaultMaxConcurrentOperationCount`, which is -1: no limit of its own) is limited by the threads Dispatch lends it. Those come from a shared pool, and on Linux the pool behaves in a way worth seeing.

 libdispatch starts the pool with one thread per core. Once a second it reads each worker's state from `/proc`; if fewer workers are *running* than there are cores, and work is waiting, it adds **one** thread. A worker blocked in a sleep, a download or a disk read does not count as running, so jobs that wait make the pool grow, slowly. Jobs that compute keep every worker running, so the pool stays as wide as the cores, and rightly: more threads could only take turns on the same cores.

 - note: On Apple platforms the kernel tells Dispatch when a worker blocks, and a replacement thread arrives within moments. Linux has no such hook, hence the polling.

 Eight jobs run on a queue of default width. A sleeping job waits half a second; a computing job tilt-shifts a photo over and over for about half a second of CPU.

 - experiment: Switch `workload` between `sleeping` and `computing`, and compare the totals and the lanes. Sleeping jobs could all finish in half a second if eight threads were there; they take longer because the pool starts at two threads and gains one per second. Computing jobs need four seconds of CPU in all, so with two cores they cannot finish in under two seconds, however many threads run them.
 */
let jobCount = 8
let jobSeconds = 0.5
// CPU time rather than the clock on the wall: other programs busy on this machine would make a filter look slower than it is.
let cpuBeforeFilters = threadCPUSeconds()
for photo in photos {
    _ = tiltShift(photo)
}
let cpuPerFilter = (threadCPUSeconds() - cpuBeforeFilters) / Double(photos.count)
peek("one tilt-shift costs \(formatSeconds(cpuPerFilter)) of CPU")
// Enough passes for one computing job to use about `jobSeconds` of CPU at this speed factor.
let passesPerJob = max(1, Int((jobSeconds / Simulated.speed / cpuPerFilter).rounded()))
let cores = ProcessInfo.processInfo.activeProcessorCount

let poolQueue = OperationQueue()
poolQueue.name = "pool demo"
let meter = PoolMeter()
let poolJobs = (1...jobCount).map { number in
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
let poolTime = duration {
    poolQueue.addOperations(poolJobs, waitUntilFinished: false)
    trace("waitUntilAllOperationsAreFinished") {
        poolQueue.waitUntilAllOperationsAreFinished()
    }
}
let busyCores = meter.cpuSeconds / poolTime
print("\(jobCount) \(workload.rawValue) jobs: \(formatSeconds(poolTime)) on \(meter.threadCount) threads, at most \(meter.mostAtOnce) at once")
print(String(format: "CPU used: %.3f s, %.2f cores busy on average; this machine has %d cores", meter.cpuSeconds, busyCores, cores))

/*:
 ## Which operation starts next: `queuePriority`

 When a slot frees up and several operations are ready, the queue starts the one with the highest `queuePriority`; among equals, the one added first. The difference only shows while operations wait, so this queue is *suspended* while three are added, runs one at a time, and is then resumed.

 - experiment: The preview is added last, yet at `veryHigh` it runs first. Set `previewPriority` to `veryLow` and it ties with the backup: the one added earlier, the backup, goes first.
 */
/// Stands for a slow job such as a download: it waits `seconds`, shortened by the speed factor.
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

 `qualityOfService` says how much the work matters to the user: `userInteractive`, `userInitiated`, `utility`, `background`. On Apple platforms it sets the priority of the thread that runs the work, and background work may be held back to save energy.

 - important: In swift-corelibs-foundation on Linux it does **neither**. Every job below runs on an ordinary pool thread of the default class with the same scheduler priority (nice 0), and `Thread.current.qualityOfService` reports `default`. What it does do: on a queue wider than one, an operation without an explicit `queuePriority` gets one from its quality of service, so it changes the *order* in which waiting operations start. On a queue of width 1 even that is skipped, and they start in the order they were added.

 - experiment: Four jobs are added from least to most urgent. At width 2 the two most urgent start first; as slots free up the queue picks `utility`, then `background`. Set `serialQoSQueue` to true and they run strictly in the order added.
 */
/// A job that says, from inside, what its quality of service changed about the thread running it.
final class ServiceClassJob: ObservedOperation, @unchecked Sendable {
    override func main() {
        let threadClass = serviceClassName(Thread.current.qualityOfService)
        let jobName = name ?? "job"
        print("\(jobName) runs on thread \(ThreadIdentity.current): nice \(niceness()), Thread.current.qualityOfService = \(threadClass)")
        trace("\(jobName) at work") {
            Simulated.wait(0.2)
        }
    }
}

let serviceClasses: [(name: String, quality: QualityOfService)] = [
    ("background", .background), ("utility", .utility), ("userInitiated", .userInitiated), ("userInteractive", .userInteractive),
]

func serviceClassName(_ quality: QualityOfService) -> String {
    serviceClasses.first { $0.quality == quality }?.name ?? "default"
}

/// The scheduler's niceness of the calling thread: 0 is normal; higher values yield the core to others.
func niceness() -> Int32 {
    getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(ThreadIdentity.current))
}

let qualityQueue = OperationQueue()
qualityQueue.name = "quality of service"
qualityQueue.maxConcurrentOperationCount = serialQoSQueue ? 1 : 2
qualityQueue.isSuspended = true
for serviceClass in serviceClasses {
    let job = ServiceClassJob(name: serviceClass.name)
    job.qualityOfService = serviceClass.quality
    qualityQueue.addOperation(job)
}
qualityQueue.isSuspended = false
trace("waitUntilAllOperationsAreFinished") {
    qualityQueue.waitUntilAllOperationsAreFinished()
}

/*:
 So on Linux, reach for `queuePriority` to order work and for `maxConcurrentOperationCount` to hold it back; quality of service will not make the urgent job's thread any faster.

 ## Suspending and resuming

 Setting `isSuspended` to true stops the queue from *starting* anything. It does not touch what is already running: that finishes normally. Setting it back to false carries on where the queue left off. An app might pause its image downloads while the user scrolls, and resume them when the list comes to rest.

 Four downloads run one at a time. As soon as the first has started, the page suspends the queue for a second, then resumes it.
 */
let downloadQueue = OperationQueue()
downloadQueue.name = "downloads"
downloadQueue.maxConcurrentOperationCount = 1
let downloads = (1...4).map { SlowJob("download \($0)", seconds: 0.3) }
downloadQueue.addOperations(downloads, waitUntilFinished: false)
downloads[0].started.wait()
downloadQueue.isSuspended = true
mark("queue suspended")
Simulated.wait(1.0)
let finishedWhilePaused = downloads.filter(\.isFinished).count
mark("queue resumed")
downloadQueue.isSuspended = false
print("While the queue was suspended, \(finishedWhilePaused) of \(downloads.count) downloads finished; the rest waited")
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
// The queue counts an operation done before its completion block has run, so those are waited for separately.
trace("waiting for the completion blocks") {
    completionBlocksDone.wait()
}
peek(uploads.filter(\.isCancelled).count)

/*:
 Operations so far finished when `main()` returned. Work that finishes later, in a callback, needs an operation that says for itself when it is done: [Async](@next)

 Back to the start: [Operation](@previous)
 */
print("Done: \(filteredCount) photos filtered, \(jobCount) pool jobs, and every queue empty.")
