import Synchronization

/// A hold for tasks: `wait()` suspends the calling task, without blocking its thread, until someone calls `open()`.
///
/// Once open it stays open, so a task that arrives late passes at once. The page uses gates wherever it shows which of
/// two things happens first, so the order is the one it must be, never a lucky race.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        // Resumed outside the lock: a resumed task may come straight back to this gate.
        for continuation in waiting { continuation.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if passes { continuation.resume() }
        }
    }
}
