import Foundation
import PageProtocol

/// A level: what `--describe` prints, and its body, called once a run with a fresh `LevelRun`: it makes the run's
/// state, starts the threads, and returns the check the run's end is judged by (nil when it held).
public struct Level: Sendable {
    public let description: LevelDescription
    public let body: @Sendable (LevelRun) -> @Sendable () -> LevelFailure?

    public init(_ description: LevelDescription, body: @escaping @Sendable (LevelRun) -> @Sendable () -> LevelFailure?) {
        self.description = description
        self.body = body
    }
}

/// Drives one controlled run of a level, a step at a time: waits for every thread to park or finish, tells which can
/// step, lets one go, and at the end joins the threads and judges the run.
final class LevelDriver {
    /// How long a thread let go may take to reach its next gate or its end before the watchdog names it.
    static let watchdogSeconds = 2.0

    let run: LevelRun
    private let check: @Sendable () -> LevelFailure?
    private(set) var failure: LevelFailure?
    private(set) var ended = false
    private(set) var lastStepped: Int?
    /// Where the thread last let go was then, in words ("since it was let go at line 14 (load count)"), for the watchdog.
    private var lastLetGoFrom: String?
    /// The run as it stood when a failure ended it, before `drain` let the threads through: a deadlock is shown with its
    /// threads blocked and holding their locks, as the wait-for graph says, not as the drain leaves them.
    private var stateAtFailure: PlayState?
    /// Set when a thread did not reach a gate in time: it still runs, unjoinable, so the process must end soon.
    private(set) var runaway: String?

    /// `beforeTrap`, given in play, is told of a crash the level is about to really make (see `LevelRun.beforeTrap`).
    init(_ level: Level, fixed: Bool, beforeTrap: ((LevelDriver, LevelFailure) -> Void)? = nil) {
        let run = LevelRun(names: level.description.threads, controlled: true, fixed: fixed)
        self.run = run
        // Before the body, whose threads may print from their start.
        LevelRun.madeInThisProcess.store(true, ordering: .releasing)
        LevelRun.current.withLock { $0 = run }
        check = level.body(run)
        // Set before any step, which is when a gate could trap.
        if let beforeTrap {
            run.beforeTrap = { [unowned self] crash in beforeTrap(self, crash) }
        }
        settle()
    }

    deinit {
        LevelRun.current.withLock { current in
            if current === run { current = nil }
        }
    }

    /// The threads that can take their next step now, by number.
    var enabled: [Int] {
        run.condition.lock()
        defer { run.condition.unlock() }
        return enabledLocked
    }

    private var enabledLocked: [Int] {
        run.threads.indices.filter { run.threads[$0].state == .parked && run.threads[$0].pending?.blocker() == nil }.map { $0 + 1 }
    }

    var steps: [LevelStep] {
        run.condition.lock()
        defer { run.condition.unlock() }
        return run.steps
    }

    /// Lets `thread` take its step, then waits until every thread is parked or finished again, and ends the run if it
    /// is over. The caller offers only enabled threads.
    func step(_ thread: Int) {
        run.condition.lock()
        precondition(enabledLocked.contains(thread), "T\(thread) was offered a step it cannot take")
        let record = run.threads[thread - 1]
        run.steps.append(LevelStep(thread: thread, action: record.pending?.action ?? "step", kind: record.pending?.kind))
        lastLetGoFrom = record.pending.map { "since it was let go at line \($0.line) (\($0.action))" }
        run.threads[thread - 1].state = .running
        run.threads[thread - 1].pending = nil
        run.threads[thread - 1].resumeTask = nil
        run.condition.unlock()
        lastStepped = thread
        run.wake(record)
        settle()
    }

    /// Waits for the threads to park or finish; then ends the run when every thread finished, when a thread reported
    /// a failure, or when threads are alive and none can step (a deadlock).
    private func settle() {
        if let stuck = awaitThreads(until: { $0 == .parked || $0 == .finished }) {
            let since = stuck == lastStepped ? lastLetGoFrom : "since it started"
            runaway = "\(run.names[stuck - 1]) has not reached a gate in \(Int(Self.watchdogSeconds)) s\(since.map { " " + $0 } ?? ""): "
                + "an endless loop between gates?"
            failure = LevelFailure(kind: .assertion, message: runaway!)
            ended = true
            return
        }
        run.condition.lock()
        if let reported = run.reportedFailure {
            failure = reported
        } else if run.threads.allSatisfy({ $0.state == .finished }) {
            run.condition.unlock()
            ended = true
            failure = check()
            return
        } else if enabledLocked.isEmpty {
            failure = deadlockLocked()
        } else {
            run.condition.unlock()
            return
        }
        run.condition.unlock()
        ended = true
        stateAtFailure = state()
        drain()
    }

    /// The failure of a run where threads are alive and none can step, with its wait-for graph.
    private func deadlockLocked() -> LevelFailure {
        var edges: [WaitForEdge] = []
        for (index, thread) in run.threads.enumerated() where thread.state == .parked {
            guard let blocker = thread.pending?.blocker() else { continue }
            edges.append(WaitForEdge(thread: index + 1, holds: thread.holds, waitsFor: blocker.waitsFor, heldBy: blocker.heldBy))
        }
        // The edges are the explanation; the message says only what the condition is.
        return LevelFailure(kind: .deadlock, message: "\(edges.count) threads alive and none can step", waitFor: edges)
    }

    /// Ends the run early: every gate now lets its thread through without a step, so the threads run to their ends,
    /// and are joined here.
    func drain() {
        run.condition.lock()
        run.draining = true
        let parked = run.threads.filter { $0.state == .parked }
        for index in run.threads.indices { run.threads[index].resumeTask = nil }
        run.condition.unlock()
        for thread in parked { run.wake(thread) }
        if let stuck = awaitThreads(until: { $0 == .finished }) {
            runaway = "T\(stuck) has not reached its end in \(Int(Self.watchdogSeconds)) s after the run ended: an endless loop?"
        }
    }

    /// Waits until every thread's state passes `arrived`; the first thread that does not within the watchdog's time.
    private func awaitThreads(until arrived: (GatedThread.State) -> Bool) -> Int? {
        let deadline = Date(timeIntervalSinceNow: Self.watchdogSeconds)
        run.condition.lock()
        defer { run.condition.unlock() }
        while run.threads.contains(where: { !arrived($0.state) }) {
            if !run.condition.wait(until: deadline) {
                return run.threads.firstIndex(where: { !arrived($0.state) }).map { $0 + 1 }
            }
        }
        return nil
    }

    /// The run as play shows it.
    /// `crash`, when given, is a crash about to happen: the state is the run's end with it.
    func state(refusal: String? = nil, crash: LevelFailure? = nil) -> PlayState {
        if crash == nil, var frozen = stateAtFailure {
            frozen.refusal = refusal
            return frozen
        }
        run.condition.lock()
        defer { run.condition.unlock() }
        let threads = run.threads.enumerated().map { index, thread -> LevelThreadState in
            let blocker = thread.state == .parked ? thread.pending?.blocker() : nil
            let status: LevelThreadState.Status = thread.state == .finished ? .finished
                : (blocker == nil && thread.state == .parked ? .enabled : .blocked)
            return LevelThreadState(id: index + 1, name: run.names[index], status: status, line: thread.pending?.line,
                                    next: thread.pending?.action, blockedOn: blocker?.waitsFor, holds: thread.holds)
        }
        let shared = run.sharedValues.map { SharedValueState(name: $0.name, value: $0.value()) }
        return PlayState(threads: threads, shared: shared, steps: run.steps, ended: ended || crash != nil, failure: crash ?? failure,
                         refusal: refusal, ungated: run.ungated.isEmpty ? nil : run.ungated)
    }
}
