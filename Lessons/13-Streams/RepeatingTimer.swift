import Dispatch
import LessonKit
import Synchronization

/// A `DispatchSourceTimer` on a serial queue of its own, wrapped so that a stream's `onTermination` handler, which
/// must be `@Sendable`, may stop it: Dispatch's timer sources are not `Sendable`, and a `Mutex` that owns one is.
final class RepeatingTimer: Sendable {
    let name: String
    private let interval: Double
    private let source = Mutex<(any DispatchSourceTimer)?>(nil)
    private let fired = Atomic<Int>(0)

    /// A timer named `name` (its queue's label) that fires every `interval` seconds at 1×, once started.
    init(_ name: String, every interval: Double) {
        self.name = name
        self.interval = interval
    }

    /// Starts the timer: `fire` is called with 1, 2, 3… on the timer's queue, one call at a time, until `stop()`.
    /// Stopping it marks "`name` stopped" on the timer's queue, where Dispatch runs a source's cancel handler.
    func start(_ fire: @escaping @Sendable (Int) -> Void) {
        let seconds = interval / Simulated.speed
        source.withLock { slot in
            // Made inside the lock, so the timer belongs to the mutex from the start.
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: name))
            timer.schedule(deadline: .now() + seconds, repeating: seconds, leeway: .nanoseconds(0))
            timer.setEventHandler { [self] in fire(fired.add(1, ordering: .relaxed).newValue) }
            timer.setCancelHandler { [name] in mark("\(name) stopped") }
            timer.resume()
            slot = timer
        }
    }

    /// Cancels the timer: no call of `fire` begins after this returns (one already running finishes).
    func stop() {
        source.withLock { $0?.cancel() }
    }
}
