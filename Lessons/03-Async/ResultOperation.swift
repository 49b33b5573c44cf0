import Foundation
import LessonKit
import Synchronization

/// An asynchronous operation that finishes with a typed `Result`, and hands it to `onResult` the moment it is known.
///
/// Subclasses call `finish(with:)` from their work's callback. `cancel(with:)` cancels with a reason, which then
/// becomes the result, whatever the stopped work reports.
class ResultOperation<Success: Sendable, Failure: Error>: AsyncOperation, @unchecked Sendable {
    private struct Outcome {
        var result: Result<Success, Failure>?
        var cancellationReason: Failure?
    }

    private let outcome = Mutex(Outcome())
    var onResult: (@Sendable (Result<Success, Failure>) -> Void)?

    /// Finishes with `result`, unless the operation was cancelled with a reason, which then wins. Only the first call counts.
    func finish(with result: Result<Success, Failure>) {
        let delivered: Result<Success, Failure>? = outcome.withLock { outcome in
            guard case .none = outcome.result else { return nil }
            outcome.result = outcome.cancellationReason.map { .failure($0) } ?? result
            return outcome.result
        }
        guard let delivered else { return }
        onResult?(delivered)
        finish()
    }

    func cancel(with reason: Failure) {
        outcome.withLock { $0.cancellationReason = $0.cancellationReason ?? reason }
        cancel()
    }

    override func start() {
        // Cancelled before it began: finish with the reason now, since no work will report back.
        if isCancelled, let reason = outcome.withLock({ $0.cancellationReason }) {
            finish(with: .failure(reason))
        }
        super.start()
    }
}
