// Level: a lost update. Two threads each add one to a shared count, three times; `count += 1` is a load and a store, and another
// thread can step between them. Drawn from page 8's unsafe person, whose writes nothing orders.
import LessonKit
import PageProtocol

let level = Level(LevelDescription(
    name: "lost-update",
    version: 1,
    title: "A lost update",
    page: 8,
    introduction: """
        Two threads each add one, three times, to a shared count that starts at 0, so it should end at 6. In the machine, \
        `count += 1` is two steps: a load of count into a register, then a store of the register plus one. Nothing \
        orders the two threads' steps, as nothing ordered the writes of page 8's unsafe person. Step the threads so \
        that the count ends below 6.
        """,
    hints: [
        "Each thread's store writes what that thread loaded, plus one, whatever happened in between.",
        "Let both threads load before either stores.",
        "1, 2, 1, 2: both load 0, both store 1, and one increment is gone.",
    ],
    goal: "count is less than 6 once both threads have finished",
    fix: "each thread holds a lock from its load to its store, so no thread can load between another's load and store",
    threads: ["T1", "T2"]
)) { run in
    let count = run.shared("count", 0)
    let lock = run.lock("L")
    /// `count += 1`, as the machine runs it: a load, then a store.
    @Sendable func addOne() {
        if run.fixed {
            lock.withLock {
                let value = count.load()
                count.store(value + 1)
            }
        } else {
            let value = count.load()
            count.store(value + 1)
        }
    }
    run.thread(1) { for _ in 1...3 { addOne() } }
    run.thread(2) { for _ in 1...3 { addOne() } }
    return {
        count.value == 6 ? nil
            : LevelFailure(kind: .lostUpdate, message: "count is \(count.value) after six increments; 6 was expected")
    }
}

LevelMain.run(level)
