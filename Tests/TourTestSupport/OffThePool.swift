import Foundation
import Synchronization
import Testing

/// A trait for tests that compute for a long time (a million events, thousands of random graphs, a photo scaled):
/// each test it applies to runs on a thread of its own that such tests share, not on the cooperative pool.
///
/// Swift Testing runs every test on the pool, as wide as the cores, and reports a test only when the pool comes back
/// to it after the test's body returned. A test that computes on the pool for a second holds one of the two threads
/// that every other test, and every report, waits for: in the suite's first seconds, the million-event streams ran
/// on the pool before any test had been reported, even though they yield every 10,000 events. On this thread their
/// work, yields and expectations included, takes turns with the other computing tests and leaves the pool to the
/// rest; the test itself is unchanged. For computing only: a test that waits for a process or a file awaits it.
public struct ComputesOffThePool: TestTrait, SuiteTrait, TestScoping {
    /// Every test of a suite marked with it runs on the thread, each on its own.
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void)
        async throws {
        // A task of its own that prefers the thread, so that its very first job is enqueued there. With
        // `withTaskExecutorPreference` around the body, the body began on the pool thread that called it, and in one
        // run of the whole suite of four it stayed there past its first yield. The new task inherits the test's task-local
        // values, so what the body records still belongs to the test; it is awaited to its end, so the body never
        // outlives this scope.
        try await withoutActuallyEscaping(function) { body in
            try await Task(executorPreference: ComputingThread.shared) { try await body() }.value
        }
    }
}

extension Trait where Self == ComputesOffThePool {
    /// The test computes for long and runs off the cooperative pool (`ComputesOffThePool`).
    public static var computesOffThePool: Self { Self() }
}

/// The one thread the computing tests share, as a task executor: it runs their jobs in the order they came.
final class ComputingThread: TaskExecutor {
    static let shared = ComputingThread()

    private let jobs = Mutex<[UnownedJob]>([])
    /// Counts the jobs not yet taken: the thread waits on it when there is none (this thread is no test's).
    private let waiting = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            // Named from inside: on Linux a name given before `start()` does not reach the system's thread.
            Thread.current.name = "test-computing"
            while true {
                waiting.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }
}
