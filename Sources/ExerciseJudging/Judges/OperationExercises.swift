import PageProtocol
import TourCore

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
            task: "The banded filter never looks at isCancelled, so a cancel sent while band 1 works lets all eight bands run. Make main() check isCancelled, so that no band begins after the cancel and the operation finishes, while a filter nobody cancels still runs all eight bands.",
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
    /// The operation the challenge's program cancels while band 1 works, as the header of its file names it.
    static let filterName = "banded filter"
    /// The operation the challenge's program runs first, with nothing to cancel it.
    static let uncancelledName = "uncancelled filter"
    /// The bands each filter blurs, as LessonKit's `BandedBlur` has them.
    static let bandCount = 8

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

    /// Judges the two runs of the banded filter: the one nobody cancelled ran all its bands, and in the cancelled one
    /// the cancel landed while a band worked, no band began after it, and the operation finished.
    @Sendable static func judgeBandedFilter(_ record: RunRecord) -> [CheckFinding] {
        judgeUncancelledFilter(record) + judgeCancelledFilter(record)
    }

    /// The bands `operation` ran, by number, in the order they began: spans "band N" begun while it was executing (one
    /// still open at the end of the run counts). The program runs one filter at a time, so the time alone tells whose
    /// bands they are. Not the thread of the `executing` change: whichever thread first reads a getter after Foundation
    /// flips the state reports it, and in the uncancelled run the main thread, entering `waitUntilFinished()` at once,
    /// sometimes did so before the queue's thread, so a reference solution was once judged to have run no band.
    static func bands(of operation: OperationRecord, executing: OperationRecord.Change, in record: RunRecord) -> [(number: Int, span: Span)] {
        let finished = operation.firstChange(to: .finished)
        return record.spans.compactMap { span -> (number: Int, span: Span)? in
            guard span.name.hasPrefix("band "), let number = Int(span.name.dropFirst(5)),
                  span.start >= executing.time, finished.map({ span.start <= $0.time }) ?? true else { return nil }
            return (number, span)
        }.sorted { $0.span.start < $1.span.start }
    }

    /// A filter that stops after a band whether or not it was cancelled would pass the cancelled run alone: with no
    /// cancel, every band must run and the operation must finish.
    static func judgeUncancelledFilter(_ record: RunRecord) -> [CheckFinding] {
        guard let operation = record.operation(named: uncancelledName) else {
            return [CheckFinding(holds: false, "no operation named \"\(uncancelledName)\" reported a state: keep the program's first run, BandedBlur.runUncancelled, which shows what main() does when nothing cancels it")]
        }
        guard let executing = operation.firstChange(to: .executing) else {
            return [CheckFinding(holds: false, "\"\(uncancelledName)\" never began executing: its main() never ran")]
        }
        let at = record.timeText
        let bandsRun = bands(of: operation, executing: executing, in: record).map(\.number)
        let allBands = Array(1...bandCount)
        guard bandsRun == allBands else {
            let named = bandsRun.map { "band \($0)" }.joined(separator: ", ")
            let ran = bandsRun.isEmpty ? "no band" : allBands.allSatisfy(bandsRun.contains) ? "its bands as \(named)" : "only \(named)"
            return [CheckFinding(holds: false, "nothing cancelled \"\(uncancelledName)\", yet it ran \(ran): with no cancel, main() must run band 1 to band \(bandCount), each once, and stop early only once isCancelled is true")]
        }
        guard let finished = operation.firstChange(to: .finished) else {
            return [CheckFinding(holds: false, "\"\(uncancelledName)\" ran all \(bandCount) bands but never finished: main() must return after the last band")]
        }
        return [CheckFinding(holds: true, "with nothing to cancel it, \"\(uncancelledName)\" ran all \(bandCount) bands and finished at \(at(finished.time))")]
    }

    /// The cancelled run: bands ran inside the operation, the cancel landed while one worked, no band began after it,
    /// and the operation finished.
    static func judgeCancelledFilter(_ record: RunRecord) -> [CheckFinding] {
        guard let operation = record.operation(named: filterName) else {
            return [CheckFinding(holds: false, "no operation named \"\(filterName)\" reported a state: the program must run its BandedFilterOperation on the queue")]
        }
        guard let executing = operation.firstChange(to: .executing) else {
            return [CheckFinding(holds: false, "\"\(filterName)\" never began executing: its main() never ran")]
        }
        let at = record.timeText
        let finished = operation.firstChange(to: .finished)
        let bands = bands(of: operation, executing: executing, in: record)
        var findings: [CheckFinding] = []

        guard let firstBand = bands.first else {
            findings.append(CheckFinding(holds: false, "\"\(filterName)\" began executing at \(at(executing.time)) on \(record.threadDescription(executing.thread)), but ran no band: its main() did no work"))
            return findings
        }
        findings.append(CheckFinding(holds: true, "\"\(filterName)\" ran its bands on \(record.threadDescription(firstBand.span.thread)), from \(at(firstBand.span.start))"))

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
