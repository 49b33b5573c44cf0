// Level: pool starvation (page 14). Two tasks block on a semaphore that a third task will signal, on a pool of two
// threads: blocked, they hold both, and the third never gets one to run on.
import LessonKit
import PageProtocol

let level = Level(LevelDescription(
    name: "pool-starvation",
    version: 1,
    title: "When the pool runs dry",
    page: 14,
    introduction: """
        Tasks run on a pool of threads as wide as the machine's CPUs: two, on a two-core machine, and two here on \
        every machine. T1 and T2 each wait for a result with `semaphore.wait()`, which blocks the thread the task \
        runs on, as page 14 did on purpose. T3 computes the results and signals the semaphore twice; it is a task \
        too, and needs a thread of the pool to start. A task suspended at an `await` holds no thread; a task \
        blocked in `wait` holds its own. Find the schedule where nothing can run.
        """,
    hints: [
        "Which tasks hold a thread of the pool while they wait?",
        "What does T3 need before it can signal anything?",
        "Start T1 and T2 first, and bring both to their wait.",
    ],
    goal: "a deadlock: the waiting tasks hold every pool thread, and the task that would signal them has none",
    fix: "the waiting tasks await the semaphore instead of blocking on it, so a task that waits gives its thread back",
    threads: ["T1", "T2", "T3"]
)) { run in
    let pool = run.pool("the pool", width: 2)
    let results = run.semaphore("results", value: 0)
    for waiter in 1...2 {
        pool.task(waiter) {
            if run.fixed {
                await results.waitSuspending()
            } else {
                results.wait()
            }
        }
    }
    pool.task(3) {
        results.signal()
        results.signal()
    }
    // Every task reaching its end is the check: the failure is the deadlock, which the scheduler finds on its own.
    return { nil }
}

LevelMain.run(level)
