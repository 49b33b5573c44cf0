import TourCore

extension PageExercises {
    /// Page 7: where a group's notify block runs after `dispatchMain()`, and being told when three jobs are done without a
    /// wait on the main thread.
    public static let groups = PageExercises(
        page: "groups",
        prediction: Prediction(
            id: "notify-thread",
            question: "The page hands its notify block to the main queue, then calls dispatchMain(). "
                + "Which thread runs the block (the mark \"notify\")?",
            choices: [
                .init(key: "a", text: "the main thread: blocks on the main queue run there"),
                .init(key: "b", text: "a pool thread, though the block is still on the main queue"),
            ],
            observe: GroupsExerciseJudging.observeNotify
        ),
        challenge: Challenge(
            id: "notify-without-waiting",
            title: "Be told when all three are done",
            task: "The main thread waits for the group of three jobs, and the third job waits for the main queue: a deadlock. "
                + "Show the summary on the main queue once all three jobs are done, with no wait on the main thread.",
            folder: "07-Groups",
            hints: [
                "A group can call you instead of being waited for: notify(queue:) hands a block to a queue once its count "
                    + "reaches zero, and returns at once.",
                "Replace the wait and the summary with jobs.notify(queue: .main) { … } holding trace(\"show the summary\"), "
                    + "then keep the main thread serving the main queue: without it, the program reaches its end before "
                    + "anything is notified, and the third job's main.sync never runs.",
                "jobs.notify(queue: .main) { trace(\"show the summary\") { print(…) }; exit(0) } after the three jobs, "
                    + "and dispatchMain() as the program's last line, as page 7 ends.",
            ],
            judge: GroupsExerciseJudging.judgeNotify
        )
    )
}

/// How page 7's exercises read a run.
enum GroupsExerciseJudging {
    static let mainQueue = "com.apple.main-thread"
    /// The three jobs the group counts, in the order the program starts them.
    static let jobs = ["fetch the photos", "read the albums", "make the thumbnails"]
    /// What the third job does on the main queue.
    static let mainQueueRead = "read the thumbnail size"
    static let summary = "show the summary"
    /// The blocking wait the untouched program makes on the main thread.
    static let wait = "wait for the jobs"

    /// Which thread ran the page's "notify" mark.
    @Sendable static func observeNotify(_ record: RunRecord) -> Prediction.Observation {
        guard let notify = record.marks.first(where: { $0.name == "notify" }) else {
            return .init(rightChoice: nil, happened: "this run ended before the group notified, so it cannot tell")
        }
        if record.isMainThread(notify.thread) {
            return .init(rightChoice: "a", happened: "it ran on the main thread, on \(QueueLabel.shown(notify.queue))")
        }
        return .init(rightChoice: "b", happened: "it ran on \(record.threadDescription(notify.thread)), on "
                     + "\(QueueLabel.shown(notify.queue)): after dispatchMain() the main queue is served by pool threads")
    }

    /// What holds and what is still wrong in a run of the notify challenge.
    @Sendable static func judgeNotify(_ record: RunRecord) -> [CheckFinding] {
        var findings: [CheckFinding] = []
        if let stop = stopFinding(record) { findings.append(stop) }
        // With no job run at all, a main thread that never waited for them proves nothing.
        if jobs.contains(where: { record.firstSpan(named: $0) != nil }) { findings.append(mainThreadFinding(record)) }
        let jobFindings = self.jobFindings(record)
        findings += jobFindings.findings
        findings += summaryFindings(record, lastJobEnd: jobFindings.lastEnd)
        return findings
    }

    /// Why the run stopped in the middle, naming who waited for what; nil for a run neither trapped nor stuck.
    static func stopFinding(_ record: RunRecord) -> CheckFinding? {
        guard let ending = record.ending else { return nil }
        let hung: Bool
        if case .stuck = ending { hung = true } else { hung = false }
        guard hung || ending.isCrash else { return nil }
        let open = record.spansOpenAtEnd
        let openList = open.map { "\"\($0.name)\" on \(QueueLabel.shown($0.queue)) (\(record.laneName(of: $0.thread)))" }
            .joined(separator: ", ")
        let stopped = hung ? "the program hung" : "the program stopped"
        let mainWait = open.first { $0.name == wait && record.isMainThread($0.thread) }
        let waitingJob = open.first { $0.name == jobs[2] }
        if let mainWait, let waitingJob {
            return CheckFinding(holds: false, "\(stopped) in a deadlock: the main thread sat in \"\(wait)\" from "
                                + "\(record.timeText(at: mainWait.start)), waiting for the group, while \"\(waitingJob.name)\" "
                                + "(\(record.laneName(of: waitingJob.thread))) waited in DispatchQueue.main.sync for the main queue, "
                                + "which only the main thread could serve")
        }
        return CheckFinding(holds: false, open.isEmpty ? "\(stopped) with no span open" : "\(stopped) with \(openList) still open")
    }

    /// Whether the main thread blocked in the group wait.
    static func mainThreadFinding(_ record: RunRecord) -> CheckFinding {
        guard let blocked = record.spans.first(where: { $0.name == wait && record.isMainThread($0.thread) }) else {
            return CheckFinding(holds: true, "the main thread never sat in a group wait")
        }
        let until = blocked.end.map { "until \(record.timeText(at: $0))" } ?? "and never got out"
        return CheckFinding(holds: false, "the main thread blocked in \"\(wait)\" from \(record.timeText(at: blocked.start)) \(until): "
                            + "while it waits, nothing on the main queue can run")
    }

    /// Whether the three jobs ran to their end, the third reading the size on the main queue; and when the last ended.
    static func jobFindings(_ record: RunRecord) -> (findings: [CheckFinding], lastEnd: UInt64?) {
        let ended = jobs.compactMap { name in record.spans.first { $0.name == name && $0.end != nil } }
        guard ended.count == jobs.count else {
            let missing = jobs.filter { name in !ended.contains { $0.name == name } }
                .map { name in record.firstSpan(named: name) == nil ? "\"\(name)\" never started" : "\"\(name)\" never ended" }
            return ([CheckFinding(holds: false, "only \(ended.count) of the 3 jobs ran to their end: \(missing.joined(separator: ", "))")], nil)
        }
        let lastEnd = ended.compactMap(\.end).max()
        var findings = [CheckFinding(holds: true, "all 3 jobs ran to their end, the last at \(lastEnd.map(record.timeText) ?? "?")")]
        if let read = record.spans.first(where: { $0.name == mainQueueRead && $0.end != nil }), read.queue == mainQueue {
            findings.append(CheckFinding(holds: true, "\"\(jobs[2])\" read the size on the main queue, on \(record.laneName(of: read.thread))"))
        } else {
            findings.append(CheckFinding(holds: false, "\"\(jobs[2])\" did not read the size on the main queue (\"\(mainQueueRead)\" "
                                         + "on \(mainQueue)): keep the three jobs as they are"))
        }
        return (findings, lastEnd)
    }

    /// Whether the summary ran on the main queue, once, after the last job had ended.
    static func summaryFindings(_ record: RunRecord, lastJobEnd: UInt64?) -> [CheckFinding] {
        let summaries = record.spans.filter { $0.name == summary }.sorted { $0.start < $1.start }
        guard let first = summaries.first else {
            return [CheckFinding(holds: false, "the summary never ran: nothing sent \"\(summary)\" once the jobs were done, "
                                 + "or the program ended before the main queue was served")]
        }
        var findings: [CheckFinding] = []
        if summaries.count > 1 {
            findings.append(CheckFinding(holds: false, "the summary ran \(summaries.count) times; the jobs finish once"))
        }
        if let lastJobEnd {
            if first.start >= lastJobEnd {
                findings.append(CheckFinding(holds: true, "the summary began at \(record.timeText(at: first.start)), after the last job "
                                             + "ended at \(record.timeText(at: lastJobEnd))"))
            } else {
                findings.append(CheckFinding(holds: false, "the summary began at \(record.timeText(at: first.start)), before the last job "
                                             + "ended at \(record.timeText(at: lastJobEnd)): it must wait until all three have left the group"))
            }
        } else {
            findings.append(CheckFinding(holds: false, "the summary began at \(record.timeText(at: first.start)), but not all three jobs ended"))
        }
        if first.queue == mainQueue {
            findings.append(CheckFinding(holds: true, "the summary ran on the main queue, on \(record.threadDescription(first.thread))"))
        } else {
            findings.append(CheckFinding(holds: false, "the summary ran on \(QueueLabel.shown(first.queue)), not on the main queue "
                                         + "\(mainQueue): the queue you give notify is where its block runs"))
        }
        return findings
    }
}
