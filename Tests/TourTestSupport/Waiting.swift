@preconcurrency import Glibc
import Foundation
import Synchronization
import TourCore

/// Runs `work`, which blocks (a process wait, a semaphore), on a thread of its own and awaits its result.
///
/// Test bodies share one queue as wide as the cores (`BodiesBelowTheRunner`): a test that blocks one of its threads
/// holds back every other test's body. Waiting here costs that queue nothing.
public func awaitBlocking<T: Sendable>(_ name: String = "test-wait", _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}

/// `awaitBlocking` for work that throws.
public func awaitBlocking<T: Sendable>(_ name: String = "test-wait", _ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = name
        thread.start()
    }
}

/// Runs `work`, which computes for a long while, on a thread of its own that the kernel runs only on a core no other
/// thread wants (`SCHED_IDLE`), and awaits its result.
///
/// Test bodies share one queue as wide as the cores (`BodiesBelowTheRunner`), so a test that computes for a fifth of a
/// second in its first turn holds back every body queued behind it. Here the computation gives way at once to any
/// other thread that wakes (a nice value does not: the kernel's scheduler may let a low-priority thread finish its
/// slice first). Expectations stay with the caller: `work` returns what they check.
public func computeAside<T: Sendable>(_ name: String, _ work: @escaping @Sendable () -> T) async -> T {
    // `awaitBlocking` starts a thread for this call alone, so the policy set on it goes with it.
    await awaitBlocking(name) {
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, schedulingIdle, &parameters)
        return work()
    }
}

/// `SCHED_IDLE`, which Glibc leaves out (it needs `_GNU_SOURCE`); with pid 0 `sched_setscheduler` sets the calling
/// thread's policy.
private let schedulingIdle: Int32 = 5

extension PageRun {
    /// Waits, without blocking the caller's thread, until the run is over, and says how it ended.
    @discardableResult
    public func ended() async -> RunEnding {
        await awaitBlocking("test-run-wait") { self.waitUntilEnded() }
    }
}

/// Waits until `condition` holds, checking every `interval` seconds and suspending in between; returns false
/// if it still does not hold after `timeout` seconds. For states that announce themselves with no event, such as a
/// process that is gone or a file that appeared.
public func eventually(timeout: Double, interval: Double = 0.01, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .seconds(interval))
    }
}

/// Counts something that happens on another thread (a line arrived, a build started) and lets a test await each
/// occurrence in turn, suspended rather than blocked.
public final class Occurrences: Sendable {
    private struct State {
        var unclaimed = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Records one occurrence: the longest-waiting `next` returns true, or the next call to it will.
    public func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiters.isEmpty else {
                state.unclaimed += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: true)
    }

    /// Waits for the next occurrence not yet waited for; false if none came within `timeout` seconds, a bound that
    /// only turns a hang into a failure.
    public func next(timeout: Double = 30) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> UInt64? in
                if state.unclaimed > 0 {
                    state.unclaimed -= 1
                    return nil
                }
                state.nextID += 1
                state.waiters.append((state.nextID, continuation))
                return state.nextID
            }
            guard let id else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                let expired = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                expired?.resume(returning: false)
            }
        }
    }
}

