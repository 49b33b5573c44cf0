import PageProtocol

extension PageExercises {
    /// Page 1: where a completion block runs, and a filter that stops at its next look at `isCancelled`.
    static let operation = PageExercises(
        page: "operation",
        prediction: Prediction(
            id: "completion-block-thread",
            question: "The page calls start() on the operation \"filter coffee\" from the main thread. Which thread runs its completion block?",
            choices: [
                .init(key: "a", text: "main: the thread that called start() runs it, as soon as main() returns"),
                .init(key: "b", text: "a pool thread: Foundation hands it to a global Dispatch queue once the operation is finished"),
                .init(key: "c", text: "a new thread of its own, made just for the completion block"),
            ],
            observe: OperationExercises.completionBlockThread
        ),
        challenge: Challenge(
            id: "stop-within-one-band",
            title: "Stop a cancelled filter within one band",
            task: "The banded filter never looks at isCancelled, so a cancel sent while band 1 works lets all eight bands run. Make main() check isCancelled, so that no band begins after the cancel and the operation finishes.",
            folder: "01-Operation",
            hints: [
                "cancel() only sets a flag. Where in main() could the loop look at it before it starts more work?",
                "Look once per band, before the band's trace(\"band \\(band)\") span begins, not inside it: a check inside still begins the band.",
                "First line of the loop body: guard !isCancelled else { return }. Returning from main() is what lets Foundation mark the operation finished.",
            ],
            judge: OperationExercises.judgeBandedFilter
        )
    )
}

/// The readings behind page 1's exercises.
enum OperationExercises {
    /// The operation the challenge's program runs, as the header of its file names it.
    static let filterName = "banded filter"

    /// Reads where the completion block of "filter coffee" ran: the page marks "completion block" inside it.
    @Sendable static func completionBlockThread(in record: RunRecord) -> Prediction.Observation {
        guard let mark = record.marks.first(where: { $0.name == "completion block" }) else {
            return .init(rightChoice: nil, happened: "this run ended before the completion block ran, so it cannot tell")
        }
        let finished = record.operation(named: "filter coffee")?.firstTime(of: .finished)
        let after = finished.map { " \(DurationText.seconds(Double(mark.time &- $0) / 1e9)) after the operation finished" } ?? ""
        let queue = mark.queue.isEmpty ? "no queue" : "the queue \(mark.queue)"
        let choice: String
        if mark.thread == record.pid {
            choice = "a"
        } else if record.isPoolThread(mark.thread) {
            choice = "b"
        } else {
            choice = "c"
        }
        return .init(rightChoice: choice, happened: "it ran on \(record.threadDescription(mark.thread)), on \(queue),\(after)")
    }

    /// Judges the banded filter: it ran bands inside the operation, the cancel landed while one worked, no band began
    /// after it, and the operation finished.
    @Sendable static func judgeBandedFilter(_ record: RunRecord) -> [CheckFinding] {
        guard let operation = record.operation(named: filterName) else {
            return [CheckFinding(holds: false, "no operation named \"\(filterName)\" reported a state: the program must run its BandedFilterOperation on the queue")]
        }
        guard let executing = operation.firstChange(to: .executing) else {
            return [CheckFinding(holds: false, "\"\(filterName)\" never began executing: its main() never ran")]
        }
        let at = record.timeText
        let finished = operation.firstChange(to: .finished)
        // The operation's own bands: on the thread that ran its main(), while it was executing.
        let bands = record.spans.compactMap { span -> (number: Int, span: Span)? in
            guard span.name.hasPrefix("band "), let number = Int(span.name.dropFirst(5)), span.thread == executing.thread,
                  span.start >= executing.time, finished.map({ span.start <= $0.time }) ?? true else { return nil }
            return (number, span)
        }.sorted { $0.span.start < $1.span.start }
        var findings: [CheckFinding] = []

        guard let firstBand = bands.first else {
            findings.append(CheckFinding(holds: false, "\"\(filterName)\" began executing at \(at(executing.time)) on \(record.threadDescription(executing.thread)), but ran no band: its main() did no work"))
            return findings
        }
        findings.append(CheckFinding(holds: true, "\"\(filterName)\" ran its bands on \(record.threadDescription(executing.thread)), from \(at(firstBand.span.start))"))

        guard let cancelled = operation.firstChange(to: .cancelled) else {
            findings.append(CheckFinding(holds: false, "\"\(filterName)\" was never cancelled: keep the program's cancel() while band 1 works"))
            return findings
        }
        let working = bands.first { $0.span.start <= cancelled.time && ($0.span.end.map { cancelled.time <= $0 } ?? true) }
        if let working {
            findings.append(CheckFinding(holds: true, "cancel() reached it at \(at(cancelled.time)), while band \(working.number) was at work"))
        } else if cancelled.time < executing.time {
            findings.append(CheckFinding(holds: false, "cancel() came at \(at(cancelled.time)), before the filter began executing: keep the hold in band 1, so the cancel lands while it works"))
        } else {
            findings.append(CheckFinding(holds: false, "cancel() came at \(at(cancelled.time)), while no band was at work: keep the hold in band 1, so the cancel lands while it works"))
        }

        let late = bands.filter { $0.span.start > cancelled.time }
        if late.isEmpty {
            findings.append(CheckFinding(holds: true, "no band began after the cancel: it stopped after band \(bands[bands.count - 1].number)"))
        } else {
            let which = late.count == 1 ? "band \(late[0].number)" : "band \(late[0].number) to band \(late[late.count - 1].number)"
            findings.append(CheckFinding(holds: false, "\(late.count) \(late.count == 1 ? "band" : "bands") began after cancel() at \(at(cancelled.time)) (\(which)): main() went on to the next band without looking at isCancelled; a cancelled filter starts no new band"))
        }

        if let finished {
            findings.append(CheckFinding(holds: true, "\"\(filterName)\" finished at \(at(finished.time))"))
        } else {
            findings.append(CheckFinding(holds: false, "\"\(filterName)\" never finished: main() must return once it sees the cancel"))
        }
        return findings
    }
}
