/*:
 # In Practice

 Photos download and tilt-shift in the background while the list keeps scrolling. Done on the thread that draws the list, the work freezes it; done for every row, it is wasted on rows scrolled past. Operations, dependencies, cancellation, a suspended queue and a cache solve it together.

 Linux has no UIKit, so the table view is a model: 18 rows over the six shipped photos, four in view, and a scripted finger. The live view draws the rows in view; `f` there shows a row's photo full size, before and after its filter.

 - speaker: Say: this is the table-view recipe without UIKit: a list whose rows each download and filter a photo, a cache, and rows that leave the screen cancelled. Point at the live view beside the code: rows fill in as their filters end, while the scripted finger scrolls.
 */
import Foundation
import LessonKit

let photoNames = Photos.names
guard !photoNames.isEmpty else {
    print("No photos found: set TOUR_ASSETS to the tutorial's assets folder.")
    exit(1)
}
let rowCount = 18
let rowPhotos = (0..<rowCount).map { photoNames[$0 % photoNames.count] }

/// A simulated download takes this long at speed 1; the tilt-shift is real work on real pixels.
let downloadSeconds = 1.0
/// How long the finger takes to drag the list by one row, at speed 1.
let rowStepSeconds = 0.1

//: - experiment: Set `maxConcurrentOperationCount` to 1: downloads and filters take turns, and the last line says one worked at a time. Raise it to 6: the last line often shows no more overlap than at 3, because the threads come from libdispatch's pool, which grows slowly.
let maxConcurrentOperations = knob("maxConcurrentOperationCount", default: 3, in: 1...6, "how many operations the list's queue runs at once")
//: - experiment: Choose another `script`: `flick` drags to the bottom in one go and rests at rows 14 to 17; `still` never scrolls, so nothing is cancelled; `keys` leaves the scrolling to you (arrow keys in the live view, Enter to let go).
let script = knob("script", default: ScrollScript.downAndBack, "which scripted scroll to play, or keys to scroll yourself")
let rowsInViewCount = knob("visibleRows", default: 4, in: 2...6, "how many rows fit on the screen")
//: - experiment: Turn `suspendWhileScrolling` off and play `flick`: rows that only pass through begin downloads while the finger is down. The line after the lift counts that work: 0 while the queue is suspended.
let suspendWhileScrolling = knob("suspendWhileScrolling", default: true, "suspend the queue while the finger is on the list")
//: - experiment: Turn `cacheImages` off: every row downloads its own copy, and the count of downloads at the end grows past one per photo.
let cacheImages = knob("cacheImages", default: true, "share downloads and finished pictures between rows of the same photo")

/*:
 ## Three operations per row

 Each row needs three steps, each an operation that depends on the one before, as on the Dependencies page: **load** the photo (a simulated download), **tilt-shift** it, **show** it in the row. Whichever dependency provides a picture, the next operation takes it.

 - speaker: Point at one row's download span and its filter span on different lanes, the filter starting the moment the download ends: a dependency, as on page 4. Usual question: "why three operations and not one?" Each can be cancelled, reused from the cache or run on its own queue.
 */
protocol PictureProviding: AnyObject {
    var picture: RGBImage? { get }
}

extension Operation {
    /// The picture handed along by a dependency, if one provides it.
    var pictureFromDependencies: RGBImage? {
        dependencies.lazy.compactMap { ($0 as? PictureProviding)?.picture }.first
    }
}

/*:
 Each operation asks the list for permission before its real work begins. The list answers under the lock it holds when a row scrolls away and cancels its operations, so "cancelled" and "begun" never cross.

 - important: `cancel()` only sets a flag: an operation that checked `isCancelled` a moment before carries on. When "never start once cancelled" matters, check the flag and commit under one lock, and cancel under it too.

 `@unchecked Sendable` is the promise explained on the Operation page: safe to share between threads, on our word. It holds here: `picture` is written in `main()` and read only by dependents, which Foundation starts after the operation finished; `hasBegun` changes only under the list's lock.
 */
final class LoadPhotoOperation: ObservedOperation, PictureProviding, @unchecked Sendable {
    let photoName: String
    /// The drag the finger was making as the download was queued (nil between drags), for the count of work begun during it.
    let queuedDuringDrag: Int?
    private let list: ImageList
    private(set) var picture: RGBImage?
    /// Set by the list, under its lock, once the download has been allowed to begin.
    var hasBegun = false

    init(photoName: String, queuedDuringDrag: Int?, list: ImageList) {
        self.photoName = photoName
        self.queuedDuringDrag = queuedDuringDrag
        self.list = list
        super.init()
        name = "load \(photoName)"
    }

    override func main() {
        guard list.downloadMayBegin(self) else { return }
        Simulated.networkLoad(photoName, seconds: downloadSeconds)
        do {
            picture = try Photos.load(photoName)
        } catch {
            print("Could not load \(photoName): \(error)")
        }
        list.photoArrived(from: self)
    }
}

final class TiltShiftOperation: ObservedOperation, PictureProviding, @unchecked Sendable {
    let row: Int
    let photoName: String
    let queuedDuringDrag: Int?
    /// The photo, when the cache already had it and no download runs first.
    private let cachedPhoto: RGBImage?
    private let list: ImageList
    private(set) var picture: RGBImage?
    /// Set by the list, under its lock, once the filter has been allowed to begin.
    var hasBegun = false

    init(row: Int, photoName: String, cachedPhoto: RGBImage?, queuedDuringDrag: Int?, list: ImageList) {
        self.row = row
        self.photoName = photoName
        self.queuedDuringDrag = queuedDuringDrag
        self.cachedPhoto = cachedPhoto
        self.list = list
        super.init()
        name = "filter row \(row)"
    }

    override func main() {
        guard let photo = cachedPhoto ?? pictureFromDependencies, list.filterMayBegin(self) else { return }
        let filtered = trace("tilt-shift row \(row)") { tiltShift(photo) }
        picture = filtered
        list.filterFinished(self, picture: filtered)
    }
}

//: - note: In UIKit the last step would hop to the main queue, where cells live; this list is a model behind a lock, so any thread may hand it the picture.
final class ShowRowOperation: ObservedOperation, @unchecked Sendable {
    let row: Int
    private let list: ImageList

    init(row: Int, list: ImageList) {
        self.row = row
        self.list = list
        super.init()
        name = "show row \(row)"
    }

    override func main() {
        list.rowPictureReady(self, picture: pictureFromDependencies)
    }
}

/*:
 ## A provider per row

 The provider builds one row's chain and keeps it, so the row can take its work back when it leaves. Rows of the same photo may share one download, so the provider cannot cancel that alone.
 */
final class ImageProvider {
    let download: LoadPhotoOperation?
    let filter: TiltShiftOperation
    let show: ShowRowOperation

    /// A chain from `photo` when the cache has it, otherwise from `download`.
    init(row: Int, photoName: String, photo: RGBImage?, download: LoadPhotoOperation?, queuedDuringDrag: Int?, list: ImageList) {
        self.download = download
        filter = TiltShiftOperation(row: row, photoName: photoName, cachedPhoto: photo, queuedDuringDrag: queuedDuringDrag, list: list)
        show = ShowRowOperation(row: row, list: list)
        if let download {
            filter.addDependency(download)
        }
        show.addDependency(filter)
    }

    /// The operations that belong to this row alone.
    var ownOperations: [Operation] { [filter, show] }

    /// Cancels the row's own operations that have not finished; returns how many had not begun their work.
    /// Called under the list's lock, the lock under which a filter begins and a row is shown, so the count is exact.
    func cancel() -> Int {
        let unfinished = ownOperations.filter { !$0.isFinished }
        unfinished.forEach { $0.cancel() }
        return unfinished.filter { $0 !== filter || !filter.hasBegun }.count
    }
}

/*:
 ## The cache

 The cache keeps the best thing known about each photo: a download on its way, the photo, or its tilt-shifted picture. A row coming into view looks here first and shares a download in flight, so no photo is downloaded twice. A download no row in view waits for is cancelled **if it has not begun**; one that has begun finishes, into the cache.
 */
struct PhotoCache {
    enum Entry {
        case download(LoadPhotoOperation)
        case photo(RGBImage)
        case finished(RGBImage)
    }

    /// With the cache off, nothing is remembered and every row starts from nothing.
    let isEnabled: Bool
    private var entries: [String: Entry] = [:]

    init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    subscript(photoName: String) -> Entry? {
        get { isEnabled ? entries[photoName] : nil }
        set { if isEnabled { entries[photoName] = newValue } }
    }
}

/*:
 ## The list

 The list plays the table view. When a row comes into view (UIKit's `willDisplay`) it queues what the row still needs; when it leaves (`didEndDisplaying`) it cancels the row's operations, and the download if nobody else waits for it.

 The operations call back from the queue's threads, so one lock guards the list: an `NSCondition`, a lock (`withLock` runs a closure holding it) that a thread can also wait on until another calls `broadcast()`. Every stored `var` is touched only under it, which keeps the list's `@unchecked Sendable` promise.
 */
final class ImageList: @unchecked Sendable {
    /// Running totals, for the summary after each gesture and at the end.
    struct Counts {
        var rowsEntered = 0
        var operationsCancelled = 0
        var filtersBegun = 0
        var downloadsBegun: [String: Int] = [:]
        /// Downloads and filters queued during a drag that began before that drag ended.
        var workBegunWhileScrolling = 0
        /// The most downloads and filters at work at one moment.
        var mostWorkAtOnce = 0
    }

    let photoNames: [String]
    let rowsInViewCount: Int
    private let queue: OperationQueue
    private let lock = NSCondition()
    private var firstRowInView = 0
    private var cache: PhotoCache
    private var providers: [Int: ImageProvider] = [:]
    /// Providers of rows that left, kept alive to the end: see the note on cancelled operations below.
    private var retiredProviders: [ImageProvider] = []
    private var display: ListDisplay
    private var totals = Counts()
    /// The number of the drag under way, counting from 1, or nil while the finger is up.
    private var drag: Int?
    private var dragsSoFar = 0
    private var workInProgress = 0

    init(photoNames: [String], rowsInView: Int, queue: OperationQueue, cacheImages: Bool) {
        self.photoNames = photoNames
        rowsInViewCount = rowsInView
        self.queue = queue
        cache = PhotoCache(isEnabled: cacheImages)
        display = ListDisplay(photoNames: photoNames)
    }

    var rowsInView: Range<Int> { lock.withLock { visibleRows } }
    var counts: Counts { lock.withLock { totals } }

    private var visibleRows: Range<Int> { firstRowInView..<firstRowInView + rowsInViewCount }

    /// The finger touches the list (true) or lifts (false).
    func setScrolling(_ scrolling: Bool) {
        lock.withLock {
            if scrolling { dragsSoFar += 1 }
            drag = scrolling ? dragsSoFar : nil
        }
    }

    func showFirstScreen() {
        let work = lock.withLock {
            display.viewMoved(to: visibleRows)
            return visibleRows.flatMap { rowEntered($0) }
        }
        queue.addOperations(work, waitUntilFinished: false)
    }

    /// Moves the list one row towards its end (`step` 1) or its start (`step` -1); false when it is already there.
    func scroll(by step: Int) -> Bool {
        let work: [Operation]? = lock.withLock {
            let first = firstRowInView + step
            guard first >= 0, first + rowsInViewCount <= photoNames.count else { return nil }
            let leaving = step > 0 ? firstRowInView : firstRowInView + rowsInViewCount - 1
            firstRowInView = first
            rowLeft(leaving)
            let entering = step > 0 ? visibleRows.upperBound - 1 : first
            display.viewMoved(to: visibleRows)
            return rowEntered(entering)
        }
        guard let work else { return false }
        queue.addOperations(work, waitUntilFinished: false)
        return true
    }

    /// The operations `row` needs, given what the cache knows; the caller queues them outside the lock.
    private func rowEntered(_ row: Int) -> [Operation] {
        let photoName = photoNames[row]
        totals.rowsEntered += 1
        switch cache[photoName] {
        case .finished(let picture)?:
            display.show(row, .filtered, note: "from cache", picture: picture)
            return []
        case .photo(let photo)?:
            display.show(row, .loaded, note: "from cache", picture: photo)
            let provider = ImageProvider(row: row, photoName: photoName, photo: photo, download: nil, queuedDuringDrag: drag, list: self)
            providers[row] = provider
            return provider.ownOperations
        case .download(let download)?:
            display.show(row, .placeholder, note: "shares a download")
            let provider = ImageProvider(row: row, photoName: photoName, photo: nil, download: download, queuedDuringDrag: drag, list: self)
            providers[row] = provider
            return provider.ownOperations
        case nil:
            display.show(row, .placeholder)
            let download = LoadPhotoOperation(photoName: photoName, queuedDuringDrag: drag, list: self)
            cache[photoName] = .download(download)
            let provider = ImageProvider(row: row, photoName: photoName, photo: nil, download: download, queuedDuringDrag: drag, list: self)
            providers[row] = provider
            return [download] + provider.ownOperations
        }
    }

    private func rowLeft(_ row: Int) {
        guard let provider = providers.removeValue(forKey: row) else {
            display.show(row, .away)
            return
        }
        retiredProviders.append(provider)
        var cancelled = provider.cancel()
        if let download = provider.download, releaseDownload(download) {
            cancelled += 1
        }
        totals.operationsCancelled += cancelled
        display.show(row, .away, note: cancelled == 0 ? nil : "\(cancelled) \(cancelled == 1 ? "operation" : "operations") cancelled")
    }

    /// Cancels `download` if no row in view waits for it and it has not begun; true if it did.
    private func releaseDownload(_ download: LoadPhotoOperation) -> Bool {
        let stillWanted = visibleRows.contains { providers[$0]?.download === download }
        guard !stillWanted, !download.hasBegun else { return false }
        download.cancel()
        cache[download.photoName] = nil
        return true
    }

    // MARK: Called by the operations, on the queue's threads

    func downloadMayBegin(_ download: LoadPhotoOperation) -> Bool {
        lock.withLock {
            guard !download.isCancelled else { return false }
            download.hasBegun = true
            totals.downloadsBegun[download.photoName, default: 0] += 1
            workBegan(queuedDuringDrag: download.queuedDuringDrag)
            return true
        }
    }

    func photoArrived(from download: LoadPhotoOperation) {
        lock.withLock {
            workInProgress -= 1
            guard let photo = download.picture else {
                cache[download.photoName] = nil
                return
            }
            if case .download? = cache[download.photoName] {
                cache[download.photoName] = .photo(photo)
            }
            for row in visibleRows where providers[row]?.download === download && display.state(of: row) == .placeholder {
                display.show(row, .loaded, picture: photo)
            }
        }
    }

    func filterMayBegin(_ filter: TiltShiftOperation) -> Bool {
        lock.withLock {
            guard !filter.isCancelled else { return false }
            filter.hasBegun = true
            totals.filtersBegun += 1
            workBegan(queuedDuringDrag: filter.queuedDuringDrag)
            display.show(filter.row, .filtering)
            return true
        }
    }

    func filterFinished(_ filter: TiltShiftOperation, picture: RGBImage) {
        lock.withLock {
            workInProgress -= 1
            cache[filter.photoName] = .finished(picture)
        }
    }

    private func workBegan(queuedDuringDrag: Int?) {
        workInProgress += 1
        totals.mostWorkAtOnce = max(totals.mostWorkAtOnce, workInProgress)
        // Work queued during an earlier drag may begin during this one: it was handed over before the queue was suspended.
        if queuedDuringDrag != nil && queuedDuringDrag == drag { totals.workBegunWhileScrolling += 1 }
    }

    func rowPictureReady(_ show: ShowRowOperation, picture: RGBImage?) {
        lock.withLock {
            guard !show.isCancelled, providers[show.row]?.show === show else { return }
            providers[show.row] = nil
            display.show(show.row, picture == nil ? .failed : .filtered, picture: picture)
            lock.broadcast()
        }
    }

    // MARK: The end of the page

    /// Blocks until every row in view shows its final picture (or why it has none).
    func waitUntilRowsInViewAreSettled() {
        lock.withLock {
            while !visibleRows.allSatisfy({ display.state(of: $0) == .filtered || display.state(of: $0) == .failed }) {
                lock.wait()
            }
        }
    }

    /// Takes back every row's work, for `quit`.
    func cancelEverything() {
        lock.withLock {
            retiredProviders += providers.values
            for provider in providers.values {
                totals.operationsCancelled += provider.cancel()
                if let download = provider.download, !download.hasBegun, !download.isCancelled {
                    download.cancel()
                    totals.operationsCancelled += 1
                }
            }
            providers.removeAll()
        }
    }

    func snapshot() -> [String] { lock.withLock { display.snapshot(of: visibleRows) } }
    func picture() -> [String] { lock.withLock { display.picture(inView: visibleRows) } }
}

/*:
 - deep dive: Why the list keeps the providers of rows that left in `retiredProviders`. In swift-corelibs-foundation (read at the swift-6.3.1-RELEASE tag, `Sources/Foundation/Operation.swift`), `addDependency` records the dependent in the dependency's `__downDependencies` as an `Unmanaged` pointer, without retaining it, and `cancel()` sets the dependent's count of unfinished dependencies to zero without removing it from that set. A cancelled dependent then finishes at once and, if nothing else holds it, is freed; when its dependency finishes later, Foundation walks the set and reaches for the freed object, and the process can crash. So on Linux, keep a cancelled operation alive until every operation it depends on has finished. The providers are small, and they go when the page ends.

 ## The finger

 Work for every row the finger drags past would compete with the scrolling, and most of it would be cancelled a moment later. So the queue is **suspended** while the finger is down, and hands out nothing:
 - operations already running carry on to the end;
 - an operation that becomes ready while the queue is suspended does not start before it resumes;
 - cancelled operations stay in the queue, counted by `operationCount`, until it resumes; then each one is started, sees that it is cancelled and finishes without running `main()`.

 - deep dive: Suspending does not take back an operation already handed over. swift-corelibs-foundation's `_schedule()` gives an operation to its dispatch queue with `async` the moment a slot is free, and checks `isSuspended` only before doing so. libdispatch's pool makes a worker thread as work arrives, up to one per core, adds more only once a second (the Queue page measures it), and lets a thread go after 5 s without work, so on a small machine the timeline often shows only two lanes at work while the queue has three slots: the third download of the first screen can wait for a thread and begin after the finger went down. Only an operation that was ready before the suspension can do that; this page's tests check exactly that rule.

 - speaker: Say: while the finger is down the queue is suspended: what already runs carries on, nothing new starts, and rows the finger only passed are cancelled before their downloads begin. Point at the row marks on the timeline (`row 6 astronaut: filtered`) bunching up after the finger lifts. Usual question: "why not cancel instead of suspending?" Rows the finger stops on still want their photos; suspending defers them, cancelling would lose them.
 */
final class Finger {
    private let list: ImageList
    private let queue: OperationQueue
    private let suspendsQueue: Bool
    private(set) var isDown = false
    private var countsAtTouch = ImageList.Counts()
    private var rowsAtTouch = 0..<0

    init(list: ImageList, queue: OperationQueue, suspendsQueue: Bool) {
        self.list = list
        self.queue = queue
        self.suspendsQueue = suspendsQueue
    }

    /// Drags the list by `rows` (negative: back towards the start), one row at a time, touching it first if needed.
    func drag(by rows: Int) {
        if !isDown { touch() }
        for _ in 0..<abs(rows) {
            guard list.scroll(by: rows.signum()) else { break }
            Simulated.wait(rowStepSeconds)
        }
    }

    private func touch() {
        isDown = true
        countsAtTouch = list.counts
        rowsAtTouch = list.rowsInView
        list.setScrolling(true)
        mark("finger down")
        if suspendsQueue {
            queue.isSuspended = true
            // Marked after the flag is set: whatever starts after this mark started with the queue suspended.
            mark("queue suspended")
        }
    }

    func lift() {
        isDown = false
        list.setScrolling(false)
        mark("finger lifted")
        let waiting = queue.operationCount
        if suspendsQueue {
            // Marked before the flag is cleared: whatever starts before this mark started with the queue suspended.
            mark("queue resumed")
            queue.isSuspended = false
        }
        list.counts.gestureSummary(since: countsAtTouch, from: rowsAtTouch, to: list.rowsInView, waiting: suspendsQueue ? waiting : nil)
            .forEach { print($0) }
    }
}

/*:
 ## Running the list

 At most three operations at once: enough to overlap downloads, few enough to leave the processor to the list (the original playground gave each row a queue of its own, with no limit).
 */
let queue = OperationQueue()
queue.name = "image list"
queue.maxConcurrentOperationCount = maxConcurrentOperations
announceWidth(of: queue)

let list = ImageList(photoNames: rowPhotos, rowsInView: rowsInViewCount, queue: queue, cacheImages: cacheImages)
print("\(rowCount) rows over \(photoNames.count) photos, \(rowsInViewCount) in view; at most \(maxConcurrentOperations) operations run at once.")
list.showFirstScreen()

/*:
 A script of scroll commands (`scroll +4`, `stop`, `wait 2.5`) moves the finger. In the tutorial, the arrow keys in the live view send the same commands and take over from the script.
 */
let finger = Finger(list: list, queue: queue, suspendsQueue: suspendWhileScrolling)
let quitRequested = play(CommandSource.forThisRun(playing: script), finger: finger, list: list)

/*:
 ## Coming to rest

 When the commands end, the page waits for the rows in view to show their filtered pictures (after `quit` it cancels everything instead), then for the queue to empty, and prints the list.

 - speaker: Read the last lines aloud: how many downloads ran, how many were cancelled, and the most that worked at once. Usual question: "why not simply download everything?" Rows that left the screen are wasted bandwidth and memory; cancelling them is what keeps a long list fast.
 */
if quitRequested {
    list.cancelEverything()
}
if finger.isDown { finger.lift() }
if !quitRequested {
    trace("waiting for the rows in view") { list.waitUntilRowsInViewAreSettled() }
}
trace("waitUntilAllOperationsAreFinished") { queue.waitUntilAllOperationsAreFinished() }

list.picture().forEach { print($0) }
list.counts.finalSummary(queueWidth: maxConcurrentOperations).forEach { print($0) }

/*:
 Each row change is also a mark on the timeline (`row 6 astronaut: filtered`).

 Operations gave structure to work with a shape: steps, dependencies, a lifetime tied to the screen. The next pages go one level down, to the dispatch queues that run it all: [Grand Central Dispatch](@next)
 */
print(quitRequested ? "Done: quit at \(describe(list.rowsInView)), the rest of the work cancelled."
                    : "Done: the list came to rest at \(describe(list.rowsInView)), and nothing is left running.")
