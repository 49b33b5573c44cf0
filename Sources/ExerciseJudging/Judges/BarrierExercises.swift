import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 8: what runs beside a barrier on each kind of queue, and a person made thread-safe with one.
    static let barrier = PageExercises(page: "barrier", prediction: .barrierCompany, challenge: .barrierPerson)
}

extension Prediction {
    /// Read from the page's barrier experiment: the spans "custom queue barrier", "global queue block 3"…
    static let barrierCompany = Prediction(
        id: "barrier-company",
        question: "The page sends five half-second blocks to a concurrent queue of its own, then the same five to the global "
            + "queue, the middle one flagged .barrier each time. What runs alongside each barrier?",
        choices: [
            Choice(key: "a", text: "nothing, on either queue: a barrier always runs alone"),
            Choice(key: "b", text: "nothing on the page's own queue; other blocks on the global queue"),
            Choice(key: "c", text: "other blocks on both queues: the flag only orders when the barrier starts"),
            Choice(key: "d", text: "other blocks on the page's own queue; nothing on the global queue"),
        ],
        observe: { record in
            guard let own = BarrierExperiment(in: record, queue: "custom queue"),
                  let global = BarrierExperiment(in: record, queue: "global queue") else {
                return Observation(rightChoice: nil, happened: "this run has no barrier experiment to read: the page runs it only "
                    + "with people set to both, and only a run that gets past the two people reaches it")
            }
            let key = switch (own.company.isEmpty, global.company.isEmpty) {
            case (true, true): "a"
            case (true, false): "b"
            case (false, false): "c"
            case (false, true): "d"
            }
            return Observation(rightChoice: key, happened: "on the page's own queue \(own.described(in: record)); "
                + "on the global queue \(global.described(in: record))")
        }
    )
}

/// One queue's run of the page's barrier experiment: its barrier, and the blocks that ran while it did.
private struct BarrierExperiment {
    let barrier: Span
    let company: [Span]

    /// Nil when the run has no finished barrier on `queue` ("custom queue", "global queue").
    init?(in record: RunRecord, queue: String) {
        guard let barrier = record.spans.first(where: { $0.name == "\(queue) barrier" && $0.end != nil }) else { return nil }
        self.barrier = barrier
        company = record.spans
            .filter { $0.name.hasPrefix("\(queue) block ") && record.ranTogether($0, barrier) }
            .sorted { $0.start < $1.start }
    }

    /// "nothing ran beside the barrier (0.50 s to 1.00 s)", "block 3 ran beside the barrier, from 0.50 s…".
    func described(in record: RunRecord) -> String {
        let when = "\(record.timeText(at: barrier.start)) to \(record.end(of: barrier).map(record.timeText(at:)) ?? "its end")"
        guard let first = company.first else { return "nothing ran beside the barrier (\(when))" }
        let names = company.map { String($0.name.split(separator: " ").suffix(2).joined(separator: " ")) }
        let together = max(first.start, barrier.start)
        return "\(listed(names)) ran beside the barrier (\(when)), from \(record.timeText(at: together))"
    }
}

extension Challenge {
    /// Judged by `BarrierPersonJudge` from the spans of `Exercises/08-Barrier/main.swift`, and by Thread Sanitizer.
    static let barrierPerson = Challenge(
        id: "barrier-person",
        title: "Make the person thread-safe with a barrier",
        task: "Give Person a concurrent queue of its own: read the name in a plain sync block on it, and change the name in "
            + "an async block with the .barrier flag, so that many readers or one writer use the person at a time, never "
            + "both, and Thread Sanitizer finds no race.",
        folder: "08-Barrier",
        hints: [
            "Three threads change the name while three read it, and nothing keeps them apart. The page's ThreadSafePerson "
                + "sends every access of the names through one queue of its own: which kind of queue, and which flag, let "
                + "many reads run at once but a write only alone?",
            "Add `private let isolation = DispatchQueue(label: \"tour.person\", attributes: .concurrent)` to Person. "
                + "In `name`, wrap the `Ledger.read` call in `isolation.sync { … }`, so the caller waits for its answer and "
                + "reads share the queue.",
            "In `changeName`, wrap the whole `Ledger.write` call in `isolation.async(flags: .barrier) { … }`: the barrier "
                + "waits for the reads already running, runs alone, and the writer goes on at once. With `sync` the writer "
                + "would wait for its own write, which here holds still until its writer has gone on.",
        ],
        threadSanitizer: true,
        judge: { BarrierPersonJudge(record: $0).findings }
    )
}

/// Reads back from the spans what the exercise's person let its threads do. The names and labels are the program's
/// own (`Exercises/08-Barrier/main.swift`): three writes, three readers, two readers side by side, a final read.
struct BarrierPersonJudge {
    static let newNames = ["Charlie Cheesecake", "Delia Dingle", "Eva Evershed"]
    static let readName = "read name"
    /// Three readers, two side by side, and the final name.
    static let readsExpected = 6
    /// Each writer's mark once it is back from `changeName`, followed by the name of its write span.
    static let wentOnPrefix = "writer went on from "
    /// The serial queues the clients run on, each their own, and the main thread, where the final name is read.
    static let clientQueues: Set<String> = Set((1...3).map { "tour.exercise.writer\($0)" } + (1...5).map { "tour.exercise.reader\($0)" }
        + ["com.apple.main-thread"])

    let record: RunRecord
    let writes: [Span]
    let reads: [Span]

    init(record: RunRecord) {
        self.record = record
        let writeNames = Set(Self.newNames.map { "write " + $0 })
        writes = record.spans.filter { writeNames.contains($0.name) }.sorted { $0.start < $1.start }
        reads = record.spans.filter { $0.name == Self.readName }.sorted { $0.start < $1.start }
    }

    var findings: [CheckFinding] {
        var findings = [everyAccessRan]
        // With nothing recorded there is nothing more to judge, and a finding that "held" would say nothing true.
        guard !writes.isEmpty || !reads.isEmpty else { return findings }
        findings += [writesRanAlone, writersWentOn, oneQueueOfItsOwn]
        if let shared = readersShared { findings.append(shared) }
        return findings
    }

    /// Where `span` ran and when: "on T2 from 0.31 s to 0.35 s".
    private func place(_ span: Span) -> String {
        let end = record.end(of: span).map { record.timeText(at: $0) } ?? "the end of the run"
        return "on \(record.laneName(of: span.thread)) from \(record.timeText(at: span.start)) to \(span.end == nil ? "the end of the run at " + end : end)"
    }

    private static func written(_ span: Span) -> String {
        String(span.name.dropFirst("write ".count))
    }

    var everyAccessRan: CheckFinding {
        let finishedWrites = Set(writes.filter { $0.end != nil }.map(Self.written))
        let finishedReads = reads.filter { $0.end != nil }.count
        var wrong: [String] = []
        let neverStarted = Self.newNames.filter { name in !writes.contains { Self.written($0) == name } }
        if !neverStarted.isEmpty {
            wrong.append("no write of \(listed(neverStarted, with: "or")) ever started")
        }
        for write in writes where write.end == nil && !finishedWrites.contains(Self.written(write)) {
            wrong.append("the write of \(Self.written(write)) started on \(record.laneName(of: write.thread)) at "
                + "\(record.timeText(at: write.start)) and never finished")
        }
        if finishedReads < Self.readsExpected {
            wrong.append("\(finishedReads) of the \(Self.readsExpected) reads of the name ran to their end")
        }
        guard !wrong.isEmpty else {
            return CheckFinding(holds: true, "all \(Self.newNames.count) writes and \(finishedReads) reads of the person ran to their end")
        }
        var text = wrong.joined(separator: "; ")
        if writes.isEmpty && reads.isEmpty {
            text += ": changeName and name must still store and read the names through Ledger.write and Ledger.read"
        }
        return CheckFinding(holds: false, text)
    }

    var writesRanAlone: CheckFinding {
        let accesses = writes + reads
        let crowded = writes.filter { write in accesses.contains { $0.id != write.id && record.ranTogether($0, write) } }
        /// The earliest moment at which a write and one of `others` ran together.
        func firstMeeting(with others: [Span]) -> (write: Span, other: Span)? {
            let pairs = writes.flatMap { write in
                others.filter { $0.id != write.id && record.ranTogether($0, write) }.map { (write: write, other: $0) }
            }
            return pairs.min { max($0.write.start, $0.other.start) < max($1.write.start, $1.other.start) }
        }
        let readMeeting = firstMeeting(with: reads), writeMeeting = firstMeeting(with: writes)
        guard let first = readMeeting ?? writeMeeting else {
            let each = writes.count == 1 ? "the one write that started" : "each of the \(writes.count) writes"
            return CheckFinding(holds: true, "\(each) ran alone: no read or other write of the person ran beside it")
        }
        var text = "a write of the name (to \(Self.written(first.write))) ran \(place(first.write)) while "
        if readMeeting != nil {
            text += "a read ran \(place(first.other)): the read can see half a change, and Thread Sanitizer calls it a data race"
        } else {
            text += "the write of \(Self.written(first.other)) ran \(place(first.other)): the two can leave half of each, and "
                + "Thread Sanitizer calls it a data race"
        }
        if crowded.count > 1 {
            text += "; \(crowded.count) of the \(writes.count) writes had company"
        }
        if readMeeting != nil, let both = writeMeeting {
            text += ", and writes ran beside each other too (\(Self.written(both.write)) and \(Self.written(both.other)) from "
                + "\(record.timeText(at: max(both.write.start, both.other.start))))"
        }
        return CheckFinding(holds: false, text)
    }

    var writersWentOn: CheckFinding {
        var waited: [(name: String, until: UInt64)] = []
        var wrong: [String] = []
        for write in writes {
            let name = Self.written(write)
            let wentOn = record.marks.first { $0.name == Self.wentOnPrefix + write.name }
            switch (wentOn, record.end(of: write)) {
            case let (mark?, end?) where mark.time >= end:
                waited.append((name, end))
            case (nil, _) where write.end == nil:
                wrong.append("the write of \(name) held still \(place(write)), waiting for its writer to go on, and the writer "
                    + "never came back from changeName: it was waiting for that very write")
            case (nil, _):
                wrong.append("the writer of \(name) never came back from changeName")
            default:
                break
            }
        }
        if let first = waited.first {
            var text = "the writer of \(first.name) waited inside changeName until its write had finished, at \(record.timeText(at: first.until))"
            if waited.count > 1 {
                text += ", and so did the writers of \(listed(waited.dropFirst().map(\.name)))"
            }
            wrong.insert(text, at: 0)
        }
        guard !wrong.isEmpty else {
            return CheckFinding(holds: true, "each writer went on while its write was still running: the writes are asynchronous")
        }
        return CheckFinding(holds: false, wrong.joined(separator: "; ")
            + ": send the write with async(flags: .barrier), so its caller does not wait for it")
    }

    var oneQueueOfItsOwn: CheckFinding {
        let accesses = writes + reads
        var labels: [String] = []
        for access in accesses where !labels.contains(access.queue) { labels.append(access.queue) }
        let shown = listed(labels.map(QueueLabel.shown), limit: 3)
        if labels.contains(where: Self.clientQueues.contains) {
            return CheckFinding(holds: false, "the person's reads and writes ran on \(shown), the queues of the clients that "
                + "called it: nothing put them on a queue of the person's own")
        }
        if let global = labels.first(where: { $0.hasPrefix("com.apple.root.") }) {
            return CheckFinding(holds: false, "the person's reads and writes ran on \(global), a global queue, which ignores the "
                + "barrier flag: create a concurrent queue of the person's own")
        }
        guard labels.count == 1, let own = labels.first else {
            return CheckFinding(holds: false, "the person's reads and writes ran on \(labels.count) queues (\(shown)): one queue "
                + "of the person's own must order them all")
        }
        return CheckFinding(holds: true, "every read and write of the person ran on \(QueueLabel.shown(own)), a queue of its own")
    }

    /// Nil when the run stopped before the two readers at the end could read.
    var readersShared: CheckFinding? {
        for (index, read) in reads.enumerated() {
            if let beside = reads[(index + 1)...].first(where: { record.ranTogether($0, read) }) {
                return CheckFinding(holds: true, "two reads ran side by side from \(record.timeText(at: beside.start)), on "
                    + "\(record.laneName(of: read.thread)) and \(record.laneName(of: beside.thread)): readers do not keep each other waiting")
            }
        }
        if let waiting = reads.first(where: { $0.end == nil }) {
            return CheckFinding(holds: false, "a read \(place(waiting)) waited for a second read to run beside it, and none "
                + "could start: reads that take turns (on a serial queue, under a lock, or sent as barriers) cannot share; read "
                + "with a plain sync on the concurrent queue")
        }
        guard record.ending == .exited(code: 0) else { return nil }
        return CheckFinding(holds: false, "no two reads of the person ever ran at once: readers must share its queue")
    }
}
