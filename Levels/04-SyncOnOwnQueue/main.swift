// Level: `sync` onto the queue you are on (page 6). A log's serial queue orders its writes; `flush` runs on that queue
// and records that it flushed through the same `record` every caller uses, which sends a block to the queue with `sync`.
import LessonKit
import PageProtocol

let level = Level(LevelDescription(
    name: "sync-on-own-queue",
    version: 1,
    title: "sync onto the queue you are on",
    page: 6,
    introduction: """
        A log keeps its count of entries behind a serial queue, as page 6 did: `record` sends a block with `sync`, \
        which waits until the queue has run it. T1 records an entry and then flushes the log; `flush` runs on the \
        queue and records that it flushed, through `record`. T2 records four entries of its own. A `sync` waits for the \
        queue to be free, and while a block sent with `sync` runs, the queue is not. Find the step nobody can take.
        """,
    hints: [
        "While T1 is inside flush's block, who holds the log's queue?",
        "record's sync waits for the queue to finish what it runs now. What does it run now?",
        "Any schedule will do: once T1 is inside flush, its record waits for itself. GCD would trap there, with 'dispatch_sync called on queue already owned by current thread'.",
    ],
    goal: "a deadlock: threads alive and none able to step",
    fix: "flush, already on the queue, counts its entry directly instead of through record's sync",
    threads: ["T1", "T2"]
)) { run in
    let queue = run.serialQueue("log")
    let entries = run.shared("entries", 0)
    let countEntry: @Sendable () -> Void = { entries.store(entries.load() + 1) }
    let record: @Sendable () -> Void = { queue.sync(countEntry) }
    run.thread(1) {
        record()
        queue.sync {
            if run.fixed {
                countEntry()
            } else {
                record()
            }
        }
    }
    run.thread(2) { for _ in 1...4 { record() } }
    return {
        entries.value == 6 ? nil
            : LevelFailure(kind: .lostUpdate, message: "the log counted \(entries.value) entries; 6 were recorded")
    }
}

LevelMain.run(level)
