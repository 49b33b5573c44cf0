import Foundation
import PageProtocol
import Synchronization

/// One run of a level's body: its threads, its gated values and primitives, and, in controlled mode, the controller
/// that lets exactly one thread run between gates while the others stay parked at theirs.
///
/// A level's body is called once a run with a fresh `LevelRun`, makes its state through it (`shared`, `lock`,
/// `semaphore`, `serialQueue`), starts its threads (`thread`, `task`, a pool's `task`) and returns the check its end is judged by.
/// Uncontrolled (the level run as a page), the gates only send the `mark` a page would, and the threads race as the
/// machine lets them. Controlled, every thread parks at each gate on a semaphore of its own, and the driver (play or
/// the search) picks which parked thread takes its step; the thread then runs alone until its next gate, so the
/// schedule alone decides the outcome.
public final class LevelRun: @unchecked Sendable {
    /// Whether a driver picks the steps: read once a gate, the whole cost of a gate outside the scheduler besides its mark.
    public let controlled: Bool
    /// Whether the level plays its fix.
    public let fixed: Bool

    /// Guards everything below, and the model state of every gated primitive of the run (holders, counts).
    let condition = NSCondition()
    let names: [String]
    var threads: [GatedThread]
    var steps: [LevelStep] = []
    /// Set when the run is over before its threads finished (a deadlock, a failure found by a gate, the end of play):
    /// every gate then lets its thread through without a step, so the threads run to their ends and are joined.
    var draining = false
    /// A failure a thread found on its way (an assertion of the level, a crash recorded instead of trapping).
    var reportedFailure: LevelFailure?
    var sharedValues: [(name: String, value: () -> String)] = []
    /// The latest work done outside the gates, at most `UngatedWork.kept`.
    var ungated: [UngatedWork] = []
    /// Set in play: a gate about to make the program trap (a continuation resumed twice) calls it first with the
    /// crash, so the player's last state names it; the runtime's own message follows on standard error. Unset in a
    /// search, where the crash is recorded instead of made.
    var beforeTrap: ((LevelFailure) -> Void)?

    /// A run outside the scheduler, as the level run as a page has (and a benchmark of a gate's cost).
    public convenience init(uncontrolledWith names: [String]) {
        self.init(names: names, controlled: false, fixed: false)
    }

    init(names: [String], controlled: Bool, fixed: Bool) {
        self.names = names
        self.controlled = controlled
        self.fixed = fixed
        threads = names.map { _ in GatedThread() }
    }

    // MARK: What a level's body makes

    /// A value the threads share, whose loads and stores are steps.
    public func shared<Value: Sendable>(_ name: String, _ initial: Value) -> Shared<Value> {
        let value = Shared(name, initial, run: self)
        sharedValues.append((name, { "\(value.storage)" }))
        return value
    }

    public func lock(_ name: String) -> GatedLock { GatedLock(name, run: self) }

    public func semaphore(_ name: String, value: Int) -> GatedSemaphore { GatedSemaphore(name, value: value, run: self) }

    public func serialQueue(_ label: String) -> GatedQueue { GatedQueue(label, run: self) }

    /// A concurrent queue of the level's own (`global: false`) or GCD's default global queue, whose barriers GCD ignores.
    public func concurrentQueue(_ label: String, global: Bool) -> GatedConcurrentQueue {
        GatedConcurrentQueue(label, global: global, run: self)
    }

    /// A pool of `width` threads for the level's tasks (see `GatedPool`).
    public func pool(_ name: String, width: Int) -> GatedPool { GatedPool(name, width: width, run: self) }

    /// The scheduler's model of an actor of the level (see `GatedActor`).
    public func actor(_ name: String) -> GatedActor { GatedActor(name, run: self) }

    /// Starts the level's thread `number` (1-based, as its description names it) as a `Thread` of its own.
    public func thread(_ number: Int, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in enter(number, body) }
        thread.name = names[number - 1]
        thread.start()
    }

    /// Runs the level's thread `number` as a task (on the cooperative pool). Its gates outside an actor suspend the
    /// task rather than block a pool thread (`GatedActor`); a `Shared` value's gates block, as code on an actor must
    /// to keep the actor held.
    public func task(_ number: Int, _ body: @escaping @Sendable () async -> Void) {
        Task { [self] in
            await GateTicket.$current.withValue(GateTicket(run: self, thread: number)) { await body() }
            finish(number)
        }
    }

    /// Records a failure found inside a thread: the run ends at the next gate, and this is its failure.
    public func fail(_ failure: LevelFailure) {
        condition.lock()
        if reportedFailure == nil { reportedFailure = failure }
        if controlled { draining = true }
        condition.unlock()
    }

    // MARK: Threads and gates

    func enter(_ number: Int, _ body: @Sendable () -> Void) {
        GateTicket.$current.withValue(GateTicket(run: self, thread: number)) { body() }
        finish(number)
    }

    private func finish(_ number: Int) {
        condition.lock()
        threads[number - 1].pool?.leave(number)
        threads[number - 1].state = .finished
        threads[number - 1].pending = nil
        condition.broadcast()
        condition.unlock()
    }

    /// The current thread's number in this run, or nil for a thread the level did not start through the run (an
    /// escaped thread, which gates let through ungated).
    var currentThread: Int? {
        guard let ticket = GateTicket.current, ticket.run === self else { return nil }
        return ticket.thread
    }

    /// Parks the calling thread at a gate until the driver picks it, then returns `.granted` with the run's lock
    /// held, for the gate to update its primitive's model; `.drained` when the run is over (lock not held).
    /// `blocker`, read under the lock, says what the step waits for while it cannot be taken.
    func park(_ thread: Int, kind: GateKind, action: String, line: Int, blocker: @escaping () -> Blocker?) -> Bool {
        condition.lock()
        if draining {
            condition.unlock()
            return false
        }
        threads[thread - 1].state = .parked
        threads[thread - 1].pending = Pending(kind: kind, action: action, line: line, blocker: blocker)
        let wake = threads[thread - 1].wake
        condition.broadcast()
        condition.unlock()
        wake.wait()
        condition.lock()
        if draining {
            condition.unlock()
            return false
        }
        return true
    }

    /// `park` for a task: suspends it on a continuation the driver resumes, holding no thread. `onGrant` runs under
    /// the run's lock when the step is granted (not when drained), on the thread that resumed it.
    func parkSuspending(_ thread: Int, kind: GateKind, action: String, line: Int, blocker: @escaping () -> Blocker?,
                        onGrant: (Int) -> Void) async -> Bool {
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            condition.lock()
            if draining {
                condition.unlock()
                resume.resume()
                return
            }
            // A task suspended holds no thread of its pool, and needs one to go on.
            let pool = threads[thread - 1].pool
            pool?.leave(thread)
            threads[thread - 1].state = .parked
            threads[thread - 1].pending = Pending(kind: kind, action: action, line: line, blocker: {
                blocker() ?? pool?.fullBlocker(for: thread)
            })
            threads[thread - 1].resumeTask = resume
            condition.broadcast()
            condition.unlock()
        }
        return condition.withLock {
            if draining { return false }
            threads[thread - 1].pool?.enter(thread)
            onGrant(thread)
            return true
        }
    }

    /// Lets a parked thread go: resumes its task, or wakes its thread. Called without the run's lock.
    func wake(_ thread: GatedThread) {
        if let task = thread.resumeTask {
            task.resume()
        } else {
            thread.wake.signal()
        }
    }

    /// Replaces the action of the step just taken, once the gate knows its result ("load count" → "load count → 0").
    func describeLastStep(_ action: String) {
        if !steps.isEmpty { steps[steps.count - 1].action = action }
    }

    /// Records work done outside the gates by `thread` (nil: a thread the run did not start), keeping the latest.
    func recordUngated(thread: Int?, _ what: String) {
        condition.withLock {
            ungated.append(UngatedWork(thread: thread, afterStep: steps.count, what: what))
            if ungated.count > UngatedWork.kept { ungated.removeFirst() }
        }
    }

    /// The controlled run this process plays or searches now, if any: a line the level prints then is work outside the
    /// gates, recorded here rather than written over the protocol on standard output (`print`).
    static let current = Mutex<LevelRun?>(nil)

    /// Whether a controlled run was ever made in this process, as only a level program makes one: `print` looks for
    /// a run only then, so a page's prints pay one atomic load rather than a task-local lookup and a lock.
    static let madeInThisProcess = Atomic<Bool>(false)

    func take(_ resource: String, by thread: Int) { threads[thread - 1].holds.append(resource) }

    func release(_ resource: String, by thread: Int) {
        if let index = threads[thread - 1].holds.lastIndex(of: resource) { threads[thread - 1].holds.remove(at: index) }
    }
}

/// Which run and which of its threads the current code runs as: a task-local value, so it holds on a `Thread`, on a
/// GCD worker for the length of one block, and in a task.
struct GateTicket: Sendable {
    @TaskLocal static var current: GateTicket?
    let run: LevelRun
    let thread: Int
}

/// What a step waits for while it cannot be taken, and who holds it (nil when nobody does: a semaphore at zero).
struct Blocker {
    let waitsFor: String
    let heldBy: Int?
}

struct Pending {
    let kind: GateKind
    let action: String
    let line: Int
    let blocker: () -> Blocker?
}

/// A thread of a run as the controller sees it.
struct GatedThread {
    enum State { case starting, running, parked, finished }
    var state = State.starting
    var pending: Pending?
    var holds: [String] = []
    /// What the thread parks on: one semaphore a thread, so waking it wakes no other.
    let wake = DispatchSemaphore(value: 0)
    /// What a task parks on instead, while it does.
    var resumeTask: CheckedContinuation<Void, Never>?
    /// The pool a task of the level runs on, if any.
    var pool: GatedPool?
}
