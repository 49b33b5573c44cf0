import PageProtocol

/// A problem the trace shows beyond doubt, in words, pointing at the lane and the moment it concerns.
public struct TraceWarning: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The main thread sat off the processor inside its own traced work, sending nothing, for over 100 ms.
        case mainThreadBlocked
        /// More of the page's threads running or ready to run than the machine has cores.
        case oversubscribed
        /// An operation ran to its end although a dependency had been cancelled before it started.
        case ranAfterCancelledDependency
        /// Operations that wait for each other, so none of them can ever start.
        case dependencyCycle
        /// An operation, or a traced span, still unfinished when the run ended.
        case neverFinished
    }

    public var kind: Kind
    /// The thread whose lane it points at.
    public var thread: Int32
    /// The operation it concerns, for the operations view.
    public var operation: Int?
    /// The moment it points at.
    public var time: UInt64
    /// What happened, in a sentence that names the lane, the work and the figures.
    public var sentence: String
    /// Why the page expects it, when its prose does (a hang on purpose, a batch wider than the cores); nil otherwise.
    public var expected: String?
}

/// The warnings a run raises: pure questions of its record, each asked only where the trace can answer it without a
/// false alarm. A thread blocked in `sync` while every pool thread is busy is not among them: the trace names no
/// `sync` call and shows only the pool threads that traced something, never the pool's size.
public enum TraceWarnings {
    /// The main thread must stay off the processor longer than this for a block to count.
    public static let mainThreadBlock: UInt64 = 100_000_000
    /// More threads than cores must be running at least this long to count: a quarter of a second, so neither one
    /// sample taken as a thread woke nor the brief overlap of a page's start (page 7 measured 90 ms of three threads
    /// while its main thread still loaded photos) raises it; what remains is threads taking turns for a stretch one sees.
    public static let oversubscription: UInt64 = 250_000_000
    /// How many cores' worth of processor time below the cores the page's threads may have used over such a
    /// stretch and still be taking turns among themselves. `R` in `/proc` is running *or waiting for a core*: on a
    /// machine other programs keep busy, threads that would each have a core sit runnable for long, and page 7's
    /// default run was once warned of "3 threads running on 2 cores" at load 12–15. Threads that take turns among
    /// themselves keep the cores busy; threads that used less than this left them to someone else.
    public static let oversubscriptionSlack = 0.5

    /// What the eight pages expect by their prose, by the executable's name (`hello`'s `page`).
    static let expectedByPage: [String: [TraceWarning.Kind: String]] = [
        "Lesson02Queue": [.oversubscribed: "the page runs a batch at twice the cores on purpose"],
    ]

    /// Every warning `record` raises so far, in order of time. `cores` is the machine's, read when the run started;
    /// nil leaves oversubscription unjudged. Unfinished work is judged only once the run has ended.
    public static func of(_ record: RunRecord, cores: Int?) -> [TraceWarning] {
        var warnings = mainThreadBlocks(record)
        if let cores { warnings += oversubscription(record, cores: cores) }
        warnings += ranAfterCancelledDependency(record)
        warnings += dependencyCycle(record)
        warnings += neverFinished(record)
        let pageExpects = record.page.flatMap { expectedByPage[$0] } ?? [:]
        for index in warnings.indices {
            warnings[index].expected = pageExpects[warnings[index].kind] ?? expectedByEnding(record, warnings[index].kind)
        }
        return warnings.sorted { ($0.time, $0.kind.rawValue) < ($1.time, $1.kind.rawValue) }
    }

    /// A page that said it will hang or crash expects what that leaves behind; its own reason says why.
    private static func expectedByEnding(_ record: RunRecord, _ kind: TraceWarning.Kind) -> String? {
        guard let expectation = record.expectation else { return nil }
        switch (expectation.ending, kind) {
        case (.stuck, .neverFinished), (.stuck, .dependencyCycle), (.stuck, .mainThreadBlocked), (.crash, .neverFinished):
            return expectation.reason
        default:
            return nil
        }
    }

    private static func text(_ nanoseconds: UInt64) -> String {
        DurationText.seconds(Double(nanoseconds) / 1e9)
    }

    // MARK: The main thread blocked

    /// Stretches where the sampler saw the main thread waiting, inside a span of its own that was open throughout, with
    /// no event from the main thread and no other thread of the page working (in a span or an executing operation): it
    /// was in the middle of traced work and neither did anything nor waited for the page's own work. A main thread idle
    /// in a run loop or `dispatchMain()` is outside any span; one turning a run loop inside a span sends the events its
    /// timers and blocks send (page 3's ticks), which break the stretch; one waiting for its queues' work
    /// (`waitUntilAllOperationsAreFinished`, a group's `wait()`) is a command-line page's way to end, not a freeze.
    static func mainThreadBlocks(_ record: RunRecord) -> [TraceWarning] {
        guard let main = record.threads.first(where: \.isMain)?.thread, let states = record.threadStates[main] else { return [] }
        let reached = record.endTime ?? states.last?.end ?? 0
        let allSpans = record.spans + record.openSpans.values
        let spans = allSpans.filter { $0.thread == main }
        var signs = spans.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) }
        signs += record.marks.filter { $0.thread == main }.map(\.time)
        signs += record.output.filter { $0.thread == main }.map(\.time)
        signs.sort()
        var working = allSpans.filter { $0.thread != main }.map { (start: $0.start, end: $0.end ?? reached) }
        working += record.operations.compactMap { operation in
            operation.firstTime(of: .executing).map { (start: $0, end: operation.firstTime(of: .finished) ?? reached) }
        }

        let busy = joined(working)
        var warnings: [TraceWarning] = []
        // The times the main thread waited while no one else worked, then each cut at the main thread's signs of life.
        for free in subtracting(busy, from: mergedWaiting(states)) {
            var from = free.start
            var low = 0, high = signs.count
            while low < high { let middle = (low + high) / 2; if signs[middle] > free.start { high = middle } else { low = middle + 1 } }
            let first = low
            for cut in signs[first...].prefix(while: { $0 < free.end }) + [free.end] {
                defer { from = cut }
                guard cut - from > mainThreadBlock,
                      // The innermost span open over the whole silence: the work the main thread was in the middle of.
                      let span = spans.filter({ $0.start <= from && ($0.end ?? reached) >= cut }).max(by: { $0.start < $1.start })
                else { continue }
                warnings.append(TraceWarning(kind: .mainThreadBlocked, thread: main, operation: nil, time: from,
                    sentence: "main was blocked for \(text(cut - from)) inside \(span.name) from \(record.timeText(at: from)), "
                        + "with no other thread of the page working: an app's interface would freeze that long", expected: nil))
            }
        }
        return warnings
    }

    /// `intervals` sorted and joined where they overlap or touch.
    private static func joined(_ intervals: [(start: UInt64, end: UInt64)]) -> [(start: UInt64, end: UInt64)] {
        var merged: [(start: UInt64, end: UInt64)] = []
        for interval in intervals.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, last.end >= interval.start {
                merged[merged.count - 1].end = max(last.end, interval.end)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// What of `intervals` (sorted, disjoint) lies outside `removed` (sorted, disjoint).
    private static func subtracting(_ removed: [(start: UInt64, end: UInt64)],
                                    from intervals: [(start: UInt64, end: UInt64)]) -> [(start: UInt64, end: UInt64)] {
        var result: [(start: UInt64, end: UInt64)] = []
        var next = 0
        for interval in intervals {
            var start = interval.start
            while next < removed.count, removed[next].end <= start { next += 1 }
            var index = next
            while index < removed.count, removed[index].start < interval.end {
                if removed[index].start > start { result.append((start, removed[index].start)) }
                start = max(start, removed[index].end)
                index += 1
            }
            if start < interval.end { result.append((start, interval.end)) }
        }
        return result
    }

    /// A thread's waiting stretches, with neighbours joined.
    private static func mergedWaiting(_ states: [ThreadStateStretch]) -> [(start: UInt64, end: UInt64)] {
        joined(states.filter { $0.state == .waiting }.map { ($0.start, $0.end) })
    }

    // MARK: Oversubscription

    /// The stretches where more of the page's threads were running than there are cores, at least
    /// `oversubscription` long, as one warning: the first of them, with how many there were and the most at once.
    static func oversubscription(_ record: RunRecord, cores: Int) -> [TraceWarning] {
        // +1 where a thread starts running, -1 where it stops; at one instant stops come first.
        var steps: [(time: UInt64, change: Int, thread: Int32)] = []
        for (thread, stretches) in record.threadStates {
            for stretch in stretches where stretch.state == .running && stretch.end > stretch.start {
                steps.append((stretch.start, 1, thread))
                steps.append((stretch.end, -1, thread))
            }
        }
        steps.sort { ($0.time, $0.change, $0.thread) < ($1.time, $1.change, $1.thread) }
        var running = 0
        var over: (start: UInt64, thread: Int32, most: Int)?
        var stretches: [(start: UInt64, end: UInt64, thread: Int32, most: Int)] = []
        for step in steps {
            running += step.change
            if running > cores {
                if over == nil { over = (step.time, step.thread, running) } else { over!.most = max(over!.most, running) }
            } else if let begun = over {
                if step.time - begun.start >= oversubscription,
                   keptTheCoresBusy(record, from: begun.start, to: step.time, cores: cores) {
                    stretches.append((begun.start, step.time, begun.thread, begun.most))
                }
                over = nil
            }
        }
        guard let first = stretches.first else { return [] }
        let most = stretches.map(\.most).max() ?? first.most
        let total = stretches.reduce(UInt64(0)) { $0 + ($1.end - $1.start) }
        let coreWords = cores == 1 ? "1 core" : "\(cores) cores"
        let more = stretches.count == 1 ? "" : "; \(stretches.count) such stretches, \(text(total)) in all, up to \(most) at once"
        return [TraceWarning(kind: .oversubscribed, thread: first.thread, operation: nil, time: first.start,
            sentence: "\(first.most) threads were running on \(coreWords) for \(text(first.end - first.start)) from "
                + "\(record.timeText(at: first.start))\(more): they took turns, none went faster", expected: nil)]
    }

    /// Whether the page's running threads used at least the cores, less `oversubscriptionSlack`, of processor time
    /// from `start` to `end`, each running stretch counted for the share of it inside; true where a stretch's samples
    /// carry no processor time, so such a record is judged by the states alone.
    static func keptTheCoresBusy(_ record: RunRecord, from start: UInt64, to end: UInt64, cores: Int) -> Bool {
        var used = 0.0
        for stretches in record.threadStates.values {
            for stretch in stretches where stretch.state == .running && stretch.end > stretch.start
                && stretch.end > start && stretch.start < end {
                guard let cpu = stretch.cpuNanoseconds else { return true }
                let inside = min(stretch.end, end) - max(stretch.start, start)
                used += Double(cpu) * Double(inside) / Double(stretch.end - stretch.start)
            }
        }
        return used >= (Double(cores) - oversubscriptionSlack) * Double(end - start)
    }

    // MARK: Operations

    /// Operations that executed and finished without being cancelled themselves, although a dependency had been
    /// cancelled before they executed: they did their work without the input the dependency was to provide.
    static func ranAfterCancelledDependency(_ record: RunRecord) -> [TraceWarning] {
        let analysis = OperationAnalysis(record)
        return analysis.lives.compactMap { life in
            guard let executing = life.executing, life.cancelled == nil,
                  let executingChange = life.operation.changes.first(where: { $0.state == .executing }) else { return nil }
            let cancelled = life.dependencies.compactMap(analysis.life(of:)).filter { ($0.cancelled ?? .max) <= executing }
            guard let dependency = cancelled.first else { return nil }
            return TraceWarning(kind: .ranAfterCancelledDependency, thread: executingChange.thread, operation: life.operation.id,
                time: executing, sentence: "\(life.operation.name) ran at \(record.timeText(at: executing)) although its dependency "
                    + "\(dependency.operation.name) was cancelled: a cancelled dependency releases its dependents, which must check",
                expected: nil)
        }
    }

    /// A cycle among the dependencies of unfinished operations: none of them can ever become ready.
    static func dependencyCycle(_ record: RunRecord) -> [TraceWarning] {
        let cycle = record.dependencyCycleIDs()
        guard let first = cycle.first else { return [] }
        let edges = Set(zip(cycle, cycle.dropFirst()).map { "\($0.0)>\($0.1)" })
        let closing = record.dependencies.filter { edges.contains("\($0.operation)>\($0.dependsOn)") }.max { $0.time < $1.time }
        let analysis = OperationAnalysis(record)
        let names = cycle.map(analysis.name).joined(separator: " → ")
        return [TraceWarning(kind: .dependencyCycle, thread: closing?.thread ?? record.pid ?? 0,
            operation: first, time: closing?.time ?? record.startTime ?? 0,
            sentence: "a dependency cycle: \(names); none of them can ever become ready", expected: nil)]
    }

    /// Once the run has ended: operations that reported a state and never finished, and spans that never ended.
    static func neverFinished(_ record: RunRecord) -> [TraceWarning] {
        guard let end = record.endTime else { return [] }
        var warnings = record.operations.filter { $0.firstTime(of: .finished) == nil }.map { operation in
            let last = operation.changes.last!
            return TraceWarning(kind: .neverFinished, thread: last.thread, operation: operation.id, time: last.time,
                sentence: "\(operation.name) never finished: it was \(last.state.rawValue) from \(record.timeText(at: last.time)) "
                    + "to the end of the run at \(record.timeText(at: end))", expected: nil)
        }
        // ObservedOperation's own span ends with its operation, so only spans no operation stands for are added.
        let unfinishedOperations = Set(record.operations.filter { $0.firstTime(of: .finished) == nil }.map(\.name))
        warnings += record.spansOpenAtEnd.filter { !unfinishedOperations.contains($0.name) }.map { span in
            TraceWarning(kind: .neverFinished, thread: span.thread, operation: nil, time: span.start,
                sentence: "\(span.name) on \(record.laneName(of: span.thread)) began at \(record.timeText(at: span.start)) and never "
                    + "ended: the run ended inside it at \(record.timeText(at: end))", expected: nil)
        }
        return warnings
    }
}

extension TraceWarning {
    /// The sentence, with "(expected: why)" when the page expects it.
    public var text: String {
        expected.map { "\(sentence) (expected: \($0))" } ?? sentence
    }
}
