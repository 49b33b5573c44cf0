import Foundation
import Synchronization

/// The states an operation passes through, as the timeline and the page's own output name them.
public enum OperationState: String, Sendable {
    case ready, executing, finished, cancelled
}

/// Reports that `operation` has reached `state`: a line on stdout when the page runs alone, an `op` event for the host.
///
/// Linux has no KVO, so nothing can watch `isExecuting` from outside; an operation reports its own changes.
/// `ObservedOperation` does this for synchronous subclasses; asynchronous ones call it where they change state.
public func reportState(_ operation: Operation, _ state: OperationState) {
    let session = LessonSession.shared
    let name = displayName(of: operation)
    session.emit("op") { line in
        line.add("op", name)
        line.add("oid", objectNumber(operation))
        line.add("state", state.rawValue)
    }
    session.narrate("\(name) is \(state.rawValue)")
}

/// Records that `operation` waits for `dependency`, so the timeline and the trace export can draw the arrow.
public func reportDependency(_ operation: Operation, on dependency: Operation) {
    LessonSession.shared.emit("dep") { line in
        line.add("op", displayName(of: operation))
        line.add("oid", objectNumber(operation))
        line.add("on", displayName(of: dependency))
        line.add("onid", objectNumber(dependency))
    }
}

/// The operation's `name` if it has one, otherwise its class.
func displayName(of operation: Operation) -> String {
    operation.name ?? String(describing: type(of: operation))
}

/// A small number per operation object, stable for the life of the process, to tell apart two operations with one name.
private func objectNumber(_ operation: Operation) -> Int {
    ObjectNumbers.shared.number(for: operation)
}

private final class ObjectNumbers: Sendable {
    static let shared = ObjectNumbers()
    private let numbers = Mutex<[ObjectIdentifier: Int]>([:])

    func number(for object: AnyObject) -> Int {
        numbers.withLock { table in
            if let known = table[ObjectIdentifier(object)] { return known }
            let next = table.count + 1
            table[ObjectIdentifier(object)] = next
            return next
        }
    }
}

/// An `Operation` subclass that reports every change of its state: ready, executing, finished and cancelled.
///
/// Subclass it instead of `Operation` and override `main()` as usual; `addDependency` is reported too,
/// and the time it executes is a span named after the operation.
open class ObservedOperation: Operation, @unchecked Sendable {
    private let announcedReady = Atomic<Bool>(false)

    public override init() {
        super.init()
    }

    public convenience init(name: String) {
        self.init()
        self.name = name
    }

    open override var isReady: Bool {
        let ready = super.isReady
        if ready { announceReadyOnce() }
        return ready
    }

    open override func start() {
        // A second start() of a finished operation does nothing, so there is nothing to report.
        guard !isFinished else { return super.start() }
        if super.isReady { announceReadyOnce() }
        // start() on a cancelled operation only marks it finished; main() never runs.
        if isCancelled {
            super.start()
        } else {
            trace(displayName(of: self)) {
                reportState(self, .executing)
                super.start()
            }
        }
        reportState(self, .finished)
    }

    private func announceReadyOnce() {
        if !announcedReady.exchange(true, ordering: .relaxed) {
            reportState(self, .ready)
        }
    }

    open override func cancel() {
        let wasCancelled = isCancelled
        super.cancel()
        if !wasCancelled { reportState(self, .cancelled) }
    }

    open override func addDependency(_ operation: Operation) {
        super.addDependency(operation)
        reportDependency(self, on: operation)
    }
}
