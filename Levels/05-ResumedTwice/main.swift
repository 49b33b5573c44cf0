// Level: a continuation resumed twice, when a timeout races a callback (page 9). A download's callback and a timeout
// both finish one `withCheckedContinuation`; a flag is meant to let only the first of them resume it.
import LessonKit
import PageProtocol

let level = Level(LevelDescription(
    name: "resumed-twice",
    version: 1,
    title: "A timeout races a callback",
    page: 9,
    introduction: """
        Page 9 wrapped a callback in `withCheckedContinuation` so a task could await it. Here the wrapper adds a \
        timeout: T1 is the download, which reports its progress twice and then calls back with the photo; T2 is the \
        timer, which gives up with "timed out". Whichever comes first should resume the awaiting task; a flag, \
        `finished`, is meant to make the other do nothing. A checked continuation must be resumed exactly once: \
        a second resume stops the program. Make it happen.
        """,
    hints: [
        "The flag is checked with one step and set with another.",
        "What does T2's check see if T1 has checked but not yet set the flag?",
        "Bring both threads to their check of `finished` before either sets it, then let both resume.",
    ],
    goal: "a crash: the continuation is resumed a second time",
    fix: "a lock makes the check and the set of `finished` one step for each thread, so only the first finisher resumes",
    threads: ["download", "timeout"]
)) { run in
    let progress = run.shared("progress", 0)
    let finished = run.shared("finished", false)
    let lock = run.lock("finishing")
    /// Resumes the awaiting task with `outcome` if nobody has yet.
    @Sendable func finish(_ continuation: GatedContinuation<String>, with outcome: String) {
        if run.fixed {
            let first = lock.withLock {
                if finished.load() { return false }
                finished.store(true)
                return true
            }
            if first { continuation.resume(returning: outcome) }
        } else if !finished.load() {
            finished.store(true)
            continuation.resume(returning: outcome)
        }
    }
    /// The awaiting side: page 9's wrapper, with the timeout's thread beside the download's.
    @Sendable func download() async -> String {
        await withCheckedContinuation { real in
            let continuation = GatedContinuation("download", real, run: run)
            run.thread(1) {
                progress.store(50)
                progress.store(100)
                finish(continuation, with: "photo")
            }
            run.thread(2) { finish(continuation, with: "timed out") }
        }
    }
    Task { _ = await download() }
    // Reaching the end at all is the check: a second resume has stopped the program (or, in a search, the run).
    return { nil }
}

LevelMain.run(level)
