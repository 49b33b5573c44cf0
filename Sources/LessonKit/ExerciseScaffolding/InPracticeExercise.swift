import Foundation

// Page 5's exercise (`Exercises/05-InPractice`): the list, the network and the finger's script that drive the
// learner's photo loader. The exercise and its solution differ only in the loader and its download operation.

/// The photo loader of page 5's exercise, as the screen uses it: told on the main thread as rows come and go.
public protocol RowLoader: AnyObject, Sendable {
    func rowCameIntoView(_ row: Int)
    func rowLeftView(_ row: Int)
}

/// The list of page 5's exercise: eight rows, three in view, each photo in four parts, and the train in a tunnel.
public enum PhotoList {
    /// The photo each row shows.
    public static let rowPhotos = [1, 2, 3, 4, 4, 3, 5, 6]
    public static let rowsInViewCount = 3
    public static let partsPerPhoto = 4
    /// How long one part takes to arrive, at speed 1.
    static let secondsPerPart = 0.1
    public static let network = PhotoListNetwork()
    public static let screen = PhotoListScreen()

    /// What the finger and the train do, in order. The train is in the tunnel as the list opens.
    enum Step {
        /// The network delivers again: the downloads that stalled in the tunnel go on.
        case leaveTunnel
        /// The finger drags the list by this many rows (negative: back towards the top), one row at a time.
        case scroll(Int)
        /// The finger rests until every row in view shows its photo.
        case settle
    }

    static let script: [Step] = [.scroll(+3), .leaveTunnel, .settle, .scroll(-1), .settle]

    /// Runs the list with the loader `makeLoader` makes for the queue "downloads" (three at a time): the first screen,
    /// then the script, then a wait for every download.
    public static func run(loader makeLoader: (OperationQueue) -> some RowLoader) {
        let queue = OperationQueue()
        queue.name = "downloads"
        queue.maxConcurrentOperationCount = 3
        let loader = makeLoader(queue)

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
    }
}

/// The pretend network: each part of a photo is a span on the timeline, and in the tunnel every part after the first
/// waits for the train to come out.
public final class PhotoListNetwork: @unchecked Sendable {
    private let tunnel = NSCondition()
    /// Guarded by `tunnel`.
    private var inTunnel = true

    public func receive(part: Int, of photo: Int) {
        trace("photo \(photo), part \(part) of \(PhotoList.partsPerPhoto)") {
            if part > 1 {
                tunnel.withLock { while inTunnel { tunnel.wait() } }
            }
            Simulated.wait(PhotoList.secondsPerPart)
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
public final class PhotoListScreen: @unchecked Sendable {
    private let lock = NSCondition()
    /// Guarded by `lock`, as is `showing`.
    private var firstRow = 0
    private var showing: Set<Int> = []

    public var rowsInView: Range<Int> { lock.withLock { firstRow..<firstRow + PhotoList.rowsInViewCount } }

    /// Shows `photo` in `row`, if the row is still in view and that is its photo.
    public func showPhoto(_ photo: Int, in row: Int) {
        lock.withLock {
            guard (firstRow..<firstRow + PhotoList.rowsInViewCount).contains(row), PhotoList.rowPhotos[row] == photo, !showing.contains(row) else { return }
            showing.insert(row)
            mark("row \(row) shows photo \(photo)")
            lock.broadcast()
        }
    }

    /// Puts the first screen's rows in view and tells `loader` of each.
    func showFirstScreen(to loader: some RowLoader) {
        for row in rowsInView {
            mark("row \(row) in view, photo \(PhotoList.rowPhotos[row])")
            loader.rowCameIntoView(row)
        }
    }

    /// Moves the view one row down (`step` 1) or up (-1) and tells `loader`: first of the row that came into view, then
    /// of the one that left. The marks frame what the loader did: a row's work begins after its "in view" mark, and
    /// whatever it cancels is cancelled before the "out of view" mark of the row that left.
    func scroll(by step: Int, telling loader: some RowLoader) {
        let moved = lock.withLock { () -> (entered: Int, left: Int)? in
            let first = firstRow + step
            guard first >= 0, first + PhotoList.rowsInViewCount <= PhotoList.rowPhotos.count else { return nil }
            let moved = step > 0 ? (first + PhotoList.rowsInViewCount - 1, firstRow) : (first, firstRow + PhotoList.rowsInViewCount - 1)
            firstRow = first
            showing.remove(moved.1)
            // Marked as the view changes, so no photo shows in the row before its mark.
            mark("row \(moved.0) in view, photo \(PhotoList.rowPhotos[moved.0])")
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
            while !(firstRow..<firstRow + PhotoList.rowsInViewCount).allSatisfy(showing.contains) { lock.wait() }
            return firstRow..<firstRow + PhotoList.rowsInViewCount
        }
        print("Rows \(rows.lowerBound) to \(rows.upperBound - 1) show photos \(rows.map { String(PhotoList.rowPhotos[$0]) }.joined(separator: ", ")).")
    }
}
