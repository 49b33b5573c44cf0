import Foundation
import LessonKit
import Synchronization

/// An operation whose work ends later, in a callback, rather than when `main()` returns.
///
/// Subclasses start their work in `main()` and call `finish()` once it is done, from any thread.
/// Until then the queue counts the operation as executing, and its dependents wait.
class AsyncOperation: Operation, @unchecked Sendable {
    enum State: String {
        case ready, executing, finished
    }

    /// The state lives behind a lock: `finish()` runs on whatever thread the callback came on,
    /// while the queue reads `isFinished` on its own threads.
    private let protectedState = Mutex(State.ready)
    private let transitionLock = NSLock()

    var state: State {
        protectedState.withLock { $0 }
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state == .executing }
    override var isFinished: Bool { state == .finished }

    override func start() {
        // Cancelled before it began: skip the work, but still finish, or the queue waits for it forever.
        guard !isCancelled else {
            finish()
            return
        }
        move(to: .executing)
        main()
    }

    /// Marks the operation finished. Only the first call counts, so a late callback after a cancellation is harmless.
    func finish() {
        move(to: .finished)
    }

    override func addDependency(_ operation: Operation) {
        super.addDependency(operation)
        // Tell the tutorial's timeline, which draws the arrow and can name a cycle.
        reportDependency(self, on: operation)
    }

    override func cancel() {
        let wasCancelled = isCancelled
        super.cancel()
        if !wasCancelled, !isFinished { reportState(self, .cancelled) }
    }

    private func move(to newState: State) {
        // One change at a time, so two racing calls to finish() cannot both announce one.
        transitionLock.withLock {
            let current = state
            guard current != .finished, current != newState else { return }
            // Finishing also ends executing, and KVO on Apple platforms wants both keys announced.
            let keys = newState == .executing ? ["isExecuting"] : ["isExecuting", "isFinished"]
            // willChangeValue does nothing in swift-corelibs-foundation; KVO on Apple platforms needs it before the change.
            keys.forEach { willChangeValue(forKey: $0) }
            protectedState.withLock { $0 = newState }
            // Tell the tutorial's timeline first, so the change shows before anything the queue does about it.
            reportState(self, newState == .executing ? .executing : .finished)
            // On Linux, didChangeValue is how the queue hears of the change: Foundation looks at the key and reads the new value.
            keys.forEach { didChangeValue(forKey: $0) }
        }
    }
}
