import Foundation
import Synchronization
import TourCore

/// Runs `work`, which blocks (a process wait, a semaphore), on a thread of its own and awaits its result.
///
/// Swift Testing runs tests on the cooperative pool, as wide as the cores: a test that blocks one of its threads
/// holds back every other test. Waiting here costs the pool nothing.
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

extension PageRun {
    /// Waits, without blocking the caller's thread, until the run is over, and says how it ended.
    @discardableResult
    public func ended() async -> RunEnding {
        await awaitBlocking("test-run-wait") { self.waitUntilEnded() }
    }
}

extension PageBuild {
    /// Waits, without blocking the caller's thread, until the build is over, and returns its outcome.
    public func finished() async -> BuildOutcome {
        await awaitBlocking("test-build-wait") { self.wait() }
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

/// Page runs of every test take turns for the machine's cores: at most `count` at once, the others suspended
/// (never blocked) until one ends.
///
/// Pages compute (filters) and their watchdog calls a page stuck after a few seconds without progress; forty page
/// runs started together on two cores, as the suite's tests would, starve one another past that.
///
/// A free slot goes to the most urgent waiter, and among equals to the one that has waited longest. The suite lasts
/// as long as its longest chain of runs that wait for one another, so a run's `Urgency` says where it stands:
/// - `.normal`, the default: a test's first run, or runs that do not wait for one another (`async let`, static
///   `Task`s started together). Almost every new test belongs here, and its runs fill the gaps the chains leave.
/// - `.followUp`: a run that a test starts only after an earlier run of its own ended (a retry, runs that take
///   turns with one another). Without it each run of a chain of six queues again behind every test's first run.
/// - `.criticalPath`: the runs of the suite's longest chain, today page 2's (`QueuePageTests`): a page run at 1×
///   and up to two more for the speed-up. They start first, so the rest of the suite runs beside them.
/// A run that another test may ask for too (a suite's default run, a demo run an exercise grades) goes through
/// `sharedRun`, which runs it once for the whole test process.
/// A new test stays off the critical path if its runs are short (a speed factor of 10 or more where its claims
/// hold; about a second of running each) and, when it needs several, starts them together rather than one after
/// another, or marks each later one `.followUp`. One that needs a long chain of its own should shorten it first:
/// a test with ten runs of a second one after another cannot end before ten seconds plus the waits, however the
/// slots are shared.
public final class PageRunSlots: Sendable {
    /// One slot per core, and at least two.
    public static let shared = PageRunSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// How soon a waiting run gets a slot: see `PageRunSlots`.
    public enum Urgency: Int, Sendable, Comparable {
        case normal, followUp, criticalPath

        public static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private struct Waiter {
        var urgency: Urgency
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var free: Int
        /// Most urgent first; among equals, in the order they came.
        var waiters: [Waiter] = []
    }

    private let state: Mutex<State>

    public init(count: Int) {
        state = Mutex(State(free: count))
    }

    /// How many runs wait for a slot now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits for a free slot and takes it; give it back with `release`.
    public func acquire(_ urgency: Urgency = .normal) async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    let place = state.waiters.firstIndex { $0.urgency < urgency } ?? state.waiters.endIndex
                    state.waiters.insert(Waiter(urgency: urgency, continuation: continuation), at: place)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: the most urgent waiter, the longest waiting among equals, gets it.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    /// Runs `body` in a slot of its own.
    public func withSlot<T>(_ urgency: Urgency = .normal, _ body: () async throws -> T) async rethrows -> T {
        await acquire(urgency)
        defer { release() }
        return try await body()
    }
}
