import Synchronization

/// Folds the events of a run into a `RunRecord` as they arrive on the runner's threads.
public final class RunRecorder: Sendable {
    private let stored: Mutex<RunRecord>
    private let observer: (@Sendable (HostEvent, borrowing RunRecord) -> Void)?

    /// `observer` sees each event with the record that includes it, one event at a time. It borrows the record
    /// under the recorder's lock: keeping it would copy it, and the record is large.
    public init(limits: RunRecord.Limits = RunRecord.Limits(), observer: (@Sendable (HostEvent, borrowing RunRecord) -> Void)? = nil) {
        stored = Mutex(RunRecord(limits: limits))
        self.observer = observer
    }

    public func apply(_ event: HostEvent) {
        stored.withLock { record in
            record.apply(event)
            observer?(event, record)
        }
    }

    public var record: RunRecord { stored.withLock { $0 } }
}
