import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 9: how long blocking tasks take on the global executor, and a callback turned into an `await` with a
    /// continuation so that eight requests wait at once.
    public static let tasks = PageExercises(
        page: "tasks",
        prediction: Prediction(
            id: "blocking-batch",
            question: "The page starts eight detached tasks that each block their thread in usleep for half a second "
                + "(\"8 tasks that block\"). How long does the batch take?",
            choices: [
                .init(key: "a", text: "about half a second: each task gets a thread, as Dispatch gives a blocked block more in time"),
                .init(key: "b", text: "about half a second for each queue's width of tasks: the tasks' queue runs as many at once as there are cores, however long they block"),
            ],
            observe: TasksExercises.observeBlockingBatch
        ),
        challenge: Challenge(
            id: "continuation-instead-of-blocking",
            title: "Let eight requests wait at once",
            task: "Eight tasks get thumbnail sizes from a callback service by blocking their threads on a semaphore, so they "
                + "wait a queue's width at a time. Write an async thumbnailSize(_:) that suspends with withCheckedContinuation, "
                + "resumed once by the callback, and await it from the tasks.",
            folder: "09-Tasks",
            hints: [
                "A task that blocks keeps its thread and its place in the queue; a task that suspends gives both back. Which function turns a callback "
                    + "into something a task can suspend on?",
                "func thumbnailSize(_ number: Int) async -> Int { await withCheckedContinuation { continuation in … } }: inside, "
                    + "call ThumbnailService.fetch(number) and resume the continuation from its callback, exactly once.",
                "In the tasks: await trace(\"await thumbnail \\(number)\") { await thumbnailSize(number) }, and nothing calls "
                    + "ThumbnailService.size(blocking:) any more.",
            ],
            speed: 2,
            judge: TasksExercises.judgeRequests
        )
    )
}

/// The readings behind page 9's exercises.
enum TasksExercises {
    static let requestCount = 8
    /// How many tasks the global executor runs at once on this machine: the Swift runtime sets its queue's width to
    /// `DISPATCH_QUEUE_WIDTH_MAX_LOGICAL_CPUS`, which libdispatch reads as the CPUs the machine has,
    /// `sysconf(_SC_NPROCESSORS_CONF)`; the page runs on the machine the check runs on.
    static var taskWidth: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_CONF))) }

    /// Reads the page's blocking batch: how long it took against one task's wait, and how many ran at once.
    @Sendable static func observeBlockingBatch(_ record: RunRecord) -> Prediction.Observation {
        guard let batch = record.spans.first(where: { $0.name.hasSuffix(" tasks that block") }), let end = batch.end,
              let speed = record.speed else {
            return .init(rightChoice: nil, happened: "this run ended before its blocking batch was done, so it cannot tell")
        }
        let jobs = record.spans.filter { $0.name.hasPrefix("usleep task ") && $0.start >= batch.start && $0.start < end }
        let oneJob = 0.5 / speed
        let seconds = Double(end &- batch.start) / 1e9
        let rounds = seconds / oneJob
        let atOnce = record.mostAtOnce(jobs)?.count ?? 0
        let happened = "the \(jobs.count) tasks took \(DurationText.seconds(seconds)), \(String(format: "%.1f", rounds)) times "
            + "one task's \(DurationText.seconds(oneJob)), at most \(atOnce) at once"
        return .init(rightChoice: rounds < 1.5 ? "a" : "b", happened: happened)
    }

    /// Judges the eight requests: each task's wait ended, more waited at once than the tasks' queue is wide, none blocked.
    @Sendable static func judgeRequests(_ record: RunRecord) -> [CheckFinding] {
        let waits = record.spans.filter { $0.name.hasPrefix("await thumbnail ") }
        guard !waits.isEmpty else {
            return [CheckFinding(holds: false, "no task ran an \"await thumbnail N\" span: the eight tasks must ask for their "
                                 + "thumbnails inside trace(\"await thumbnail \\(number)\")")]
        }
        var findings: [CheckFinding] = []
        let ended = waits.filter { $0.end != nil }
        if ended.count == requestCount {
            let last = ended.compactMap(\.end).max().map(record.timeText) ?? "?"
            findings.append(CheckFinding(holds: true, "all \(requestCount) tasks got their thumbnail's size, the last at \(last)"))
        } else {
            findings.append(CheckFinding(holds: false, "\(ended.count) of the \(requestCount) tasks got their thumbnail's size; "
                                         + "a continuation that is never resumed leaves its task waiting for good"))
        }
        if let widest = record.mostAtOnce(waits) {
            if widest.count > taskWidth {
                findings.append(CheckFinding(holds: true, "\(widest.count) requests waited at once from \(record.timeText(at: widest.since)), "
                                             + "more than the \(taskWidth) tasks the global executor runs at once: a suspended task holds no thread"))
            } else {
                findings.append(CheckFinding(holds: false, "at most \(widest.count) requests waited at once, from "
                                             + "\(record.timeText(at: widest.since)): the global executor here runs \(taskWidth) tasks at "
                                             + "once, and each task blocked waiting held its thread and its place"))
            }
        }
        let blocked = record.spans.filter { $0.name.hasPrefix("blocked waiting for ") }
        if let first = blocked.min(by: { $0.start < $1.start }) {
            findings.append(CheckFinding(holds: false, "\(blocked.count) times a task blocked its thread in \"blocked waiting for N\", "
                                         + "the first on \(record.threadDescription(first.thread)) at \(record.timeText(at: first.start)): "
                                         + "suspend with withCheckedContinuation instead of waiting on the semaphore"))
        } else {
            findings.append(CheckFinding(holds: true, "no thread blocked waiting for an answer"))
        }
        return findings
    }
}
