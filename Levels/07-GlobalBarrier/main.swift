// Level: a barrier sent to a global queue (page 8). A person's name is written with a barrier block and read with
// `sync`; on one of GCD's global queues the barrier flag does nothing.
import Foundation
import LessonKit
import PageProtocol

let level = Level(LevelDescription(
    name: "global-barrier",
    version: 1,
    title: "A barrier on a global queue",
    page: 8,
    introduction: """
        Page 8 repaired its person with a barrier: reads are `sync` blocks on a concurrent queue, and a name change \
        is a block sent with `flags: .barrier`, which waits for the reads running on the queue and runs alone. Here \
        the person's queue is `DispatchQueue.global()`, one of GCD's own. T1 changes the name from Alison Anderson \
        to Bob Brown, a first name then a last name; T2 and T3 each read the whole name. GCD's documentation says \
        what a barrier does on a global queue. Make a reader see a name nobody set.
        """,
    hints: [
        "Is T2's read blocked while T1's barrier block runs?",
        "On a global queue, a barrier block behaves like any other block sent with sync.",
        "Step T1 into its barrier block and store the first name, then let T2 read both names.",
    ],
    goal: "a reader sees a name nobody set: Bob Anderson",
    fix: "the person has a concurrent queue of its own (DispatchQueue(label:attributes: .concurrent)), on which a barrier block runs alone",
    threads: ["writer", "reader 1", "reader 2"]
)) { run in
    let queue = run.concurrentQueue("person", global: !run.fixed)
    let firstName = run.shared("first name", "Alison")
    let lastName = run.shared("last name", "Anderson")
    let seen = Seen()
    run.thread(1) {
        queue.barrierSync {
            firstName.store("Bob")
            lastName.store("Brown")
        }
    }
    for reader in 2...3 {
        run.thread(reader) {
            let name = queue.sync { "\(firstName.load()) \(lastName.load())" }
            seen.add(name)
        }
    }
    return {
        let torn = seen.names.filter { !["Alison Anderson", "Bob Brown"].contains($0) }
        return torn.first.map { LevelFailure(kind: .assertion, message: "a reader saw \($0), a name nobody set") }
    }
}

/// The names the readers saw: the level's own bookkeeping behind a plain lock, not a step.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []

    func add(_ name: String) { lock.withLock { seen.append(name) } }

    var names: [String] { lock.withLock { seen } }
}

LevelMain.run(level)
