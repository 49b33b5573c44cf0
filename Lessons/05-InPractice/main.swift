/*:
 # In Practice

 A list of photos that download and tilt-shift in the background while the list keeps scrolling: operations, dependencies, cancellation, a suspended queue and a cache, working together on one real problem.

 The problem is an old one. A list shows pictures that take time to arrive and more time to process. Do that work on the thread that draws the list and the list freezes; do it in the background without a plan and you waste the network and the processor on rows the learner scrolled past long ago. The answer is a handful of small operations and a few rules about when to start, stop and reuse them.

 On a phone this list would be a `UITableView`. There is no UIKit on Linux, so here the list is a plain model: 18 rows over the six shipped photos (each photo appears three times), four rows in view at once, and a finger that drags it. Everything else (the queue, the operations, the cache) is exactly what an app would use.
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
/// How long the finger takes to drag the list by one row.
let rowStepSeconds = 0.1
/// With commands from a host, the finger lifts by itself after this long (real time) without a command.
let quietSecondsBeforeLift = 0.3

//: - experiment: Set `maxConcurrentOperationCount` to 1: downloads and filters take turns, fewer rows finish before the finger drags them away, and more work is cancelled. Raise it to 6: the queue hands out more at once, but the threads to run it come from libdispatch, which starts with one per core and adds more slowly, so on a small machine little changes.
let maxConcurrentOperations = knob("maxConcurrentOperationCount", default: 3, in: 1...6, "how many operations the list's queue runs at once")
//: - experiment: Choose another `script`: `flick` drags from top to bottom in one go, `still` never scrolls at all, `keys` leaves the scrolling to you (the arrow keys in the live view, Enter to let go).
let script = knob("script", default: ScrollScript.downAndBack, "which scripted scroll to play, or keys to scroll yourself")
let rowsInViewCount = knob("visibleRows", default: 4, in: 2...6, "how many rows fit on the screen")
//: - experiment: Turn `suspendWhileScrolling` off and play the `flick` script: rows that are only passing through start their work while the list moves, and the count of filters at the end can grow with pictures nobody saw.
let suspendWhileScrolling = knob("suspendWhileScrolling", default: true, "suspend the queue while the finger is on the list")
//: - experiment: Turn `cacheImages` off: every row downloads its own copy of its photo, and the count of downloads at the end grows.
let cacheImages = knob("cacheImages", default: true, "share downloads and finished pictures between rows of the same photo")

/*:
 ## Three operations per row

 Each row needs the same three steps, and each step is an operation that depends on the one before, as on the Dependencies page: **load** the photo (a simulated network download), **tilt-shift** it, then **show** the result in the row. A small protocol hands the picture along: whichever dependency provides a picture, the next operation takes it.
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
 Each operation asks the list for permission before its real work begins. That looks like ceremony, but it is where the rules live: the list answers under the same lock it holds when a row scrolls away and cancels its operations, so "cancelled" and "begun" can never cross.

 - important: `cancel()` only sets a flag. An operation that checked `isCancelled` a moment before the flag was set carries on regardless. When "this must never start once cancelled" matters, check the flag and commit to starting under one lock, and cancel under that lock too.
 */
final class LoadPhotoOperation: ObservedOperation, PictureProviding, @unchecked Sendable {
    let photoName: String
    private let list: ImageList
    private(set) var picture: RGBImage?
    /// Set by the list, under its lock, once the download has been allowed to begin.
    var hasBegun = false

    init(photoName: String, list: ImageList) {
        self.photoName = photoName
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
    /// The photo, when the cache already had it and no download runs first.
    private let cachedPhoto: RGBImage?
    private let list: ImageList
    private(set) var picture: RGBImage?
    /// Set by the list, under its lock, once the filter has been allowed to begin.
    var hasBegun = false

    init(row: Int, photoName: String, cachedPhoto: RGBImage?, list: ImageList) {
        self.row = row
        self.photoName = photoName
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

//: - note: In UIKit the last step would hop to the main queue, because only the main thread may touch a cell. This list is a model guarded by a lock, so the queue's thread hands the picture over directly.
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

 The provider builds one row's chain and remembers it, so the row can take its work back when it scrolls away. The download is special: when the cache is on, rows of the same photo share one, so the provider does not own it and cannot cancel it alone.
 */
final class ImageProvider {
    let download: LoadPhotoOperation?
    let filter: TiltShiftOperation
    let show: ShowRowOperation

    /// A chain from `photo` when the cache has it, otherwise from `download`.
    init(row: Int, photoName: String, photo: RGBImage?, download: LoadPhotoOperation?, list: ImageList) {
        self.download = download
        filter = TiltShiftOperation(row: row, photoName: photoName, cachedPhoto: photo, list: list)
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

 One dictionary keyed by photo name remembers the best thing known about each photo: a download on its way, the downloaded photo, or the finished tilt-shifted picture. A row that comes into view looks here first. A finished picture is shown at once with no operation at all; a downloaded photo needs only the filter; a download in flight is shared, the new row's filter simply depends on it. So no photo is ever downloaded twice.

 Cancelling a shared download follows one rule: a download that no row in view waits for any more is cancelled **if it has not begun**. One that has begun is left to finish, because its photo goes into the cache and the next row of that photo will need it.
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

 The list plays the table view's part. When a row comes into view (UIKit's `willDisplay`) it looks in the cache and queues whatever the row still needs; when a row leaves (`didEndDisplaying`) it cancels that row's operations, and the download too if nobody else waits for it. The operations call back into the list from the queue's threads, so one lock guards all of its state.
 */
final class ImageList: @unchecked Sendable {
    /// Running totals, for the summary after each gesture and at the end.
    struct Counts {
        var rowsEntered = 0
        var operationsCancelled = 0
        var filtersBegun = 0
        var downloadsBegun: [String: Int] = [:]
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
            let provider = ImageProvider(row: row, photoName: photoName, photo: photo, download: nil, list: self)
            providers[row] = provider
            return provider.ownOperations
        case .download(let download)?:
            display.show(row, .placeholder, note: "shares a download")
            let provider = ImageProvider(row: row, photoName: photoName, photo: nil, download: download, list: self)
            providers[row] = provider
            return provider.ownOperations
        case nil:
            display.show(row, .placeholder)
            let download = LoadPhotoOperation(photoName: photoName, list: self)
            cache[photoName] = .download(download)
            let provider = ImageProvider(row: row, photoName: photoName, photo: nil, download: download, list: self)
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
            return true
        }
    }

    func photoArrived(from download: LoadPhotoOperation) {
        lock.withLock {
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
            display.show(filter.row, .filtering)
            return true
        }
    }

    func filterFinished(_ filter: TiltShiftOperation, picture: RGBImage) {
        lock.withLock {
            cache[filter.photoName] = .finished(picture)
        }
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
 - important: On Linux, keep a cancelled operation alive until every operation it depends on has finished. swift-corelibs-foundation (measured with Swift 6.3.1) remembers an operation's dependents without retaining them, and `cancel()` does not tell the dependency. A cancelled dependent finishes at once and, if nothing else holds it, is freed; when its dependency finishes later, Foundation reaches for the freed object and the process crashes with a segmentation fault. That is why the list keeps the providers of rows that left in `retiredProviders`. They are small, and they go when the page ends.

 ## The finger

 While the finger drags the list, rows rush through the view. Starting work for each of them would compete with the scrolling for the processor, and most of it would be cancelled a moment later. So the queue is **suspended** when the finger touches the list and **resumed** when it lifts.

 What suspending does, measured here:
 - operations already running carry on to the end;
 - an operation that becomes ready while the queue is suspended does not start before it resumes;
 - cancelled operations stay in the queue, still counted by `operationCount`, until it resumes; then each one is started, sees that it is cancelled and finishes at once without running `main()`.

 - note: Suspending stops the queue from handing out more operations; it does not take back one already handed over. swift-corelibs-foundation hands an operation to a dispatch queue the moment a slot is free, and on a two-core machine libdispatch starts with two worker threads and adds more only slowly. So with three slots, the third download of the first screen is often handed over at once but waits for a thread, and it can begin well after the finger went down. Only an operation that was ready before the suspension can do that; this page's tests check exactly that rule.
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
        mark("finger down")
        if suspendsQueue {
            queue.isSuspended = true
            // Marked after the flag is set: whatever starts after this mark started with the queue suspended.
            mark("queue suspended")
        }
    }

    func lift() {
        isDown = false
        mark("finger lifted")
        let waiting = queue.operationCount
        if suspendsQueue {
            // Marked before the flag is cleared: whatever starts before this mark started with the queue suspended.
            mark("queue resumed")
            queue.isSuspended = false
        }
        let now = list.counts
        let rows = list.rowsInView
        let entered = now.rowsEntered - countsAtTouch.rowsEntered
        let cancelled = now.operationsCancelled - countsAtTouch.operationsCancelled
        print("Finger lifted at \(describe(rows)) (from \(describe(rowsAtTouch))): \(entered) \(entered == 1 ? "row" : "rows") came into view "
              + "and as many left; \(cancelled) \(cancelled == 1 ? "operation" : "operations") cancelled before \(cancelled == 1 ? "its" : "their") work began.")
        if suspendsQueue {
            print(waiting == 0 ? "  The suspended queue was empty when it resumed."
                               : "  The suspended queue held \(waiting) operations, cancelled ones included, when it resumed.")
        }
    }
}

func describe(_ rows: Range<Int>) -> String {
    "rows \(rows.lowerBound) to \(rows.upperBound - 1)"
}

/*:
 ## Running the list

 The queue runs at most three operations at once, as the original app did: enough to overlap downloads, few enough to leave the processor to the list.

 - note: On a two-core Linux machine the timeline often shows only two lanes at work. The queue has handed the third operation to libdispatch, whose pool starts with one worker thread per core and grows slowly, so that operation waits for a thread (the Queue page measures this).
 */
let queue = OperationQueue()
queue.name = "image list"
queue.maxConcurrentOperationCount = maxConcurrentOperations

let list = ImageList(photoNames: rowPhotos, rowsInView: rowsInViewCount, queue: queue, cacheImages: cacheImages)
print("\(rowCount) rows over \(photoNames.count) photos, \(rowsInViewCount) in view; at most \(maxConcurrentOperations) operations run at once.")
list.showFirstScreen()

/*:
 The page reads scroll commands one per line: `scroll +N` drags the list N rows down, `scroll -N` back up, `stop` lifts the finger, `wait S` rests for S seconds, `quit` ends at once. Blank lines and lines starting with `#` are skipped.

 Normally a built-in script plays them (the `script` knob). Run inside the tutorial, the page also listens on its standard input: the tutorial turns the learner's arrow keys in the live view into commands, and the first one takes over from the script. The page then lifts the finger by itself after a short quiet spell, and ends when its input closes (Enter in the live view) or says `quit`. With `script` set to `keys` there is no script at all: the page waits for commands from the first moment, typed at a shell if it runs alone.
 */
let hostSendsCommands = ProcessInfo.processInfo.environment["TOUR_STDIN_COMMANDS"] == "1"
let commands: CommandSource
switch (script, hostSendsCommands) {
case (.keys, _):
    commands = .standardInput()
    print("Reading scroll commands from standard input.")
case (_, true):
    commands = .scriptUntilStandardInputTakesOver(script.lines)
    print("Playing the \(script.rawValue) script; scrolling the list yourself takes over from it.")
case (_, false):
    commands = .script(script.lines)
    print("Playing the \(script.rawValue) script.")
}
if script == .keys || hostSendsCommands { LiveView.acceptScrollCommands() }

let finger = Finger(list: list, queue: queue, suspendsQueue: suspendWhileScrolling)
var quitRequested = false
commandLoop: while true {
    let next = commands.next(quietAfter: commands.readsStandardInput && finger.isDown ? quietSecondsBeforeLift : nil)
    guard case .line(let text) = next else {
        if next == .ended { break commandLoop }
        finger.lift()
        continue
    }
    if text.hasPrefix("#") {
        // A script's comments narrate it, so plain mode reads them out.
        let remark = text.dropFirst().trimmingCharacters(in: .whitespaces)
        print(remark.prefix(1).uppercased() + remark.dropFirst())
        continue
    }
    let command: ScrollCommand?
    do {
        command = try ScrollCommand(line: text)
    } catch {
        print("\(error)")
        continue
    }
    switch command {
    case .scroll(let rows)?:
        trace("scroll \(rows > 0 ? "+" : "")\(rows)") { finger.drag(by: rows) }
    case .stop?:
        if finger.isDown { finger.lift() }
    case .wait(let seconds)?:
        guard commands.rest(seconds / Simulated.speed) else {
            print("You took over the scrolling from the script.")
            continue
        }
        print("After \(seconds) s at rest, \(describe(list.rowsInView)) show:")
        list.snapshot().forEach { print($0) }
    case .quit?:
        quitRequested = true
        break commandLoop
    case nil:
        continue
    }
}

/*:
 ## Coming to rest

 When the commands run out, the finger lifts and the page waits until every row in view shows its tilt-shifted picture. After `quit` it waits for nothing: it cancels every row's work first, then lifts the finger so the queue can retire the cancelled operations. Either way it then waits for the queue to empty (downloads that had begun for rows long gone still finish, into the cache) and prints the list.
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
let totals = list.counts
let downloads = totals.downloadsBegun.values.reduce(0, +)
let repeated = totals.downloadsBegun.filter { $0.value > 1 }.keys.sorted()
print("Downloads: \(downloads) for \(totals.downloadsBegun.count) photos"
      + (repeated.isEmpty ? ", none twice." : "; downloaded more than once: \(repeated.joined(separator: ", "))."))
print("Filters run: \(totals.filtersBegun). Operations cancelled before their work began: \(totals.operationsCancelled).")

/*:
 - note: The original playground drew this list as photos in a table view. Here the rows in view are drawn in the tutorial's live view (a placeholder, then the photo, then the tilt-shifted photo), every change of every row is a mark on the timeline (`row 6 astronaut: filtered`), and the page prints the list as text at the end.

 Operations gave structure to work that has a shape: steps, dependencies, a lifetime tied to what is on screen. The next pages go one level down, to the dispatch queues that run all of it: [Grand Central Dispatch](@next)
 */
print(quitRequested ? "Done: quit at \(describe(list.rowsInView)), the rest of the work cancelled."
                    : "Done: the list came to rest at \(describe(list.rowsInView)), and nothing is left running.")
