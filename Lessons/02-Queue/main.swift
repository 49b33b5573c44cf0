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
    let inputImage: RGBImage
    private(set) var outputImage: RGBImage?

    init(photoName: String, image: RGBImage) {
        inputImage = image
        super.init()
        name = "tilt-shift \(photoName)"
    }

    override func main() {
        outputImage = tiltShift(inputImage)
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

 - experiment: Set `maxConcurrentOperationCount` to 1: the queue becomes *serial*, one filter after another on the timeline, and the batch takes about six filters' time. At 2 two lanes fill at once and the time roughly halves. Past 2 it barely moves: filtering is pure computation, and this machine has two cores to compute on.
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

 - note: On Apple platforms the kernel tells Dispatch the moment a worker blocks, and a replacement thread arrives almost at once. Linux has no such hook, hence the polling.

 Eight jobs run on a queue of default width. A sleeping job waits half a second; a computing job tilt-shifts a photo over and over for about half a second of CPU.

 - experiment: Switch `workload` between `sleeping` and `computing`, and compare the totals and the lanes. Sleeping jobs could all finish in half a second if eight threads were there; they take longer because the pool starts at two threads and gains one per second. Computing jobs need four seconds of CPU in all, so on two cores they cannot finish in under two seconds, however many threads run them.
 */
let jobCount = 8
let jobSeconds = 0.5
let oneFilter = duration {
    _ = tiltShift(photos[0])
}
// Enough passes for one job to compute about `jobSeconds` at this speed factor, measured on this machine.
let passesPerJob = max(1, Int((jobSeconds / Simulated.speed / oneFilter).rounded()))
let cores = ProcessInfo.processInfo.activeProcessorCount

let poolQueue = OperationQueue()
poolQueue.name = "pool demo"
let meter = PoolMeter()
for number in 1...jobCount {
    poolQueue.addOperation {
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

    init(_ name: String, seconds: Double) {
        self.seconds = seconds
        super.init()
        self.name = name
    }

    override func main() {
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

 - experiment: Four jobs are added from least to most urgent. At width 2 the two most urgent start first and `background` last. Set `serialQoSQueue` to true and they run strictly in the order added.
 */
let serviceClasses: [(name: String, quality: QualityOfService)] = [
    ("background", .background), ("utility", .utility), ("userInitiated", .userInitiated), ("userInteractive", .userInteractive),
]

/// The scheduler's niceness of the calling thread: 0 is normal, higher values yield to others.
func niceness() -> Int32 {
    getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(ThreadIdentity.current))
}

let qualityQueue = OperationQueue()
qualityQueue.name = "quality of service"
qualityQueue.maxConcurrentOperationCount = serialQoSQueue ? 1 : 2
qualityQueue.isSuspended = true
for serviceClass in serviceClasses {
    let job = SlowJob(serviceClass.name, seconds: 0.2)
    job.qualityOfService = serviceClass.quality
    job.completionBlock = {}
    qualityQueue.addOperation(job)
    qualityQueue.addOperation {
        // Each job has a reporter queued right behind it; the job itself cannot see its thread from outside.
    }
}
