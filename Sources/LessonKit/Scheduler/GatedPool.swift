import Foundation

/// A pool of threads that tasks run on, as the cooperative pool is, but of a width fixed by the level, so the
/// starvation it shows happens alike on every machine (the cooperative pool is as wide as the machine's CPUs). It is a
/// real `TaskExecutor`: a level's task runs on it with `withTaskExecutorPreference`, and a task blocked in a
/// `semaphore.wait()` holds one of its threads, as it would hold one of the cooperative pool's.
///
/// Under the scheduler, the model knows which of the level's tasks are on a pool thread: from the step that lets one
/// start or go on after a suspension, to its next suspension or its end. A task that would need a thread while all
/// are held is blocked on the pool.
public final class GatedPool: @unchecked Sendable {
    public let name: String
    public let width: Int
    /// The tasks on a pool thread now, by number: under the run's lock.
    var running: [Int] = []
    unowned let run: LevelRun
    let executor: FixedWidthExecutor

    init(_ name: String, width: Int, run: LevelRun) {
        self.name = name
        self.width = width
        self.run = run
        executor = FixedWidthExecutor.shared(width: width)
    }

    /// Starts the level's thread `number` as a task that runs `body` on the pool. Its start is a step, blocked while
    /// every thread of the pool is held; until then it waits on the global executor, holding none of the pool's.
    public func task(_ number: Int, line: Int = #line, _ body: @escaping @Sendable () async -> Void) {
        run.condition.withLock { run.threads[number - 1].pool = self }
        run.task(number) { [self] in
            _ = await run.suspendingGate(.start, "start on \(name)", "start on \(name)", line: line) { _ in }
            await withTaskExecutorPreference(executor) { await body() }
        }
    }

    /// Under the run's lock: the pool is full for `thread`, which is not on it.
    func fullBlocker(for thread: Int) -> Blocker? {
        guard running.count >= width, !running.contains(thread) else { return nil }
        return Blocker(waitsFor: "a thread of \(name)", heldBy: running.first)
    }

    /// Under the run's lock.
    func enter(_ thread: Int) {
        guard !running.contains(thread) else { return }
        running.append(thread)
        run.take("a thread of \(name)", by: thread)
    }

    /// Under the run's lock.
    func leave(_ thread: Int) {
        guard let index = running.firstIndex(of: thread) else { return }
        running.remove(at: index)
        run.release("a thread of \(name)", by: thread)
    }
}

/// A `TaskExecutor` of a fixed number of threads, made once a width for the whole process: a search runs many
/// schedules, each joined before the next, and they share it.
final class FixedWidthExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private static let made = NSLock()
    nonisolated(unsafe) private static var byWidth: [Int: FixedWidthExecutor] = [:]

    static func shared(width: Int) -> FixedWidthExecutor {
        made.withLock {
            if let executor = byWidth[width] { return executor }
            let executor = FixedWidthExecutor(width: width)
            byWidth[width] = executor
            return executor
        }
    }

    private init(width: Int) {
        for number in 1...width {
            let thread = Thread { [unowned self] in work() }
            thread.name = "pool thread \(number)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
