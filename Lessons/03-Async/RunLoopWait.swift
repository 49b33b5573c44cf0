import CoreFoundation
import Foundation
import LessonKit
import Synchronization

/// Why a run-loop wait gave up.
enum RunLoopWaitError: Error, CustomStringConvertible {
    case timedOut(after: TimeInterval)

    var description: String {
        switch self {
        case .timedOut(let seconds): "gave up waiting after \(formatSeconds(seconds))"
        }
    }
}

/// Runs `work` on a global queue and keeps the current thread's run loop turning until it returns, then returns its value.
///
/// Meanwhile this thread goes on serving its timers, main-queue blocks and other run-loop sources, which a blocking wait
/// would freeze. After `timeout` seconds it throws `RunLoopWaitError.timedOut`; the work itself is not stopped.
func waitWhileRunLoopTurns<Value: Sendable>(timeout: TimeInterval? = nil,
                                            _ work: @escaping @Sendable () -> Value) throws -> Value {
    try waitWhileRunLoopTurns(timeout: timeout) { finish in
        DispatchQueue.global().async {
            finish(work())
        }
    }
}

/// Hands `begin` a `finish` function and keeps the run loop turning until something calls it, from any thread.
///
/// The form for work that already reports through a callback: `waitWhileRunLoopTurns { finish in download { finish($0) } }`.
/// Only the first call of `finish` counts.
func waitWhileRunLoopTurns<Value: Sendable>(timeout: TimeInterval? = nil,
                                            _ begin: (_ finish: @escaping @Sendable (Value) -> Void) -> Void) throws -> Value {
    let mailbox = Mailbox<Value>()
    let wakeUp = RunLoopWakeUp()
    defer { wakeUp.detach() }
    begin { value in
        if mailbox.deliver(value) { wakeUp.signal() }
    }
    try keepTurning(until: { mailbox.isFull }, timeout: timeout, checkInterval: nil)
    return mailbox.take()
}

/// Keeps the run loop turning until `condition` holds, checking it after every turn and at least every `checkInterval` seconds.
///
/// Nothing tells the loop when the condition changes, so it looks again at that interval.
func waitWhileRunLoopTurns(until condition: () -> Bool, checkInterval: TimeInterval = 0.01,
                           timeout: TimeInterval? = nil) throws {
    // Never signalled: it gives a thread without other sources something to sleep on, so the turns do not spin.
    let idleSource = RunLoopWakeUp()
    defer { idleSource.detach() }
    try keepTurning(until: condition, timeout: timeout, checkInterval: checkInterval)
}

private func keepTurning(until condition: () -> Bool, timeout: TimeInterval?, checkInterval: TimeInterval?) throws {
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
    while !condition() {
        let now = Date()
        guard now < deadline else { throw RunLoopWaitError.timedOut(after: timeout ?? 0) }
        let turnEnd = checkInterval.map { min(deadline, now.addingTimeInterval($0)) } ?? deadline
        // One turn: returns once a source has been served (a timer firing does not count) or at turnEnd.
        _ = RunLoop.current.run(mode: .default, before: turnEnd)
    }
}

/// A run-loop source whose only job is to end the current turn of the loop it was made on.
///
/// On Linux, `RunLoop.perform`, a zero-interval timer and `CFRunLoopWakeUp` on its own do not make `run(mode:before:)`
/// return. `CFRunLoopStop` does, but a stop sent just before the loop starts its turn is forgotten, and the wait would
/// sleep on to its deadline. A signalled source stays signalled until the loop serves it, so no wake-up is lost.
private final class RunLoopWakeUp: @unchecked Sendable {
    // Core Foundation allows signalling a source and waking a run loop from any thread.
    private let runLoop: CFRunLoop
    private let source: CFRunLoopSource

    init() {
        var context = CFRunLoopSourceContext()
        // Being served is the whole point; there is nothing to do.
        context.perform = { _ in }
        source = CFRunLoopSourceCreate(kCFAllocatorDefault, 0, &context)
        runLoop = CFRunLoopGetCurrent()
        CFRunLoopAddSource(runLoop, source, kCFRunLoopDefaultMode)
    }

    func signal() {
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(runLoop)
    }

    /// Removes the source; a late `signal()`, from work that outlived a timeout, then does nothing.
    func detach() {
        CFRunLoopSourceInvalidate(source)
    }
}

/// Holds the first value delivered from any thread.
private final class Mailbox<Value: Sendable>: Sendable {
    private let slot = Mutex<Value?>(nil)

    /// Stores `value` unless one is already there; true if this call stored it.
    func deliver(_ value: Value) -> Bool {
        slot.withLock { slot in
            guard case .none = slot else { return false }
            slot = value
            return true
        }
    }

    var isFull: Bool {
        slot.withLock { slot in
            if case .some = slot { return true }
            return false
        }
    }

    func take() -> Value {
        guard let value = slot.withLock({ $0 }) else { preconditionFailure("the mailbox is taken from only once it is full") }
        return value
    }
}
