import PageProtocol
import TourCore

extension PageExercises {
    /// Page 2: what a suspended queue still finishes, and a preview that starts first by its priority alone.
    static let queue = PageExercises(
        page: "queue",
        prediction: Prediction(
            id: "suspended-queue-finishes",
            question: "The page suspends the \"downloads\" queue (one download at a time) just after download 1 has started, and resumes it a while later. How many of the four downloads finish while it is suspended?",
            choices: [
                .init(key: "a", text: "none: suspending pauses the running download too"),
                .init(key: "b", text: "one: the running download goes on to its end, and no other starts"),
                .init(key: "c", text: "more than one: the queue goes on with the downloads it already holds; suspending only stops new ones being added"),
            ],
            observe: QueueExercises.downloadsFinishedWhileSuspended
        ),
        challenge: Challenge(
            id: "preview-first",
            title: "Let the preview start first",
            task: "A backup, a filter and a preview are added to a suspended queue that runs one job at a time, in that order, so the preview starts last. Using queuePriority alone, make the preview start first, the filter next and the backup last.",
            folder: "02-Queue",
            hints: [
                "When a slot frees up, the queue starts the ready operation with the highest queuePriority. What priority do the three jobs have now?",
                "All three are .normal, and among equal priorities the one added first goes first. The preview must rise above the filter, and the backup fall below it.",
                "Before the loop that adds them: preview.queuePriority = .high and backup.queuePriority = .low.",
            ],
            judge: QueueExercises.judgePreviewFirst
        )
    )
}

/// The readings behind page 2's exercises.
enum QueueExercises {
    /// The challenge's jobs in the order its program adds them; they must start in the reverse order.
    static let addedOrder = ["backup", "filter", "preview"]

    /// Counts the page's downloads that finished between its marks "queue suspended" and "queue resumed".
    @Sendable static func downloadsFinishedWhileSuspended(in record: RunRecord) -> Prediction.Observation {
        let downloads = record.operations.filter { $0.name.hasPrefix("download ") }
        guard let suspended = record.marks.first(where: { $0.name == "queue suspended" })?.time,
              let resumed = record.marks.first(where: { $0.name == "queue resumed" })?.time, !downloads.isEmpty else {
            return .init(rightChoice: nil, happened: "this run ended before the downloads queue was suspended and resumed, so it cannot tell")
        }
        let at = record.timeText
        let finishedWhile = downloads.filter { ($0.firstTime(of: .finished)).map { suspended <= $0 && $0 <= resumed } ?? false }
        let choice = finishedWhile.isEmpty ? "a" : finishedWhile.count == 1 ? "b" : "c"
        let names = finishedWhile.map(\.name).joined(separator: ", ")
        var happened = "\(finishedWhile.count) of \(downloads.count) finished while it was suspended, from \(at(suspended)) to \(at(resumed))"
        if !names.isEmpty { happened += " (\(names))" }
        let startedLater = downloads.compactMap { download in download.firstTime(of: .executing).map { (download.name, $0) } }
            .filter { $0.1 > suspended }.min { $0.1 < $1.1 }
        if let (name, time) = startedLater {
            happened += "; the next, \(name), began at \(at(time))\(time >= resumed ? ", after the resume" : "")"
        }
        return .init(rightChoice: choice, happened: happened)
    }

    /// Judges the three jobs: added in the given order to a queue that held them, one at a time, no dependencies,
    /// and started preview, filter, backup.
    @Sendable static func judgePreviewFirst(_ record: RunRecord) -> [CheckFinding] {
        let at = record.timeText
        var started: [(name: String, operation: OperationRecord, executing: UInt64)] = []
        for name in addedOrder {
            guard let operation = record.operation(named: name) else {
                return [CheckFinding(holds: false, "no job named \"\(name)\" reported a state: the program must add its three Jobs to the queue")]
            }
            guard let executing = operation.firstTime(of: .executing) else {
                return [CheckFinding(holds: false, "\"\(name)\" never began executing: the queue never started it")]
            }
            started.append((name, operation, executing))
        }
        started.sort { $0.executing < $1.executing }
        var findings: [CheckFinding] = []

        let adds = record.marks.filter { $0.name.hasPrefix("added ") }.sorted { $0.time < $1.time }
        let addedNames = adds.map { String($0.name.dropFirst("added ".count)) }
        if addedNames == addedOrder, let lastAdd = adds.last {
            findings.append(CheckFinding(holds: true, "the jobs were added in the order \(addedOrder.joined(separator: ", ")): the preview last"))
            let first = started[0]
            if first.executing > lastAdd.time {
                findings.append(CheckFinding(holds: true, "the queue held all three until the preview was added at \(at(lastAdd.time)); the first began at \(at(first.executing))"))
            } else {
                findings.append(CheckFinding(holds: false, "\(first.name) began executing at \(at(first.executing)), before the preview was added at \(at(lastAdd.time)): the queue started it before it had all three to choose from; keep the queue suspended while the jobs are added"))
            }
        } else if adds.isEmpty {
            findings.append(CheckFinding(holds: false, "the program no longer marks each job as it adds it (\"added backup\"…): keep the loop that adds them"))
        } else {
            findings.append(CheckFinding(holds: false, "the jobs were added in the order \(addedNames.joined(separator: ", ")); keep \(addedOrder.joined(separator: ", ")), so that only queuePriority moves the preview forward"))
        }

        let running = started.map { job in
            Span(id: job.operation.id, name: job.name, thread: 0, queue: "", start: job.executing, end: job.operation.firstTime(of: .finished))
        }
        if let most = record.mostAtOnce(running), most.count > 1 {
            let together = most.spans.map(\.name)
            findings.append(CheckFinding(holds: false, "\(together.joined(separator: " and ")) ran at once from \(at(most.since)): on a queue with room for more than one they start together, and priority decides nothing; keep maxConcurrentOperationCount = 1"))
        } else {
            findings.append(CheckFinding(holds: true, "one job ran at a time"))
        }

        let waits = record.dependencies.filter { addedOrder.contains($0.operationName) && addedOrder.contains($0.dependencyName) }
        if waits.isEmpty {
            findings.append(CheckFinding(holds: true, "no job waits for another: the order is the queue's own choice"))
        } else {
            let listed = waits.map { "\($0.operationName) waits for \($0.dependencyName)" }.joined(separator: ", ")
            findings.append(CheckFinding(holds: false, "\(listed) (addDependency): the order must come from queuePriority alone; remove the dependency"))
        }

        let order = started.map(\.name)
        let previewPlace = order.firstIndex(of: "preview") ?? 0
        let preview = started[previewPlace]
        if previewPlace == 0 {
            findings.append(CheckFinding(holds: true, "the preview started first, at \(at(preview.executing))"))
        } else {
            let before = started[..<previewPlace].map { "\($0.name) (at \(at($0.executing)))" }.joined(separator: " and ")
            findings.append(CheckFinding(holds: false, "the preview started \(["first", "second", "third"][previewPlace]), at \(at(preview.executing)), after \(before): give it a higher queuePriority than the others"))
        }
        let filterTime = started.first { $0.name == "filter" }?.executing ?? 0
        let backupTime = started.first { $0.name == "backup" }?.executing ?? 0
        if filterTime < backupTime {
            findings.append(CheckFinding(holds: true, "the filter started before the backup (at \(at(filterTime)) and \(at(backupTime)))"))
        } else {
            findings.append(CheckFinding(holds: false, "the backup started at \(at(backupTime)), before the filter at \(at(filterTime)): give the backup a lower queuePriority than the filter (among equal priorities the one added first goes first)"))
        }
        return findings
    }
}
