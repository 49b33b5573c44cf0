import Dispatch
import Foundation
import PageProtocol

/// How a gate was passed: uncontrolled (or by a thread the run does not know), so the real operation runs as in any
/// program; granted a step by the driver, with the run's lock held for the gate to update its model; or let through
/// without a step because the run is over and its threads are being joined.
enum GateOutcome {
    case free
    case granted(thread: Int)
    case drained(thread: Int)
}

extension LevelRun {
    /// A gate: outside the scheduler, one load of `controlled` and the event a `mark` sends, named `mark` (made once,
    /// with the primitive: a name built at each gate cost more than the mark); under it, the calling thread parks
    /// until the driver picks it, and the step is shown as `action` ("store count = 1").
    @inline(__always)
    func gate(_ kind: GateKind, _ mark: String, _ action: @autoclosure () -> String, line: Int,
              blocker: @escaping () -> Blocker? = { nil }) -> GateOutcome {
        guard controlled else {
            let session = LessonSession.shared
            session.emit(.mark(name: mark))
            session.narrate("• \(mark)")
            return .free
        }
        guard let thread = currentThread else {
            recordUngated(thread: nil, "passed \(mark)")
            return .free
        }
        return park(thread, kind: kind, action: action(), line: line, blocker: blocker) ? .granted(thread: thread) : .drained(thread: thread)
    }
}

extension LevelRun {
    /// A gate for a task: as `gate`, but under the scheduler the task suspends rather than block its thread.
    /// `onGrant` updates the primitive's model under the run's lock; returns false when drained.
    func suspendingGate(_ kind: GateKind, _ mark: String, _ action: @autoclosure () -> String, line: Int,
                        blocker: @escaping () -> Blocker? = { nil }, onGrant: (Int) -> Void) async -> Bool {
        guard controlled else {
            let session = LessonSession.shared
            session.emit(.mark(name: mark))
            session.narrate("• \(mark)")
            return false
        }
        guard let thread = currentThread else {
            recordUngated(thread: nil, "passed \(mark)")
            return false
        }
        return await parkSuspending(thread, kind: kind, action: action(), line: line, blocker: blocker, onGrant: onGrant)
    }
}

/// A value the level's threads share. Its `load` and `store` are two steps, so `count.store(count.load() + 1)` splits
/// the way `count += 1` does in the machine: another thread can step between the two.
public final class Shared<Value: Sendable>: @unchecked Sendable {
    public let name: String
    var storage: Value
    unowned let run: LevelRun
    let loadWords: String
    let storeWords: String

    init(_ name: String, _ initial: Value, run: LevelRun) {
        self.name = name
        storage = initial
        self.run = run
        loadWords = "load \(name)"
        storeWords = "store \(name)"
    }

    public func load(line: Int = #line) -> Value {
        switch run.gate(.load, loadWords, loadWords, line: line) {
        case .free, .drained:
            return storage
        case .granted:
            let value = storage
            run.describeLastStep("\(loadWords) → \(value)")
            run.condition.unlock()
            return value
        }
    }

    public func store(_ value: Value, line: Int = #line) {
        switch run.gate(.store, storeWords, "\(storeWords) = \(value)", line: line) {
        case .free, .drained:
            storage = value
        case .granted:
            storage = value
            run.condition.unlock()
        }
    }

    /// The value once the run's threads are joined, for the level's check; not a step.
    public var value: Value { storage }
}

/// A lock whose `lock` and `unlock` are steps. Under the scheduler it knows its holder, so a thread that asks for it
/// while another holds it is blocked on it, not offered; the real `NSLock` is still taken, and is free whenever the
/// driver grants it.
public final class GatedLock: @unchecked Sendable {
    public let name: String
    let real = NSLock()
    var holder: Int?
    unowned let run: LevelRun
    let lockWords: String
    let unlockWords: String

    init(_ name: String, run: LevelRun) {
        self.name = name
        self.run = run
        lockWords = "lock \(name)"
        unlockWords = "unlock \(name)"
    }

    public func lock(line: Int = #line) {
        let waitsFor = lockWords
        switch run.gate(.lock, lockWords, lockWords, line: line, blocker: { [unowned self] in holder.map { Blocker(waitsFor: waitsFor, heldBy: $0) } }) {
        case .free:
            real.lock()
        case .granted(let thread):
            holder = thread
            run.take(name, by: thread)
            run.condition.unlock()
            real.lock()
        case .drained:
            break
        }
    }

    public func unlock(line: Int = #line) {
        switch run.gate(.unlock, unlockWords, unlockWords, line: line) {
        case .free:
            real.unlock()
        case .granted(let thread):
            releaseHeld(by: thread)
            run.condition.unlock()
        case .drained(let thread):
            run.condition.lock()
            releaseHeld(by: thread)
            run.condition.unlock()
        }
    }

    /// Takes the lock, runs `body`, gives the lock back: two steps around it, both on the caller's line.
    public func withLock<T>(line: Int = #line, _ body: () throws -> T) rethrows -> T {
        lock(line: line)
        defer { unlock(line: line) }
        return try body()
    }

    /// Under the run's lock: lets go of the real lock if `thread` holds it (a drained thread may never have taken it).
    private func releaseHeld(by thread: Int) {
        guard holder == thread else { return }
        holder = nil
        run.release(name, by: thread)
        real.unlock()
    }
}

/// A counting semaphore whose `wait` and `signal` are steps: a `wait` at zero is blocked, on a semaphore nobody holds.
public final class GatedSemaphore: @unchecked Sendable {
    public let name: String
    /// Made at zero and signalled up to its value: libdispatch traps when a semaphore is freed below the value it was
    /// made with, which a run ended early (a deadlock) would do.
    let real = DispatchSemaphore(value: 0)
    var count: Int
    unowned let run: LevelRun
    let waitWords: String
    let signalWords: String

    init(_ name: String, value: Int, run: LevelRun) {
        self.name = name
        count = value
        self.run = run
        waitWords = "wait \(name)"
        signalWords = "signal \(name)"
        for _ in 0..<value { real.signal() }
    }

    public func wait(line: Int = #line) {
        let waitsFor = "semaphore \(name)"
        switch run.gate(.wait, waitWords, waitWords, line: line, blocker: { [unowned self] in count > 0 ? nil : Blocker(waitsFor: waitsFor, heldBy: nil) }) {
        case .free:
            real.wait()
        case .granted:
            count -= 1
            run.condition.unlock()
            real.wait()
        case .drained:
            break
        }
    }

    /// Waits without blocking a thread: the task suspends until the semaphore has a count, then takes it.
    public func waitSuspending(line: Int = #line) async {
        let waitsFor = "semaphore \(name)"
        let granted = await run.suspendingGate(.wait, waitWords, waitWords, line: line, blocker: { [unowned self] in
            count > 0 ? nil : Blocker(waitsFor: waitsFor, heldBy: nil)
        }) { _ in count -= 1 }
        if granted || !run.controlled {
            // Under the scheduler the count is there already; outside it, the task gives its thread up until it is.
            while real.wait(timeout: .now()) == .timedOut { await Task.yield() }
        }
    }

    public func signal(line: Int = #line) {
        switch run.gate(.signal, signalWords, signalWords, line: line) {
        case .free:
            real.signal()
        case .granted:
            count += 1
            run.condition.unlock()
            real.signal()
        case .drained:
            run.condition.lock()
            count += 1
            run.condition.unlock()
            real.signal()
        }
    }
}

/// A serial `DispatchQueue` whose `sync` is a step. Modelled as what it is: while a block sent with `sync` runs, the
/// queue is held by the thread that sent it, and another `sync` onto it waits, the sender's own included; that one
/// waits for itself, which GCD reports by trapping ("dispatch_sync called on queue already owned by current thread")
/// and the scheduler sees as a deadlock before the real call is made.
public final class GatedQueue: @unchecked Sendable {
    public let label: String
    public let real: DispatchQueue
    var holder: Int?
    unowned let run: LevelRun
    let syncWords: String

    init(_ label: String, run: LevelRun) {
        self.label = label
        real = DispatchQueue(label: label)
        self.run = run
        syncWords = "sync onto \(label)"
    }

    public func sync<T>(line: Int = #line, _ block: () throws -> T) rethrows -> T {
        let waitsFor = "queue \(label)"
        switch run.gate(.sync, syncWords, syncWords, line: line, blocker: { [unowned self] in holder.map { Blocker(waitsFor: waitsFor, heldBy: $0) } }) {
        case .free:
            return try real.sync(execute: block)
        case .granted(let thread):
            holder = thread
            run.take(waitsFor, by: thread)
            run.condition.unlock()
            defer {
                run.condition.lock()
                holder = nil
                run.release(waitsFor, by: thread)
                run.condition.unlock()
            }
            return try real.sync(execute: block)
        case .drained:
            return try block()
        }
    }
}

/// A checked continuation whose `resume` is a step. A second resume is the crash the runtime reports ("SWIFT TASK
/// CONTINUATION MISUSE: … tried to resume its continuation more than once"): in play (and run as a page) it really
/// happens, so the runtime's own message is seen; in a search it is recorded as the run's `crash` and not made, so
/// one schedule's crash does not end the search.
public final class GatedContinuation<Value: Sendable>: @unchecked Sendable {
    public let name: String
    let real: CheckedContinuation<Value, Never>
    /// The function that made the continuation, as the runtime's message names it.
    let function: String
    var resumed = false
    unowned let run: LevelRun
    let resumeWords: String

    public init(_ name: String, _ real: CheckedContinuation<Value, Never>, run: LevelRun, function: String = #function) {
        self.name = name
        self.real = real
        self.function = function
        self.run = run
        resumeWords = "resume \(name)"
    }

    public func resume(returning value: Value, line: Int = #line) {
        switch run.gate(.resume, resumeWords, "\(resumeWords) with \(value)", line: line) {
        case .free:
            real.resume(returning: value)
        case .granted:
            let again = resumed
            resumed = true
            run.condition.unlock()
            guard again else { return real.resume(returning: value) }
            let crash = LevelFailure(kind: .crash, message: "SWIFT TASK CONTINUATION MISUSE: \(function) tried to resume its continuation more than once, returning \(value)!")
            if let beforeTrap = run.beforeTrap {
                beforeTrap(crash)
                real.resume(returning: value)
            } else {
                run.fail(crash)
            }
        case .drained:
            break
        }
    }
}

/// An actor as the scheduler sees it: held by the task running on it, from a `call` until the method returns, except
/// across an `await` inside it, where the actor is free for another call (reentrancy) and the task must wait for it
/// again to go on. The level's actor is a real `actor`; this is its model, which its methods mark.
public final class GatedActor: @unchecked Sendable {
    public let name: String
    var holder: Int?
    unowned let run: LevelRun
    let callWords: String
    let backWords: String

    init(_ name: String, run: LevelRun) {
        self.name = name
        self.run = run
        callWords = "call \(name)"
        backWords = "back on \(name)"
    }

    /// Calls one of the actor's methods in `body`: a step, blocked while another task runs on the actor.
    public func call<T: Sendable>(_ method: String, line: Int = #line, _ body: @Sendable () async -> T) async -> T {
        let granted = await run.suspendingGate(.call, callWords, "\(callWords).\(method)", line: line, blocker: waitForActor) {
            take(by: $0)
        }
        let result = await body()
        // The method returned: the actor is free. Nothing else steps before this thread reaches its next gate.
        if granted, let thread = run.currentThread {
            run.condition.withLock {
                if holder == thread {
                    holder = nil
                    run.release(name, by: thread)
                }
            }
        }
        return result
    }

    /// An `await` inside one of the actor's methods, of `body` (off the actor): a step that lets the actor go, then
    /// one that takes it back, blocked while another task runs on it.
    public func await<T: Sendable>(_ what: String, line: Int = #line, _ body: @Sendable () async -> T) async -> T {
        let words = "await \(what)"
        _ = await run.suspendingGate(.await, words, words, line: line) { thread in
            holder = nil
            run.release(name, by: thread)
        }
        let result = await body()
        _ = await run.suspendingGate(.back, backWords, backWords, line: line, blocker: waitForActor) { take(by: $0) }
        return result
    }

    private func take(by thread: Int) {
        holder = thread
        run.take(name, by: thread)
    }

    private var waitForActor: () -> Blocker? {
        { [unowned self] in holder.map { Blocker(waitsFor: "actor \(name)", heldBy: $0) } }
    }
}

/// A concurrent `DispatchQueue`, of the level's own or one of GCD's global queues, whose `sync` (a read) and
/// `sync(flags: .barrier)` (a write) are steps. On a queue of its own, a barrier block waits for the blocks running
/// on it and runs alone; on a global queue, GCD ignores the barrier flag ("behaves like the dispatch_sync function"),
/// so the write runs beside the reads, and the model does the same.
public final class GatedConcurrentQueue: @unchecked Sendable {
    public let label: String
    public let real: DispatchQueue
    /// Whether a barrier excludes the other blocks: only on a queue made with `.concurrent`, not on a global one.
    let honoursBarriers: Bool
    var readers: [Int] = []
    var writer: Int?
    unowned let run: LevelRun
    let readWords: String
    let barrierWords: String

    init(_ label: String, global: Bool, run: LevelRun) {
        self.label = label
        real = global ? DispatchQueue.global() : DispatchQueue(label: label, attributes: .concurrent)
        honoursBarriers = !global
        self.run = run
        readWords = "sync onto \(label)"
        barrierWords = "barrier sync onto \(label)"
    }

    public func sync<T>(line: Int = #line, _ block: () throws -> T) rethrows -> T {
        let waitsFor = "queue \(label)"
        let outcome = run.gate(.sync, readWords, readWords, line: line, blocker: { [unowned self] in
            honoursBarriers ? writer.map { Blocker(waitsFor: "\(waitsFor) (a barrier block runs)", heldBy: $0) } : nil
        })
        return try runBlock(outcome, add: { readers.append($0) }, remove: { thread in readers.removeAll { $0 == thread } }) {
            try real.sync(execute: block)
        }
    }

    public func barrierSync<T>(line: Int = #line, _ block: () throws -> T) rethrows -> T {
        let waitsFor = "queue \(label)"
        let outcome = run.gate(.barrier, barrierWords, barrierWords, line: line, blocker: { [unowned self] in
            guard honoursBarriers else { return nil }
            if let writer { return Blocker(waitsFor: "\(waitsFor) (a barrier block runs)", heldBy: writer) }
            return readers.first.map { Blocker(waitsFor: "\(waitsFor) (blocks run on it)", heldBy: $0) }
        })
        return try runBlock(outcome, add: { writer = $0 }, remove: { _ in writer = nil }) {
            try real.sync(flags: .barrier, execute: block)
        }
    }

    /// Runs a block the gate let through, recording it as running on the queue for the model while it does.
    private func runBlock<T>(_ outcome: GateOutcome, add: (Int) -> Void, remove: (Int) -> Void,
                             _ block: () throws -> T) rethrows -> T {
        switch outcome {
        case .free:
            return try block()
        case .granted(let thread):
            add(thread)
            run.condition.unlock()
            defer { run.condition.withLock { remove(thread) } }
            return try block()
        case .drained:
            return try block()
        }
    }
}
