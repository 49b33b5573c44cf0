import Foundation

/// Folds the events of a run into a `RunRecord` as they arrive on the runner's threads.
public final class RunRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RunRecord
    private let observer: (@Sendable (HostEvent, RunRecord) -> Void)?

    /// `observer` sees each event with the record that includes it, one event at a time.
    public init(limits: RunRecord.Limits = RunRecord.Limits(), observer: (@Sendable (HostEvent, RunRecord) -> Void)? = nil) {
        stored = RunRecord(limits: limits)
        self.observer = observer
    }

    public func apply(_ event: HostEvent) {
        lock.withLock {
            stored.apply(event)
            observer?(event, stored)
        }
    }

    public var record: RunRecord { lock.withLock { stored } }
}
