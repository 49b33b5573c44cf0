import Foundation
import PageProtocol

/// Questions a prediction or a challenge's judge asks of a run: what an operation did and on which thread, which spans
/// it ran, how much work overlapped. Each reads what the record holds, never the run's printed text.
extension RunRecord {
    /// "0.42 s": a moment of the run, in seconds from its start, as a finding names it.
    public func timeText(at time: UInt64) -> String {
        String(format: "%.2f s", seconds(at: time))
    }

    /// The operations that reported under `name`, in the order they first reported; several objects may share a name.
    public func operations(named name: String) -> [OperationRecord] {
        operations.filter { $0.name == name }
    }

    /// The finished spans `operation` ran: those on the thread that reported it `executing`, begun after that and
    /// before it reported `finished` (or the run ended), except the span `ObservedOperation` itself draws for it.
    public func spans(ranBy operation: OperationRecord) -> [Span] {
        guard let executing = operation.firstChange(to: .executing) else { return [] }
        let finished = operation.firstTime(of: .finished) ?? UInt64.max
        return spans.filter {
            $0.thread == executing.thread && $0.start >= executing.time && $0.start <= finished
                && $0.end != nil && $0.name != operation.name
        }.sorted { $0.start < $1.start }
    }

    /// Whether `operation` waits for `dependency`, as the page reported it (`ObservedOperation.addDependency`).
    public func dependency(of operation: OperationRecord, on dependency: OperationRecord) -> Bool {
        dependencies.contains { $0.operation == operation.id && $0.dependsOn == dependency.id }
    }

    /// The most of `spans` that were open at one moment, the first moment that many were, and the spans open then;
    /// nil when none of them has ended. A span that ends at the instant another begins does not overlap it.
    public func mostAtOnce(_ spans: [Span]) -> (count: Int, since: UInt64, spans: [Span])? {
        let finished = spans.filter { $0.end != nil }
        guard !finished.isEmpty else { return nil }
        // Ends sort before starts at one instant, so touching spans are not counted together.
        let edges = finished.flatMap { [($0.start, 1), ($0.end!, -1)] }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        var open = 0, most = 0, since: UInt64 = 0
        for (time, change) in edges {
            open += change
            if open > most { most = open; since = time }
        }
        let atOnce = finished.filter { $0.start <= since && $0.end! > since }
        return (most, since, atOnce)
    }
}

extension OperationRecord {
    /// The first time the operation reported `state`, with the thread and queue it reported it from.
    public func firstChange(to state: OperationState) -> Change? {
        changes.first { $0.state == state }
    }

    /// Whether the operation ever reported `state`.
    public func reported(_ state: OperationState) -> Bool {
        firstChange(to: state) != nil
    }
}
