import Synchronization

/// A hold for tasks: `pass()` suspends the calling task until someone calls `open()` (at once if that already
/// happened), so the page orders its steps by what happened, never by timing. A gate made `announcing` another opens
/// that one as a task arrives at it, so the page can wait until a task has reached its `await`.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let announced: Gate?

    init(announcing announced: Gate? = nil) {
        self.announced = announced
    }

    /// Suspends until the gate is open.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openAlready = state.withLock { state in
                if state.isOpen { return true }
                state.waiting.append(continuation)
                return false
            }
            announced?.open()
            if openAlready { continuation.resume() }
        }
    }

    /// Opens the gate: every task waiting goes on, and every later `pass()` returns at once.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
