/*:
 # Task groups

 Page 9's tasks were started one by one and awaited one by one. Most concurrent work comes in families: download every photo, then show them all; stop the whole family when one member fails. A *task group* is such a family, and the language keeps it together: the group's scope does not end before every child has.

 This page sets task groups beside what part one used for families (dependencies, `DispatchGroup`, `maxConcurrentOperationCount`, `cancelAllOperations`), meets `async let`, and runs one workload three ways, one after another, so the lanes compare how each uses threads.

 - speaker: Say: most concurrent work comes in families, and a task group is a family the language keeps together: its scope does not end before every child has. Point, once the first group has run, at the task view (`t` in the timeline): the group as a row with its children under it, across whichever threads ran them. Usual question: "is this a `DispatchGroup`?" It counts for you like one, and more: its children cannot outlive the scope, and cancelling the parent task cancels them.
 */
@preconcurrency import Glibc
import Foundation
import LessonKit

let groupWidth = knob("groupWidth", default: 2, in: 1...6, "how many downloads the width-limited group runs at once")
let failingChild = knob("failingChild", default: true, "one child of the cancellation group throws; false lets all three finish")

let photoNames = Photos.names
print("Photos: \(photoNames.joined(separator: ", "))")

/// Suspends the calling task for `seconds` at 1×, shortened by the speed factor; its thread is free meanwhile.
func sleepTask(_ seconds: Double) async throws {
    try await Task.sleep(for: .seconds(seconds / Simulated.speed))
}

/// A download that suspends rather than blocks, as an `async` network API does, for `seconds` at 1×.
func downloadPhoto(_ name: String, seconds: Double) async throws -> RGBImage {
    try await trace("download \(name)") {
        try await sleepTask(seconds)
    }
    return try Photos.load(name)
}

/// The photo added first downloads longest: 0.1 s at 1× for each photo added after it, and 0.1 s more.
func downloadSeconds(_ name: String) -> Double {
    Double(photoNames.count - (photoNames.firstIndex(of: name) ?? 0)) / 10
}

/*:
 ## A family of tasks: `withTaskGroup`

 `withTaskGroup(of:)` gives its closure a group; `group.addTask { … }` starts a child task at once, on the global executor (page 9). Iterating the group with `for await` hands over each child's result **as it finishes**, not in the order they were added. And `withTaskGroup` does not return until every child has ended, whether or not the closure waited for it: the family cannot outlive its scope.

 The page writes `asTracedTask` and `addTracedTask`: LessonKit's names for the same calls that also number each task, so the timeline's task view (`t` in the timeline, after the queues) draws the group as a row with a row for each child under it, across whichever threads ran them.

 Part one built the same from parts. Page 4 made the filter *depend* on the download; page 7 counted blocks with `DispatchGroup`'s `enter()` and `leave()` and was told by `notify` when the count reached zero. A group needs neither: awaiting a child's result is the dependency, and the scope's end is the `notify`.
 */
let arrivals = await trace("withTaskGroup") {
    await asTracedTask("photo group") {
        await withTaskGroup(of: (String, RGBImage?).self) { group in
            for name in photoNames {
                group.addTracedTask("download \(name)") {
                    let photo = try? await downloadPhoto(name, seconds: downloadSeconds(name))
                    return (name, photo.map { photo in trace("tilt-shift \(name)") { tiltShift(photo) } })
                }
            }
            var arrivals: [String] = []
            for await (name, filtered) in group where filtered != nil {
                mark("arrived: \(name)")
                arrivals.append(name)
            }
            return arrivals
        }
    }
}
print("Filtered in the order they finished: \(arrivals.joined(separator: ", "))")

/*:
 The children ran concurrently, and each result was handed over once its child had finished: the timeline shows every `arrived` mark after that child's filter, and the `withTaskGroup` span ending after the last of them. The photo added first downloads longest, so on a quiet machine the results come back to front; the line above says how they came in this run.

 - speaker: Point at each `arrived` mark sitting after its child's filter, and at the `withTaskGroup` span ending after the last of them. Read the order line aloud: on a quiet machine back to front, on a busy one it can differ, and the line says what this run did. Usual question: "can I have the results in the order I added them?" Return each with its index and sort, or use `async let` for a fixed few.

 ## Limiting a group's width

 An `OperationQueue` takes `maxConcurrentOperationCount` and holds back the rest. A task group has no such setting: every `addTask` starts a child, and only the global executor's width, as many as the cores, limits how many *run*. Downloads suspend, so all of them would be in flight at once. To keep a group to `groupWidth` at a time, start that many, then add the next only as one finishes: `group.next()` awaits the next child to end.

 - experiment: Change `groupWidth`. At 1 the downloads run one after another, at 6 all at once; the line below says how many the page counted at most.

 - speaker: Point at the `download` spans of the limited group, never more side by side than `groupWidth`, and at the printed line that counts them. Say: the group has no width setting; the loop of `next()` and `addTask` is the width. Usual question: "why not a semaphore around each child?" `DispatchSemaphore.wait()` blocks a thread and holds one of the global executor's few places (page 9); `next()` suspends.
 */
let limitedMeter = OverlapMeter()
await trace("group of width \(groupWidth)") {
    await withTaskGroup(of: Void.self) { group in
        var waiting = photoNames[...]
        func startNext() {
            guard let name = waiting.popFirst() else { return }
            group.addTask {
                await limitedMeter.measure {
                    _ = try? await downloadPhoto(name, seconds: 0.3)
                }
            }
        }
        for _ in 0..<groupWidth {
            startNext()
        }
        while await group.next() != nil {
            startNext()
        }
    }
}
print("The group of width \(groupWidth) ran at most \(limitedMeter.mostAtOnce) downloads at once")

/*:
 ## `async let`: a child for a fixed number of things

 When the family is small and fixed, `async let` starts a child task for one value right where it is declared, and the parent goes on until it `await`s the value. Two downloads here run at once; the parent waits for both together.

 - note: An `async let` whose value is never awaited is not left behind: at the end of its scope it is cancelled and then awaited, so its work cannot outlive the function either.

 - speaker: Point at the two `download` spans side by side inside the `async let` span. Usual question: "when does the child start, at the `async let` or at the `await`?" At the `async let`: the `await` only collects the value.
 */
let (coffee, chelsea) = try await trace("async let") {
    async let coffee = downloadPhoto("coffee", seconds: 0.3)
    async let chelsea = downloadPhoto("chelsea", seconds: 0.3)
    return try await (coffee, chelsea)
}
print("async let fetched coffee (\(coffee.width)×\(coffee.height)) and chelsea (\(chelsea.width)×\(chelsea.height)) side by side")

/*:
 ## When one child fails

 `cancelAllOperations()` cancels a queue's operations when *you* call it; an operation that fails tells nobody, and its dependents still run (page 4). A *throwing* group has children that can fail too. Here one of three throws, its error reaches the group's closure through `try await group.next()`, and the closure throws it on. Its two siblings are a sleeper, in a two-second `Task.sleep`, and a worker that computes ten chunks and calls `try Task.checkCancellation()` before each. What becomes of them is the page's prediction: the run prints the answer, and the lanes and marks show it. Gates keep the order certain: the failing child throws only once both siblings have started.

 - experiment: Set `failingChild` to false: nothing throws, and each child ends on its own.

 - speaker: Ask the room the prediction before the run: what becomes of the sleeper and the worker when the upload throws? Then point at the sleeper's span ending at the throw and the worker's mark after the chunk it was in, both before `withThrowingTaskGroup` ends. Usual question: "does the group kill the siblings?" No: it cancels them and waits, and each stops at its own next check, as on page 9.
 */
enum UploadError: Error {
    case serverRefused
}

let sleeperStarted = Gate()
let workerStarted = Gate()
let outcome: String
do {
    try await trace("withThrowingTaskGroup") {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await trace("sleeper") {
                        sleeperStarted.open()
                        try await sleepTask(2)
                    }
                } catch is CancellationError {
                    mark("sleeper cancelled")
                    throw CancellationError()
                }
            }
            group.addTask {
                for chunk in 1...10 {
                    do {
                        try Task.checkCancellation()
                    } catch {
                        mark("worker saw cancellation before chunk \(chunk)")
                        throw error
                    }
                    trace("worker chunk \(chunk)") {
                        // Started means a chunk under way: the upload then throws while the worker computes.
                        if chunk == 1 { workerStarted.open() }
                        Simulated.compute(0.05)
                    }
                }
            }
            group.addTask {
                await sleeperStarted.wait()
                await workerStarted.wait()
                if failingChild {
                    mark("upload throws")
                    throw UploadError.serverRefused
                }
            }
            // The first error a child throws comes out of next(), and the closure throws it on.
            while try await group.next() != nil {}
        }
    }
    outcome = "every child finished"
} catch {
    outcome = "the group threw \(error), after its other children ended"
}
print("withThrowingTaskGroup: \(outcome)")
if failingChild {
    print("When the error left the group's closure, the group cancelled the children still running and waited for them. "
        + "Each stopped at its next check, as on page 9: the sleeper at once, since Task.sleep throws when its task is cancelled; "
        + "the worker after the chunk it was in, at its next try Task.checkCancellation()")
}

/*:
 ## One workload, three ways

 Six photos, each downloaded (half a second of waiting at 1×) and then made into a small tilt-shifted thumbnail, written the three ways this tutorial knows, run one after another:

 1. operations: a download operation and a filter operation that depends on it, on one queue;
 2. GCD: a block per photo on a global queue that downloads, then hands the filter to the global queue in a block of its own, all counted by a `DispatchGroup`;
 3. a task group: a child per photo that awaits its download and then filters.

 The operations and the blocks *block* their thread through each download, as part one's simulated network did. The children *suspend*: their download is a callback-style request (a timer on a Dispatch queue, as a network library's callback would be) that resumes a continuation, so no thread waits for it.

 Each way hands each photo over once, from its download to its filter: the dependency hands it to the filter operation, `async` to the next block, the continuation to the child. LessonKit's `HandOffs` traces each hand-off as a span, `hand-off <photo>`, from the thread where the download was ready to the thread that began the filter, and each way runs as a *phase* (`phase("operations") { … }`). A hand-off that changed threads is a *hop*.

 - note: In the timeline, `t` steps through the views to **phases**: the three runs laid over one another, each shifted to start at zero, with a row per thread each used (a pane too short for them shows one row per phase, how many of its threads had a span open in each column; `z` zooms the pane). Each phase's title line says what the trace holds: how long it took, on how many threads, how many of its hand-offs hopped, and what a hop cost (the median time from a download being ready to its filter starting). Plain mode prints the same lines under "Phases" after the run. The page's own line for each way below counts the threads and hops from inside, and the page's test checks both against the trace.
 */
let downloadSecondsEach = 0.5

/// A tilt-shifted thumbnail, a quarter of the photo's width and height: real filtering, short enough that the
/// downloads' waits show.
func thumbnail(of photo: RGBImage) -> RGBImage {
    let width = photo.width / 4, height = photo.height / 4
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let source = ((y * 4) * photo.width + x * 4) * 3
            pixels += photo.pixels[source..<source + 3]
        }
    }
    return tiltShift(RGBImage(width: width, height: height, pixels: pixels))
}

/// What one way of running the workload did: its time on the wall clock and what its meters counted.
struct WayRun {
    let name: String
    let seconds: Double
    let downloads: OverlapMeter
    let filters: OverlapMeter
    let handOffs: HandOffs

    /// The threads that began a download or a filter.
    var threadCount: Int { downloads.threads.union(filters.threads).count }
}

/// Runs one way as the phase `name`, with meters for its downloads and filters and a log of its hand-offs.
func measureWay(_ name: String,
                _ body: (_ downloads: OverlapMeter, _ filters: OverlapMeter, _ handOffs: HandOffs) async -> Void) async -> WayRun {
    let downloads = OverlapMeter()
    let filters = OverlapMeter()
    let handOffs = HandOffs()
    let clock = ContinuousClock()
    let start = clock.now
    await phase(name) {
        await body(downloads, filters, handOffs)
    }
    return WayRun(name: name, seconds: (clock.now - start) / .seconds(1), downloads: downloads, filters: filters,
                  handOffs: handOffs)
}

/// The filter step of every way: takes the photo handed over, then makes its thumbnail.
func filterStep(_ name: String, way: String, filters: OverlapMeter, handOffs: HandOffs) {
    handOffs.take(name)
    guard let photo = try? Photos.load(name) else { return }
    filters.trace("\(way): tilt-shift \(name)") { _ = thumbnail(of: photo) }
}

let byOperations = await measureWay("operations") { downloads, filters, handOffs in
    let queue = OperationQueue()
    queue.name = "three ways: operations"
    for name in photoNames {
        let download = BlockOperation {
            downloads.trace("operations: download \(name)") { Simulated.wait(downloadSecondsEach) }
            handOffs.ready(name)
        }
        let filter = BlockOperation {
            filterStep(name, way: "operations", filters: filters, handOffs: handOffs)
        }
        filter.addDependency(download)
        queue.addOperation(download)
        queue.addOperation(filter)
    }
    // The task suspends until the queue has run everything added before the barrier block.
    await withCheckedContinuation { continuation in
        queue.addBarrierBlock { continuation.resume() }
    }
}

let byDispatch = await measureWay("GCD") { downloads, filters, handOffs in
    let group = DispatchGroup()
    for name in photoNames {
        DispatchQueue.global().async(group: group) {
            downloads.trace("GCD: download \(name)") { Simulated.wait(downloadSecondsEach) }
            handOffs.ready(name)
            DispatchQueue.global().async(group: group) {
                filterStep(name, way: "GCD", filters: filters, handOffs: handOffs)
            }
        }
    }
    await withCheckedContinuation { continuation in
        group.notify(queue: .global()) { continuation.resume() }
    }
}

let byTaskGroup = await measureWay("task group") { downloads, filters, handOffs in
    await withTaskGroup(of: Void.self) { group in
        for name in photoNames {
            group.addTask {
                await downloads.trace("task group: download \(name)") {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().asyncAfter(deadline: .now() + downloadSecondsEach / Simulated.speed) {
                            handOffs.ready(name)
                            continuation.resume()
                        }
                    }
                }
                filterStep(name, way: "task group", filters: filters, handOffs: handOffs)
            }
        }
    }
}

for way in [byOperations, byDispatch, byTaskGroup] {
    print("\(way.name): \(formatSeconds(way.seconds)) on \(way.threadCount) threads, at most \(way.downloads.mostAtOnce) downloads in flight and \(way.filters.mostAtOnce) filters at once; \(way.handOffs.hops) of its \(way.handOffs.count) hand-offs hopped to another thread")
}

/*:
 The hand-offs show where each way puts the next step. The dependency leaves it to the queue, which starts the filter operation on whichever of its threads is free; a block sent with `async` goes to whichever worker of the global queue takes it; a resumed continuation puts the child back on the global executor, whose queue (`Swift global concurrent queue`) runs on the same libdispatch workers as `DispatchQueue.global()` (page 9). In every way the scheduler picks the thread, so how many hand-offs hop changes from run to run: the lines above and the phase view say what this run did. A hop costs at least the time for another thread to be woken or freed, and the phase view reads what each cost in this run.

 In the task group all six downloads waited at once and held no thread (the line says how many were in flight), so the pool's few threads were free to filter. The operations and the blocks waited only as many at a time as Dispatch had threads for them, and Dispatch on Linux adds a thread for blocked work about once a second (page 2). Had the work only computed, no way could have beaten the cores: a core computes one filter at a time, however the work was handed to it.

 - speaker: Switch the timeline to the phases view (`t`) and compare the three rows: how long each took, on how many threads, and how many hand-offs hopped, all of which vary from run to run; the printed lines say what this run did. Say: read the `downloads in flight` figures: the task group's downloads suspend, so all six can be in flight at once, while the operations and the blocks wait as many at a time as Dispatch has threads for them. Usual question: "so should everything be a task group?" Where the work waits, suspending beats blocking; where it computes, all three ways are held to the cores.

 - important: The difference is the waits, and they are the task group's only because its download *suspends*. A child that blocked with `usleep` or `Simulated.wait` would hold its thread and one of the global executor's places, as page 9's blocking batch did, and its downloads would wait a queue's width at a time: the tasks' queue never widens, even when libdispatch adds a thread to the pool under it.

 Groups tie tasks together; the next page is about data that several tasks share, and the type Swift made for it: [Actors](@next)

 Back: [Tasks](@previous)
 */
print("Done: every family ended with its children\(failingChild ? ", and the child that failed cancelled its siblings" : "").")
