/*:
 # Test variant: page 3's exercise with only the first step done

 `finish()` is written as the reference solution writes it, but nothing calls it: the download's callback stores the
 image and the operation never says it has finished, so the queue waits for it forever, and the check must fail it.
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
        guard state != .finished else { return }
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        setState(.finished)
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
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
