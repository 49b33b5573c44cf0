/// A hold for tasks: `wait()` suspends the calling task, without blocking its thread, until someone calls `open()`.
///
/// Once open it stays open, so a task that arrives late passes at once. Pages use gates wherever they show which of
/// two things happens first, so the order is the one it must be, never a lucky race. A gate made `announcing` another
/// opens that one as each task arrives at it, so a page can wait until a task has reached its `await`.
///
/// It locks with a pthread mutex (`SanitizerVisibleLock`), not `Synchronization.Mutex`, so a page run under Thread
/// Sanitizer gets no false race report from its holds.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = SanitizerVisibleLock(State())
    private let announced: Gate?

    public init(announcing announced: Gate? = nil) {
        self.announced = announced
    }

    /// Opens the gate: every task waiting goes on, and every later `wait()` returns at once.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        // Resumed outside the lock: a resumed task may come straight back to this gate.
        for continuation in waiting { continuation.resume() }
    }

    /// Suspends until the gate is open (at once if it is), after opening the gate it announces to, if any.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            announced?.open()
            if passes { continuation.resume() }
        }
    }
}
