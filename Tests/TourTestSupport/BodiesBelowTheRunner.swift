import Testing
import Synchronization

/// Runs each test's body as a task of lower priority (`.utility`) than Swift Testing's own, so that a test's end is
/// reported as soon as its body returns, not after the first slice of every other test's body.
///
/// Why: on Linux the Swift runtime gives each task priority a dispatch queue of its own, as wide as the cores
/// (`DispatchGlobalExecutor.cpp`, `getGlobalQueue`). Swift Testing starts every test at once, so a thousand bodies
/// queue on the runner's queue, and the job that posts a test's end joins that queue behind all of them: no test was
/// reported until the pool had run the start of every test (about a second on two cores). With the bodies on a queue
/// of their own, the runner's queue holds only its own short jobs. The body is an unstructured task awaited through a
/// continuation, because a child task, or `await task.value`, would raise it back to the runner's priority; it keeps
/// the test's task-local values (so its expectations are recorded against it) and is cancelled with the test.
///
/// Every suite carries it (`EverySuiteTests` checks); a suite nested in one that already does runs its bodies
/// directly, since they are below the runner already. The threads of the `.utility` queue run at nice 2, and what a
/// body starts (threads, pages, builds) inherits that, alike for every test, so tests still share the cores as before.
public struct BodiesBelowTheRunner: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Whether the current task is already a body run below the runner.
    @TaskLocal private static var isBelow = false

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil, !Self.isBelow else { return try await function() }
        try await withoutActuallyEscaping(function) { body in
            let handOver = HandOver(body)
            let runner = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let task = Task(priority: .utility) {
                        await Self.$isBelow.withValue(true) {
                            continuation.resume(with: await handOver.run())
                        }
                    }
                    let cancelled = runner.withLock { runner in
                        runner.task = task
                        return runner.cancelled
                    }
                    if cancelled { task.cancel() }
                }
            } onCancel: {
                runner.withLock { runner in
                    runner.cancelled = true
                    runner.task?.cancel()
                }
            }
        }
    }
}

/// The body, handed to the task that runs it and let go before the test is told it returned:
/// `withoutActuallyEscaping` checks that nothing holds the closure once its scope ends.
private final class HandOver: Sendable {
    private let body: Mutex<(@Sendable () async throws -> Void)?>

    init(_ body: @escaping @Sendable () async throws -> Void) {
        self.body = Mutex(body)
    }

    func run() async -> Result<Void, any Error> {
        var body = self.body.withLock { $0.take() }
        let result: Result<Void, any Error>
        do {
            try await body!()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        body = nil
        return result
    }
}

extension Trait where Self == BodiesBelowTheRunner {
    /// Runs the suite's test bodies below Swift Testing's runner, so each test is reported when it ends
    /// (`BodiesBelowTheRunner`).
    public static var bodiesBelowTheRunner: Self { Self() }
}
