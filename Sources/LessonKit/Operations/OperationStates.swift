import Foundation
import PageProtocol

/// The states an operation passes through: the one type the host reads them as too.
public typealias OperationState = PageProtocol.OperationState

/// Reports that `operation` has reached `state`: a line on stdout when the page runs alone, an `op` event for the host.
///
/// Linux has no KVO, so nothing can watch `isExecuting` from outside; an operation reports its own changes.
/// `ObservedOperation` does this for synchronous subclasses; asynchronous ones call it where they change state.
public func reportState(_ operation: Operation, _ state: OperationState) {
    let session = LessonSession.shared
    let name = displayName(of: operation)
    session.emit(.op(operation: name, oid: objectNumber(operation), state: state))
    session.narrate("\(name) is \(state.rawValue)")
}

/// Records that `operation` waits for `dependency`, so the timeline and the trace export can draw the arrow.
public func reportDependency(_ operation: Operation, on dependency: Operation) {
    LessonSession.shared.emit(.dep(operation: displayName(of: operation), oid: objectNumber(operation),
                                   dependency: displayName(of: dependency), onid: objectNumber(dependency)))
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

    private let table = SanitizerVisibleLock<(entries: [ObjectIdentifier: Entry], next: Int)>(([:], 1))

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

/// An `Operation` subclass that reports each change Foundation makes to its state: ready, executing, cancelled, finished.
///
/// Subclass it instead of `Operation` and override `main()` as usual. Foundation's own `start()` runs unchanged;
/// the time between `executing` and `finished` is a span named after the operation, and `addDependency` is reported too.
///
/// How it sees Foundation's changes without KVO: in swift-corelibs-foundation, `start()`, `cancel()` and a finishing
/// dependency announce each change through the internal `Operation.observeValue(forKeyPath:ofObject:)`, which reads the
/// operation's own `isExecuting`, `isFinished` and `isReady` getters at that moment, before it releases dependents,
/// wakes `waitUntilFinished()`, schedules the completion block or tells the queue. (`didChangeValue(forKey:)` is public,
/// not open, so a subclass cannot hook it.) This class overrides those getters, `isCancelled` and `cancel()`, calls
/// `super` for every answer, and reports what changed since any of them last looked. A getter that sees a change returns
/// only once the change is reported, whichever thread read it first, so a `finished` line precedes the events it causes.
///
/// What no getter shows: an operation with no dependencies is ready from the start, so its `ready` line marks the first
/// time Foundation (or anyone) asked, not a change; and Foundation's `start()` on a finished operation returns on its
/// internal state without reading a getter, so it leaves no line at all.
open class ObservedOperation: Operation, @unchecked Sendable {
    /// What has been reported so far, and the span open between `executing` and `finished`.
    private struct Reported {
        var ready = false
        var executing = false
        var cancelled = false
        var finished = false
        var span: OpenSpan?
    }

    /// Held while a change is reported, so no getter returns a change before its line has gone out.
    private let reported = SanitizerVisibleLock(Reported())

    public override init() {
        super.init()
    }

    public convenience init(name: String) {
        self.init()
        self.name = name
    }

    open override var isReady: Bool {
        // Foundation's isReady takes the operation's own lock, so it is read before `reported` is taken, never inside.
        let ready = super.isReady
        reportChanges(readyNow: ready)
        return ready
    }

    open override var isExecuting: Bool { reportChanges().executing }
    open override var isFinished: Bool { reportChanges().finished }
    open override var isCancelled: Bool { reportChanges().cancelled }

    open override func cancel() {
        super.cancel()
        reportChanges()
    }

    open override func addDependency(_ operation: Operation) {
        super.addDependency(operation)
        reportDependency(self, on: operation)
    }

    /// Foundation's answers now: each read takes only Foundation's innermost lock, which nothing holds while calling out.
    private func foundationState() -> (executing: Bool, cancelled: Bool, finished: Bool) {
        (super.isExecuting, super.isCancelled, super.isFinished)
    }

    /// Reads Foundation's state and reports whatever changed since the last look, in the order the changes happen.
    @discardableResult
    private func reportChanges(readyNow: Bool = false) -> (executing: Bool, cancelled: Bool, finished: Bool) {
        reported.withLock { reported in
            let now = foundationState()
            if readyNow && !reported.ready {
                reported.ready = true
                reportState(self, .ready)
            }
            if now.cancelled && !reported.cancelled {
                reported.cancelled = true
                reportState(self, .cancelled)
            }
            if now.executing && !reported.executing {
                reported.executing = true
                reportState(self, .executing)
                reported.span = OpenSpan(displayName(of: self))
            }
            if now.finished && !reported.finished {
                reported.finished = true
                reported.span?.end()
                reported.span = nil
                reportState(self, .finished)
            }
            return now
        }
    }
}
