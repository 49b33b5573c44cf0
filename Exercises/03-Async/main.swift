/*:
 # Exercise: Finish the asynchronous operation

 `ImageLoad` below starts a download in `main()` and returns at once; the photo arrives later, in the download's callback, on another thread. It is an *asynchronous* operation: the queue believes it is executing until the operation itself says it has finished. As given, it never says so. The queue waits for it forever, `waitUntilAllOperationsAreFinished()` never returns, and the tutorial's watchdog calls the program stuck.

 Your task: finish the operation, so that the queue waits for the download and then goes on.

 1. Write `finish()`: move the state to `.finished` with `setState`, and tell the queue, which on Linux hears of a change only through `didChangeValue(forKey:)`, called after the state has changed (with `willChangeValue(forKey:)` before it, as Apple's KVO wants). Both keys change: `"isExecuting"` and `"isFinished"`.
 2. Call `finish()` where the work really ends: in the download's callback, once the image is stored.

 What the check looks at (`tour check 3`, or `c` in the tutorial): it builds and runs this file and reads what its threads did, not what it prints. It passes when the program ends normally; `load astronaut` went executing and then finished; it finished after its download ended, on the thread the download called back on (not by blocking a thread until the download is done); and the queue's wait ended only after the operation finished. `tour hint 3` gives a hint; `tour solution 3` opens the reference solution once the check has passed, or after two hints.
 */
import Foundation
import LessonKit

/// A pretend download: returns at once, waits on a pool thread as a slow connection would, then calls back there.
func downloadPhoto(_ name: String, seconds: Double = 0.5, completion: @escaping @Sendable (RGBImage?) -> Void) {
    DispatchQueue.global().async {
        Simulated.networkLoad(name, seconds: seconds)
        completion(try? Photos.load(name))
    }
}

/// An operation whose work ends in a callback. The state is kept here, behind a lock: the queue reads it on its
/// threads while the callback changes it on another.
class AsyncOperation: Operation, @unchecked Sendable {
    enum State { case ready, executing, finished }

    private let lock = NSLock()
    private var storedState = State.ready

    var state: State { lock.withLock { storedState } }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state == .executing }
    override var isFinished: Bool { state == .finished }

    override func start() {
        // Cancelled before it began: no work, but it must still finish, or the queue waits for it forever.
        guard !isCancelled else {
            finish()
            return
        }
        willChangeValue(forKey: "isExecuting")
        setState(.executing)
        didChangeValue(forKey: "isExecuting")
        main()
    }

    /// Changes the state and shows the change on the tutorial's timeline. It does not tell the queue.
    func setState(_ newState: State) {
        lock.withLock { storedState = newState }
        reportState(self, newState == .executing ? .executing : newState == .finished ? .finished : .ready)
    }

    /// Marks the operation finished and tells the queue.
    func finish() {
        // Your code here (step 1).
    }
}

final class ImageLoad: AsyncOperation, @unchecked Sendable {
    let photoName: String
    /// Written by the callback before the operation finishes, read after the queue's wait: the locks between order them.
    private(set) var image: RGBImage?

    init(photoName: String) {
        self.photoName = photoName
        super.init()
        name = "load \(photoName)"
    }

    override func main() {
        downloadPhoto(photoName) { image in
            self.image = image
            // Your code here (step 2).
        }
    }
}

let load = ImageLoad(photoName: "astronaut")
let queue = OperationQueue()
queue.name = "image loads"
queue.addOperation(load)
trace("waitUntilAllOperationsAreFinished") {
    queue.waitUntilAllOperationsAreFinished()
}
print(load.image.map { "The queue waited for the photo: \($0.width)×\($0.height)" } ?? "The queue stopped waiting before the photo came")
