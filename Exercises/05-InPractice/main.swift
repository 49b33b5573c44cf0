/*:
 # Exercise: Each photo once, and only for rows in view

 A list of eight rows, three in view, each row showing a photo: rows 3 and 4 show the same photo, and so do rows 2
 and 5. A finger scrolls it by a script, and each photo arrives over the network in four parts, as an operation on a
 queue. The phone is on a train: while it is in a tunnel, each download receives its first part and then stalls until
 the train is out.

 Run it as it is: every row that comes into view downloads its own photo, so rows of the same photo download it again,
 and a row that scrolls away keeps its download going to the end for nobody. Then change `DownloadOperation` and
 `PhotoLoader` (the rest of the file can stay as it is):

 1. **Never download a photo twice.** A row whose photo is already here, or on its way, takes that instead of starting
    another download.
 2. **Cancel what scrolled away.** When a row leaves the view and no row in view shows its photo, cancel that download.
    `cancel()` only sets a flag: a download that has begun stops only if it looks at `isCancelled`, so look before
    each part.

 The check runs this file and reads its operations, spans and marks, not what it printed: no photo may be downloaded to
 the end twice, a download may begin at most one more part once no row in view shows its photo, and every row in view
 at the end must show its photo. Check it with `tour check 5`; `tour hint 5` gives a hint.
 */
import Foundation
import LessonKit

/// The photo each row shows.
let rowPhotos = [1, 2, 3, 4, 4, 3, 5, 6]
let rowsInViewCount = 3
let partsPerPhoto = 4
/// How long one part takes to arrive, at speed 1.
let secondsPerPart = 0.1

/// What the finger and the train do, in order. The train is in the tunnel as the list opens.
enum Step {
    /// The network delivers again: the downloads that stalled in the tunnel go on.
    case leaveTunnel
    /// The finger drags the list by this many rows (negative: back towards the top), one row at a time.
    case scroll(Int)
    /// The finger rests until every row in view shows its photo.
    case settle
}

let script: [Step] = [.scroll(+3), .leaveTunnel, .settle, .scroll(-1), .settle]

// MARK: - The network and the screen (no need to change them)

/// The pretend network: each part of a photo is a span on the timeline, and in the tunnel every part after the first
/// waits for the train to come out.
final class Network: @unchecked Sendable {
    private let tunnel = NSCondition()
    /// Guarded by `tunnel`.
    private var inTunnel = true

    func receive(part: Int, of photo: Int) {
        trace("photo \(photo), part \(part) of \(partsPerPhoto)") {
            if part > 1 {
                tunnel.withLock { while inTunnel { tunnel.wait() } }
            }
            Simulated.wait(secondsPerPart)
        }
    }

    func leaveTunnel() {
        tunnel.withLock {
            inTunnel = false
            tunnel.broadcast()
        }
        print("The train leaves the tunnel: the downloads that stalled go on.")
    }
}

/// The list as the learner sees it: which rows are in view and which show their photo. Every change is a mark on the
/// timeline, and the marks are what the check reads.
final class Screen: @unchecked Sendable {
    private let lock = NSCondition()
    /// Guarded by `lock`, as is `showing`.
    private var firstRow = 0
    private var showing: Set<Int> = []

    var rowsInView: Range<Int> { lock.withLock { firstRow..<firstRow + rowsInViewCount } }

    /// Shows `photo` in `row`, if the row is still in view and that is its photo.
    func showPhoto(_ photo: Int, in row: Int) {
        lock.withLock {
            guard (firstRow..<firstRow + rowsInViewCount).contains(row), rowPhotos[row] == photo, !showing.contains(row) else { return }
            showing.insert(row)
            mark("row \(row) shows photo \(photo)")
            lock.broadcast()
        }
    }

    /// Puts the first screen's rows in view and tells `loader` of each.
    func showFirstScreen(to loader: PhotoLoader) {
        for row in rowsInView {
            mark("row \(row) in view, photo \(rowPhotos[row])")
            loader.rowCameIntoView(row)
        }
    }

    /// Moves the view one row down (`step` 1) or up (-1) and tells `loader`: first of the row that came into view, then
    /// of the one that left. The marks frame what the loader did: a row's work begins after its "in view" mark, and
    /// whatever it cancels is cancelled before the "out of view" mark of the row that left.
    func scroll(by step: Int, telling loader: PhotoLoader) {
        let moved = lock.withLock { () -> (entered: Int, left: Int)? in
            let first = firstRow + step
            guard first >= 0, first + rowsInViewCount <= rowPhotos.count else { return nil }
            let moved = step > 0 ? (first + rowsInViewCount - 1, firstRow) : (first, firstRow + rowsInViewCount - 1)
            firstRow = first
            showing.remove(moved.1)
            // Marked as the view changes, so no photo shows in the row before its mark.
            mark("row \(moved.0) in view, photo \(rowPhotos[moved.0])")
            return moved
        }
        guard let moved else { return }
        loader.rowCameIntoView(moved.entered)
        loader.rowLeftView(moved.left)
        mark("row \(moved.left) out of view")
    }

    /// Waits until every row in view shows its photo, then says which.
    func waitUntilEveryRowInViewShowsItsPhoto() {
        let rows = lock.withLock {
            while !(firstRow..<firstRow + rowsInViewCount).allSatisfy(showing.contains) { lock.wait() }
            return firstRow..<firstRow + rowsInViewCount
        }
        print("Rows \(rows.lowerBound) to \(rows.upperBound - 1) show photos \(rows.map { String(rowPhotos[$0]) }.joined(separator: ", ")).")
    }
}

let network = Network()
let screen = Screen()

// MARK: - Your part

/// Downloads one photo, part by part, and hands itself to `arrived` once every part is here.
final class DownloadOperation: ObservedOperation, @unchecked Sendable {
    let photo: Int
    private let arrived: @Sendable (DownloadOperation) -> Void

    init(photo: Int, arrived: @escaping @Sendable (DownloadOperation) -> Void) {
        self.photo = photo
        self.arrived = arrived
        super.init()
        name = "download photo \(photo)"
    }

    override func main() {
        for part in 1...partsPerPhoto {
            network.receive(part: part, of: photo)
        }
        arrived(self)
    }
}

/// Starts the downloads the rows need. The screen calls it on the main thread as rows come into view and leave; the
/// downloads call back on the queue's threads, so whatever both sides touch must be guarded by `lock`.
final class PhotoLoader: @unchecked Sendable {
    private let queue: OperationQueue
    private let lock = NSLock()

    init(queue: OperationQueue) {
        self.queue = queue
    }

    func rowCameIntoView(_ row: Int) {
        let photo = rowPhotos[row]
        let download = DownloadOperation(photo: photo) { download in
            screen.showPhoto(download.photo, in: row)
        }
        queue.addOperation(download)
    }

    func rowLeftView(_ row: Int) {
    }
}

// MARK: - The run

let queue = OperationQueue()
queue.name = "downloads"
queue.maxConcurrentOperationCount = 3
let loader = PhotoLoader(queue: queue)

print("\(rowPhotos.count) rows, \(rowsInViewCount) in view; each photo arrives in \(partsPerPhoto) parts of \(Simulated.describe(secondsPerPart)).")
print("The train is in a tunnel: downloads stall after their first part.")
screen.showFirstScreen(to: loader)
for step in script {
    switch step {
    case .leaveTunnel:
        network.leaveTunnel()
    case .scroll(let rows):
        trace("scroll \(rows > 0 ? "+" : "")\(rows)") {
            for _ in 0..<abs(rows) {
                screen.scroll(by: rows.signum(), telling: loader)
                Simulated.wait(0.05)
            }
        }
    case .settle:
        trace("waiting for the rows in view") { screen.waitUntilEveryRowInViewShowsItsPhoto() }
    }
}
trace("waitUntilAllOperationsAreFinished") { queue.waitUntilAllOperationsAreFinished() }
print("Done: the list came to rest at rows \(screen.rowsInView.lowerBound) to \(screen.rowsInView.upperBound - 1).")
