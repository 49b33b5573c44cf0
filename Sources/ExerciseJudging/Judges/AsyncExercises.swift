import TourCore

extension PageExercises {
    /// Page 3: a prediction about the operation that returns before its download, and the challenge of finishing an
    /// asynchronous operation so that its queue waits for it.
    public static let async = PageExercises(
        page: "async",
        prediction: Prediction(
            id: "too-early-finish",
            question: "The too-early loader's main() starts a download of the coffee photo and returns; the server "
                + "answers only after the queue's wait. Which comes first?",
            choices: [
                Prediction.Choice(key: "a", text: "the queue calls the operation finished, while the photo is still on its way"),
                Prediction.Choice(key: "b", text: "the download ends, then the queue calls the operation finished"),
            ],
            observe: AsyncExercises.observeTooEarlyFinish
        ),
        challenge: Challenge(
            id: "finish",
            title: "Finish the asynchronous operation",
            task: "ImageLoad never says it has finished, so its queue waits for it forever. Write finish() and call it "
                + "from the download's callback, so the queue waits for the download and then goes on.",
            folder: "03-Async",
            hints: [
                "An asynchronous operation is finished only when it says so: nothing in ImageLoad ever moves its state "
                    + "to .finished. Where does the work really end?",
                "In finish(), call setState(.finished). On Linux the queue hears of it only through "
                    + "didChangeValue(forKey:), called after the state changed, for \"isExecuting\" and \"isFinished\" "
                    + "(willChangeValue(forKey:) for both before). Then call finish() in main()'s callback.",
                "finish(): guard state != .finished else { return }; willChangeValue(forKey: \"isExecuting\"); "
                    + "willChangeValue(forKey: \"isFinished\"); setState(.finished); didChangeValue(forKey: \"isExecuting\"); "
                    + "didChangeValue(forKey: \"isFinished\"). In the callback, after self.image = image: self.finish().",
            ],
            stuckAfter: 2,
            judge: AsyncExercises.judgeFinish
        )
    )
}

/// The names page 3's exercise and demo run with, and how they are read from a run.
enum AsyncExercises {
    static let loadName = "load astronaut"
    static let downloadName = "network load astronaut"
    static let waitName = "waitUntilAllOperationsAreFinished"

    /// Which came first in the page's demo: the queue's `finished` for the too-early loader, or its download's end.
    static func observeTooEarlyFinish(_ record: RunRecord) -> Prediction.Observation {
        let operation = "too-early load coffee"
        guard let finished = record.operation(named: operation)?.firstChange(to: .finished) else {
            return Prediction.Observation(rightChoice: nil, happened: "\(operation) never reported finished in this run")
        }
        guard let download = record.spans(named: "network load coffee").first, let end = download.end else {
            return Prediction.Observation(
                rightChoice: nil,
                happened: "the queue called \(operation) finished at \(record.timeText(at: finished.time)), and its download never ended in this run")
        }
        if finished.time < end {
            return Prediction.Observation(
                rightChoice: "a",
                happened: "the queue called \(operation) finished at \(record.timeText(at: finished.time)), and its download "
                    + "ended only at \(record.timeText(at: end)), on \(record.laneName(of: download.thread)): returning from main() is finishing")
        }
        return Prediction.Observation(
            rightChoice: "b",
            happened: "its download ended at \(record.timeText(at: end)) and the queue called \(operation) finished at "
                + "\(record.timeText(at: finished.time))")
    }

    /// What holds of the learner's `ImageLoad` run, in order: it went executing, it finished, after its download,
    /// from the download's callback, and the queue's wait lasted until then.
    static func judgeFinish(_ record: RunRecord) -> [CheckFinding] {
        guard let operation = record.operation(named: loadName), let executing = operation.firstChange(to: .executing) else {
            return [CheckFinding(holds: false, "no operation named \"\(loadName)\" went executing: the queue never started the image load")]
        }
        var findings = [CheckFinding(holds: true, "\(loadName) went executing at \(record.timeText(at: executing.time)), on \(record.laneName(of: executing.thread))")]
        guard let finished = operation.firstChange(to: .finished) else {
            let waiting = !record.openSpans(named: waitName).isEmpty
            findings.append(CheckFinding(holds: false, waiting
                ? "the queue is still waiting for \(loadName): it went executing at \(record.timeText(at: executing.time)) and never finished; nothing calls finish()"
                : "\(loadName) went executing at \(record.timeText(at: executing.time)) and never finished; nothing calls finish()"))
            return findings
        }
        let download = record.spans(named: downloadName).first
        if let download, let end = download.end {
            if finished.time >= end {
                findings.append(CheckFinding(holds: true, "it finished at \(record.timeText(at: finished.time)), after its download ended at \(record.timeText(at: end))"))
            } else {
                findings.append(CheckFinding(holds: false, "it finished at \(record.timeText(at: finished.time)), before its download ended at "
                                             + "\(record.timeText(at: end)): the queue stopped waiting before the photo arrived"))
            }
            if finished.thread == download.thread {
                findings.append(CheckFinding(holds: true, "it finished on \(record.laneName(of: finished.thread)), the thread the download called back on"))
            } else {
                findings.append(CheckFinding(holds: false, "it finished on \(record.laneName(of: finished.thread)), but the download called back on "
                                             + "\(record.laneName(of: download.thread)): finish() belongs in the callback, not in a thread that waits for it"))
            }
        } else {
            findings.append(CheckFinding(holds: false, "it finished at \(record.timeText(at: finished.time)), but its download (\(downloadName)) never ended: "
                                         + "the operation must finish when the download calls back"))
        }
        if let wait = record.spans(named: waitName).first, let end = wait.end {
            findings.append(end >= finished.time
                ? CheckFinding(holds: true, "the queue's wait ended at \(record.timeText(at: end)), once \(loadName) had finished")
                : CheckFinding(holds: false, "the queue's wait ended at \(record.timeText(at: end)), before \(loadName) finished at \(record.timeText(at: finished.time))"))
        } else if !record.openSpans(named: waitName).isEmpty {
            findings.append(CheckFinding(holds: false, "\(loadName) said it finished at \(record.timeText(at: finished.time)), but the queue's wait never ended: "
                                         + "the queue was not told (didChangeValue(forKey: \"isFinished\"), after the state changed)"))
        } else {
            findings.append(CheckFinding(holds: false, "the program never waited for its queue (\(waitName))"))
        }
        return findings
    }
}
