import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 14: when a Dispatch block gets a thread while every slot of the tasks' queue is blocked, and six tasks
    /// answered by tasks of their own priority, through a continuation instead of a semaphore.
    public static let starvation = PageExercises(
        page: "starvation",
        prediction: Prediction(
            id: "blocked-pool-answer",
            question: "The page blocks as many tasks as the queue is wide on a semaphore, and every other thread of the "
                + "default-QoS pool with blocks that wait on it too, then queues the answer they wait for as a block on "
                + "DispatchQueue.global() (with answeredBy set to task, as a task). When does the answer run?",
            choices: [
                .init(key: "a", text: "at once: Dispatch finds it a thread straight away"),
                .init(key: "b", text: "only after a while: the pool adds a thread when its once-a-second check sees every worker blocked"),
                .init(key: "c", text: "never: the page hangs until the watchdog stops it"),
            ],
            observe: StarvationExercises.observeAnswer
        ),
        challenge: Challenge(
            id: "continuation-instead-of-starving",
            title: "Answer six tasks without blocking one",
            task: "Six tasks get prices from a service that answers from a task of their own priority, but they block on a "
                + "semaphore for it, holding every slot of the queue the answer needs, so each gives up after a second. Write an "
                + "async price(of:) that suspends with withCheckedContinuation, resumed once by the callback, and await it "
                + "from the tasks.",
            folder: "14-Starvation",
            hints: [
                "The answer needs a slot of the same queue the waiting tasks hold. A task that blocks keeps its slot; a task "
                    + "that suspends gives it back. Which function turns a callback into something a task suspends on?",
                "Marking price(of:) async changes nothing while it calls PriceService.price(blocking:): it still waits on a "
                    + "semaphore. Inside, call PriceService.request(item) and resume a continuation from its callback.",
                "func price(of item: Int) async -> Int { await withCheckedContinuation { continuation in "
                    + "PriceService.request(item) { continuation.resume(returning: $0) } } }, and in the tasks: "
                    + "await trace(\"await price \\(item)\") { await price(of: item) }.",
            ],
            speed: 2,
            judge: StarvationExercises.judgePrices
        )
    )
}

/// The readings behind page 14's exercises.
enum StarvationExercises {
    static let itemCount = 6
    /// The slots of the tasks' queue on this machine: the Swift runtime sets its width to the CPUs the machine has,
    /// `sysconf(_SC_NPROCESSORS_CONF)`, and the program runs on the machine the check runs on.
    static var queueWidth: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_CONF))) }

    /// Reads when the page's answer ran after it was queued: at once, after a wait, or never.
    @Sendable static func observeAnswer(_ record: RunRecord) -> Prediction.Observation {
        if let queued = record.marks.first(where: { $0.name == "answer queued on DispatchQueue.global()" }) {
            guard let answer = record.firstSpan(named: "Dispatch block answers") else {
                return .init(rightChoice: nil, happened: "this run ended before its Dispatch block ran, so it cannot tell")
            }
            let waited = Double(answer.start &- queued.time) / 1e9
            let happened = "the Dispatch block was queued at \(record.timeText(at: queued.time)) and ran at "
                + "\(record.timeText(at: answer.start)), \(DurationText.seconds(waited)) later"
            return .init(rightChoice: waited < 0.1 ? "a" : "b", happened: happened)
        }
        if let queued = record.marks.first(where: { $0.name == "answer queued as a task" }) {
            if let answer = record.firstSpan(named: "task answers") {
                return .init(rightChoice: "b", happened: "the answering task, queued at \(record.timeText(at: queued.time)), "
                             + "ran at \(record.timeText(at: answer.start))")
            }
            if case .stuck = record.ending {
                return .init(rightChoice: "c", happened: "the answering task, queued at \(record.timeText(at: queued.time)), "
                             + "never ran, and the watchdog stopped the page")
            }
        }
        return .init(rightChoice: nil, happened: "this run ended before it queued an answer, so it cannot tell")
    }

    /// Judges the six requests: each task's wait ended after its answer, more waited at once than the queue is wide,
    /// none blocked.
    @Sendable static func judgePrices(_ record: RunRecord) -> [CheckFinding] {
        let waits = record.spans.filter { $0.name.hasPrefix("await price ") }
        guard !waits.isEmpty else {
            return [CheckFinding(holds: false, "no task ran an \"await price N\" span: the six tasks must ask for their prices "
                                 + "inside trace(\"await price \\(item)\")")]
        }
        var findings: [CheckFinding] = []
        let answered = waits.filter { wait in
            let item = wait.name.dropFirst("await price ".count)
            guard let end = wait.end, let answer = record.marks.first(where: { $0.name == "price \(item) answered" }) else {
                return false
            }
            return answer.time <= end
        }
        if answered.count == itemCount {
            let last = answered.compactMap(\.end).max().map(record.timeText) ?? "?"
            findings.append(CheckFinding(holds: true, "all \(itemCount) tasks waited until the service answered them, the last at \(last)"))
        } else {
            findings.append(CheckFinding(holds: false, "\(answered.count) of the \(itemCount) tasks ended their \"await price N\" "
                                         + "after the service answered them; the others stopped waiting before any answer came"))
        }
        if let widest = record.mostAtOnce(waits) {
            if widest.count > queueWidth {
                findings.append(CheckFinding(holds: true, "\(widest.count) tasks waited at once from \(record.timeText(at: widest.since)), "
                                             + "more than the queue's \(queueWidth) slots: a suspended task holds none"))
            } else {
                findings.append(CheckFinding(holds: false, "at most \(widest.count) tasks waited at once, from "
                                             + "\(record.timeText(at: widest.since)): the queue here has \(queueWidth) slots, and "
                                             + "each waiting task held one"))
            }
        }
        let blocked = record.spans.filter { $0.name.hasPrefix("blocked waiting for price ") }
        if let first = blocked.min(by: { $0.start < $1.start }) {
            let gaveUp = record.marks.filter { $0.name.hasPrefix("gave up waiting for price ") }.count
            findings.append(CheckFinding(holds: false, "\(blocked.count) times a task blocked its thread in \"blocked waiting for "
                                         + "price N\", the first on \(record.threadDescription(first.thread)) at "
                                         + "\(record.timeText(at: first.start)), and \(gaveUp) gave up: the answer needs a slot of "
                                         + "the queue the blocked tasks hold, so suspend with withCheckedContinuation instead"))
        } else {
            findings.append(CheckFinding(holds: true, "no thread blocked waiting for a price"))
        }
        return findings
    }
}
