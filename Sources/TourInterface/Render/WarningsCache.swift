import Foundation
import TourCore

/// The current run's warnings (`TraceWarnings.of`), worked out once per change of the record rather than once per
/// frame: their cost grows with the run, a frame's should not. One per model, in its `RenderCaches`.
final class WarningsCache: @unchecked Sendable {
    /// What tells one state of one record from another: the run (its start and process) and how much it has folded.
    private struct Key: Equatable {
        var startTime: UInt64?
        var pid: Int32?
        var foldCount: Int
        var cores: Int?
    }

    private let lock = NSLock()
    private var key: Key?
    private var warnings: [TraceWarning] = []

    /// `TraceWarnings.of(record, cores:)`, from the last time it was asked if the record has not changed since.
    func warnings(of record: RunRecord, cores: Int?) -> [TraceWarning] {
        let current = Key(startTime: record.startTime, pid: record.pid, foldCount: record.foldCount, cores: cores)
        return lock.withLock {
            if key != current {
                warnings = TraceWarnings.of(record, cores: cores)
                key = current
            }
            return warnings
        }
    }
}
