import PageProtocol

/// What one phase of a run did, read from the trace alone: the work spans that began inside it, the threads they ran
/// on, and its hand-offs (`HandOffSpans`), of which a hop is one that ended on another thread than it began.
public struct PhaseSummary: Sendable, Equatable {
    public var phase: PhaseRecord
    /// The spans that began inside the phase and are not hand-offs, by their start.
    public var work: [Span]
    /// The hand-off spans that began inside the phase, by their start.
    public var handOffs: [Span]

    /// The threads that ran the phase's work, in the order they first did.
    public var threads: [Int32] {
        var seen: Set<Int32> = []
        return work.map(\.thread).filter { seen.insert($0).inserted }
    }

    /// The hand-offs that went to another thread: ended on another thread than the one where the result was ready.
    public var hops: [Span] {
        handOffs.filter { handOff in handOff.endThread.map { $0 != handOff.thread } ?? false }
    }

    /// The median time a hop took, from the result being ready to the next step taking it, in seconds; nil for none.
    public var medianHopSeconds: Double? {
        let lengths = hops.compactMap(\.duration).sorted()
        guard !lengths.isEmpty else { return nil }
        let middle = lengths.count / 2
        return lengths.count % 2 == 1 ? lengths[middle] : (lengths[middle - 1] + lengths[middle]) / 2
    }

    /// How long the phase ran, in seconds; nil while it runs.
    public var seconds: Double? { phase.end.map { Double($0 &- phase.start) / 1e9 } }

    /// "operations  1.52 s  5 threads  4 of 6 hand-offs hopped, median 310 µs": what the trace says of the
    /// phase, `length` seconds long so far, as the phase view's title and plain mode's summary write it.
    public func headline(length: Double, micro: String = "µ") -> String {
        let threads = threads.count
        let hops = hops.count
        // Short enough for a timeline pane at 120 columns: "task group  120.0 ms  2 threads  2 of 2 hand-offs
        // hopped, median 2.5 ms".
        let cost = medianHopSeconds.map { ", median \(DurationText.seconds($0, micro: micro))" } ?? ""
        return "\(phase.name)  \(DurationText.seconds(length, micro: micro))" + (phase.end == nil ? " so far" : "")
            + "  \(threads) \(threads == 1 ? "thread" : "threads")"
            + "  \(hops) of \(handOffs.count) \(handOffs.count == 1 ? "hand-off" : "hand-offs") hopped\(cost)"
    }
}

extension RunRecord {
    /// Each phase the page marked, with what ran in it: the spans that began between its start and its end (or, for
    /// a phase still running, since its start), whatever their thread. A page runs its phases one after another, so
    /// a span belongs to the phase it began in.
    public func phaseSummaries() -> [PhaseSummary] {
        let ordered = (spans + openSpans.values).sorted { $0.start != $1.start ? $0.start < $1.start : $0.id < $1.id }
        return phases.map { phase in
            let inside = ordered.filter { $0.start >= phase.start && $0.start < (phase.end ?? .max) }
            return PhaseSummary(phase: phase, work: inside.filter { !HandOffSpans.isHandOff($0.name) },
                                handOffs: inside.filter { HandOffSpans.isHandOff($0.name) })
        }
    }
}
