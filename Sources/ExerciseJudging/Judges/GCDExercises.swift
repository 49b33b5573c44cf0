import TourCore

extension PageExercises {
    /// Page 6: which thread runs a `sync` block, and a deadlock of `sync` onto the queue the caller is already on.
    public static let gcd = PageExercises(
        page: "gcd",
        prediction: Prediction(
            id: "sync-block-thread",
            question: "The main thread calls worker.sync { … } while the serial worker queue is still busy with an earlier job. "
                + "Which thread runs the block (the span \"sync block\")?",
            choices: [
                .init(key: "a", text: "the main thread, which called sync and waits in it until the queue is free"),
                .init(key: "b", text: "one of the worker queue's pool threads, while the main thread waits"),
            ],
            observe: GCDExerciseJudging.observeSyncBlock
        ),
        challenge: Challenge(
            id: "remove-the-deadlock",
            title: "Remove the deadlock",
            task: "post(_:) runs a block on the serial queue tour.gcd.ledger, and each deposit it makes calls ledger.sync from "
                + "inside that block: libdispatch stops the program. Make post(_:) make its four deposits on the ledger, one "
                + "at a time and inside its one block, with no code on the ledger calling sync on the ledger.",
            folder: "06-GCD",
            hints: [
                "Look at the thread that runs post(_:)'s block: it is already on tour.gcd.ledger when it calls deposit(_:), "
                    + "and deposit(_:) asks to get onto tour.gcd.ledger with sync. A serial queue cannot be entered twice.",
                "Split what a deposit does from how it gets onto the queue: a private method that changes the balance and "
                    + "assumes it is on the ledger (dispatchPrecondition(condition: .onQueue(ledger)) says so), called by "
                    + "deposit(_:) inside ledger.sync, and directly by post(_:)'s block.",
                "Move trace(\"deposit \\(amount)\") { … } into private func record(_ amount: Int); make deposit(_:) "
                    + "ledger.sync { record(amount) }, and in post(_:) call self.record(amount) instead of self.deposit(amount).",
            ],
            judge: GCDExerciseJudging.judgeLedger
        )
    )
}

/// How page 6's exercises read a run.
enum GCDExerciseJudging {
    /// The serial queue the challenge's account keeps its balance on.
    static let ledger = "tour.gcd.ledger"
    /// The block that makes the day's deposits.
    static let posting = "post the day's deposits"
    /// The deposits the challenge's program posts, in order.
    static let amounts = [10, 20, 30, 40]

    /// Which thread ran the page's "sync block" span.
    @Sendable static func observeSyncBlock(_ record: RunRecord) -> Prediction.Observation {
        guard let block = record.firstSpan(named: "sync block") else {
            return .init(rightChoice: nil, happened: "this run never reached the sync block, so it cannot tell")
        }
        if record.isMainThread(block.thread) {
            return .init(rightChoice: "a", happened: "it ran on the main thread, which called sync: libdispatch does not hand a "
                         + "sync block to a worker, it runs it on the waiting caller once the queue is free, still labelled \(block.queue)")
        }
        return .init(rightChoice: "b", happened: "it ran on \(record.threadDescription(block.thread)), on \(block.queue), "
                     + "while the caller waited")
    }

    /// What holds and what is still wrong in a run of the ledger challenge.
    @Sendable static func judgeLedger(_ record: RunRecord) -> [CheckFinding] {
        var findings: [CheckFinding] = []
        if let stop = stopFinding(record) { findings.append(stop) }
        findings += depositFindings(record)
        return findings
    }

    /// Why the run stopped in the middle, naming the queue it stopped on; nil for a run that was not stopped by a trap or the
    /// watchdog.
    static func stopFinding(_ record: RunRecord) -> CheckFinding? {
        let open = record.spansOpenAtEnd
        let stoppedIn = open.map { "\"\($0.name)\" on \(QueueLabel.shown($0.queue)) (\(record.laneName(of: $0.thread)))" }
            .joined(separator: ", ")
        switch record.ending {
        case .dispatchTrap?:
            guard let innermost = open.last else {
                return CheckFinding(holds: false, "libdispatch trapped outside any span: most often code already running on a "
                                    + "serial queue called sync on that same queue (or DispatchQueue.main.sync on the main thread), "
                                    + "which would wait for itself for ever")
            }
            // The record does not say which thread trapped; the span that began last is the likeliest to hold the sync.
            let queue = QueueLabel.shown(innermost.queue)
            return CheckFinding(holds: false, "libdispatch trapped while \(stoppedIn) was running: code already on the serial queue "
                                + "\(queue) called sync on \(queue), which waits until the queue is free, and the queue is held by "
                                + "the very block that waits")
        case .stuck?:
            guard !open.isEmpty else {
                return CheckFinding(holds: false, "the program hung with no span open: something waits for a queue that is never free")
            }
            return CheckFinding(holds: false, "the program hung in \(stoppedIn): a block waits for a queue that only it could free")
        default:
            return nil
        }
    }

    /// Whether the four deposits ran on the ledger, one at a time, in order, inside the posting block.
    static func depositFindings(_ record: RunRecord) -> [CheckFinding] {
        let names = amounts.map { "deposit \($0)" }
        // The first run of each deposit that ended; a deposit a trap cut short is still open.
        let deposits = names.compactMap { name in
            record.spans.filter { $0.name == name && $0.end != nil }.min { $0.start < $1.start }
        }
        guard deposits.count == names.count else {
            let missing = names.filter { name in !deposits.contains { $0.name == name } }
            let ran = deposits.isEmpty ? "no deposit ran to its end" : "only \(deposits.count) of the \(names.count) deposits ran to their end"
            return [CheckFinding(holds: false, "\(ran): \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) never did")]
        }
        var findings = [CheckFinding(holds: true, "all \(names.count) deposits ran to their end")]

        let elsewhere = deposits.filter { $0.queue != ledger }
        if let stray = elsewhere.first {
            findings.append(CheckFinding(holds: false, "\"\(stray.name)\" ran on \(QueueLabel.shown(stray.queue)), not on the ledger's "
                                         + "queue \(ledger): the balance is only safe on its queue"))
        } else {
            findings.append(CheckFinding(holds: true, "every deposit ran on \(ledger)"))
        }

        if let widest = record.mostAtOnce(deposits), widest.count > 1 {
            findings.append(CheckFinding(holds: false, "\(widest.count) deposits ran at once from \(record.timeText(at: widest.since)); "
                                         + "the ledger changes the balance one deposit at a time"))
        } else {
            let started = deposits.sorted { $0.start < $1.start }.map(\.name)
            if started == names {
                findings.append(CheckFinding(holds: true, "the deposits ran one at a time, in the order posted"))
            } else {
                findings.append(CheckFinding(holds: false, "the deposits ran in the order \(started.joined(separator: ", ")), "
                                             + "not in the order posted, \(names.joined(separator: ", "))"))
            }
        }

        guard let post = record.firstSpan(named: posting) else {
            findings.append(CheckFinding(holds: false, "no block ran \"\(posting)\": post(_:) makes the deposits in one block on the ledger"))
            return findings
        }
        // Deposits inside a posting span that is not itself on the ledger each took the ledger with a sync of their own.
        if post.queue != ledger {
            findings.append(CheckFinding(holds: false, "\"\(posting)\" ran on \(QueueLabel.shown(post.queue)), not on the ledger's queue "
                                         + "\(ledger): each deposit took the ledger on its own, so other work could have come between "
                                         + "them; make the deposits in one block on the ledger"))
        }
        let outside = deposits.filter { deposit in
            deposit.thread != post.thread || deposit.start < post.start || (deposit.end ?? .max) > (post.end ?? .max)
        }
        if let stray = outside.first {
            let how: String
            if stray.thread != post.thread {
                how = "on \(record.laneName(of: stray.thread)), not on the block's thread \(record.laneName(of: post.thread))"
            } else if stray.start < post.start {
                how = "from \(record.timeText(at: stray.start)), before the block began at \(record.timeText(at: post.start))"
            } else {
                how = "from \(record.timeText(at: stray.start)), after the block had ended at \(post.end.map(record.timeText) ?? "?")"
            }
            findings.append(CheckFinding(holds: false, "\"\(stray.name)\" ran outside \"\(posting)\", \(how): other work could "
                                         + "have come between the deposits"))
        } else {
            findings.append(CheckFinding(holds: true, "all \(names.count) deposits ran inside \"\(posting)\", on its thread"))
        }
        return findings
    }
}
