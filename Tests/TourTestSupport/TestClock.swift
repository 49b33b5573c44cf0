import Dispatch
import Synchronization
import TourCore

/// A `HostClock` whose time moves only when the test moves it, as swift-clocks' `TestClock`: `advance(by:)` runs
/// every wake that falls due on the way, in order of its deadline, each at its own time and on its own queue, and
/// returns once they have run; a wake asked for at a time already past runs at the next `advance`. Nothing waits for
/// real time, so a rule about time is tested at machine speed.
public final class TestClock: HostClock {
    private struct Scheduled {
        var deadline: UInt64
        /// Set for a repeating wake: it is scheduled again this long after each deadline.
        var interval: UInt64?
        var queue: DispatchQueue
        var action: @Sendable () -> Void
        var wake: ClockWake
        /// Keeps wakes with one deadline in the order they were scheduled.
        var order: Int
    }

    private struct State {
        var now: UInt64
        var scheduled: [Scheduled] = []
        var nextOrder = 0
    }

    private let state: Mutex<State>

    /// Starts at `now` nanoseconds: an hour in by default, far from zero so no sum underflows.
    public init(now: UInt64 = 3_600_000_000_000) {
        state = Mutex(State(now: now))
    }

    public var now: UInt64 { state.withLock { $0.now } }

    @discardableResult
    public func wake(at deadline: UInt64, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) -> ClockWake {
        schedule(deadline: { _ in deadline }, interval: nil, queue: queue, action: action)
    }

    public func repeating(every interval: UInt64, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) -> ClockWake {
        schedule(deadline: { $0 + interval }, interval: interval, queue: queue, action: action)
    }

    /// How many wakes are scheduled and not cancelled.
    public var pendingWakes: Int {
        state.withLock { $0.scheduled.filter { !$0.wake.isCancelled }.count }
    }

    /// Moves time on by `nanoseconds`, running each wake that falls due on its queue at its deadline, one after the
    /// other: a wake an action schedules within the span runs too. Returns when the clock reads the new time and
    /// every action due has run.
    public func advance(by nanoseconds: UInt64) async {
        let target = now + nanoseconds
        while let due = takeNextDue(before: target) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                due.queue.async {
                    if !due.wake.isCancelled { due.action() }
                    done.resume()
                }
            }
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    private func schedule(deadline: (UInt64) -> UInt64, interval: UInt64?, queue: DispatchQueue,
                          action: @escaping @Sendable () -> Void) -> ClockWake {
        let wake = ClockWake()
        state.withLock { state in
            state.scheduled.append(Scheduled(deadline: deadline(state.now), interval: interval, queue: queue, action: action,
                                             wake: wake, order: state.nextOrder))
            state.nextOrder += 1
        }
        return wake
    }

    /// The earliest wake due by `target`, with the clock set to its deadline and a repeating wake scheduled again.
    private func takeNextDue(before target: UInt64) -> Scheduled? {
        state.withLock { state in
            state.scheduled.removeAll { $0.wake.isCancelled }
            guard let index = state.scheduled.indices.filter({ state.scheduled[$0].deadline <= target })
                .min(by: { (state.scheduled[$0].deadline, state.scheduled[$0].order) < (state.scheduled[$1].deadline, state.scheduled[$1].order) })
            else { return nil }
            let due = state.scheduled.remove(at: index)
            state.now = max(state.now, due.deadline)
            if let interval = due.interval {
                var next = due
                next.deadline += interval
                next.order = state.nextOrder
                state.nextOrder += 1
                state.scheduled.append(next)
            }
            return due
        }
    }
}
