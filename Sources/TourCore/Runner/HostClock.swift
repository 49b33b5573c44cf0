import Dispatch
import Synchronization
import PageProtocol

/// The clock the host reads where time decides what happens: when the watchdog calls a silent page hung, when the
/// interface draws its next frame and moves its clock on. `tour` runs on `SystemClock`; a test gives a clock whose
/// time it moves by hand (`TestClock` in TourTestSupport, as swift-clocks' `TestClock`), so those rules are tested
/// without waiting. Plain measurements (a trace's timestamps, a build's duration) read `monotonicNanoseconds()`.
public protocol HostClock: Sendable {
    /// Nanoseconds on the monotonic clock.
    var now: UInt64 { get }
    /// Runs `action` on `queue` once `now` has reached `deadline`, at once if it has, unless cancelled first.
    @discardableResult
    func wake(at deadline: UInt64, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) -> ClockWake
    /// Runs `action` on `queue` every `interval` nanoseconds from now, the first time one interval from now, until
    /// cancelled.
    func repeating(every interval: UInt64, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) -> ClockWake
}

/// A wake scheduled on a `HostClock`; `cancel()` keeps it from running (again).
public final class ClockWake: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let onCancel: (@Sendable () -> Void)?

    /// `onCancel` runs at the first `cancel()`.
    public init(onCancel: (@Sendable () -> Void)? = nil) {
        self.onCancel = onCancel
    }

    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onCancel?()
    }
}

/// `CLOCK_MONOTONIC` (`monotonicNanoseconds()`), with dispatch's timers to wake on.
public struct SystemClock: HostClock {
    public init() {}

    public var now: UInt64 { monotonicNanoseconds() }

    @discardableResult
    public func wake(at deadline: UInt64, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) -> ClockWake {
        let wake = ClockWake()
        let now = self.now
        queue.asyncAfter(deadline: .now() + .nanoseconds(deadline > now ? Int(deadline - now) : 0)) {
            if !wake.isCancelled { action() }
        }
        return wake
    }

    public func repeating(every interval: UInt64, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) -> ClockWake {
        // Dispatch sources are thread-safe, though not marked Sendable: the wake may be cancelled from any thread.
        nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: queue)
        let step = DispatchTimeInterval.nanoseconds(Int(interval))
        timer.schedule(deadline: .now() + step, repeating: step, leeway: .milliseconds(10))
        timer.setEventHandler(handler: action)
        timer.resume()
        return ClockWake { timer.cancel() }
    }
}
