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

    /// A weak reference tells a live operation from a new one that reuses a freed one's address.
    private struct Entry {
        weak var object: AnyObject?
        let number: Int
    }

    private let table = Mutex<(entries: [ObjectIdentifier: Entry], next: Int)>(([:], 1))

    func number(for object: AnyObject) -> Int {
        table.withLock { table in
            if let known = table.entries[ObjectIdentifier(object)], known.object === object { return known.number }
            let number = table.next
            table.next += 1
            table.entries[ObjectIdentifier(object)] = Entry(object: object, number: number)
            return number
        }
    }
}

/// An `Operation` subclass that reports every change of its state: ready, executing, finished and cancelled.
///
/// Subclass it instead of `Operation` and override `main()` as usual; `addDependency` is reported too,
/// and the time it executes is a span named after the operation.
///
/// It keeps its own executing and finished flags, as an asynchronous operation does, so that it can report
/// `finished` *before* Foundation learns of it: Foundation releases dependents and schedules the completion
/// block the moment it hears `didChangeValue(forKey: "isFinished")`, and a report sent after that would
/// arrive after events it caused.
open class ObservedOperation: Operation, @unchecked Sendable {
    private let announcedReady = Atomic<Bool>(false)
    private let flags = Mutex<(executing: Bool, finished: Bool)>((false, false))

    public override init() {
        super.init()
    }

    public convenience init(name: String) {
        self.init()
        self.name = name
    }

    open override var isExecuting: Bool { flags.withLock { $0.executing } }
    open override var isFinished: Bool { flags.withLock { $0.finished } }

    open override var isReady: Bool {
        let ready = super.isReady
        if ready { announceReadyOnce() }
        return ready
    }

    open override func start() {
        // Like Operation's own start(): a finished operation does nothing, a cancelled one finishes unrun.
        guard !isFinished else { return }
        if super.isReady { announceReadyOnce() }
        guard !isCancelled else { return finish() }
        change(executing: true, finished: false)
        trace(displayName(of: self)) {
            reportState(self, .executing)
            main()
        }
        finish()
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

    private func finish() {
        reportState(self, .finished)
        change(executing: false, finished: true)
    }

    /// Sets the flags, then tells Foundation: on Linux, `didChangeValue(forKey:)` is how an operation queue
    /// hears of a change (there is no KVO), and `willChangeValue` does nothing but keeps the usual pairing.
    private func change(executing: Bool, finished: Bool) {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        flags.withLock { $0 = (executing, finished) }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }

    private func announceReadyOnce() {
        if !announcedReady.exchange(true, ordering: .relaxed) {
            reportState(self, .ready)
        }
    }
}
