// Level: two locks taken in opposite orders. A transfer from A to B locks A then B; one from B to A locks B then A.
import LessonKit
import PageProtocol

let level = Level(LevelDescription(
    name: "lock-order",
    version: 1,
    title: "Two locks, opposite orders",
    page: nil,
    introduction: """
        Two accounts, A and B, each have a lock. A transfer locks both accounts before it moves money, so no one \
        sees the money in neither. T1 transfers from A to B, three times, and locks A, then B; T2 transfers from B to A, \
        three times, and locks B, then A. Each lock is released in the reverse order it was taken. Step the threads so that neither can \
        go on.
        """,
    hints: [
        "A thread that asks for a lock another holds is blocked until that one unlocks it.",
        "What if each thread holds its first lock when it asks for its second?",
        "1, 2: T1 holds A, T2 holds B; now each waits for the other's.",
    ],
    goal: "a deadlock: threads alive and none able to step",
    fix: "both transfers take the locks in one order, A before B, whichever way the money goes",
    threads: ["T1", "T2"]
)) { run in
    let a = run.lock("A")
    let b = run.lock("B")
    let balanceA = run.shared("A's balance", 100)
    let balanceB = run.shared("B's balance", 100)
    /// Moves 10 from `from` to `to`, holding `first` then `second`.
    @Sendable func transfer(from: Shared<Int>, to: Shared<Int>, first: GatedLock, second: GatedLock) {
        first.lock()
        second.lock()
        from.store(from.load() - 10)
        to.store(to.load() + 10)
        second.unlock()
        first.unlock()
    }
    run.thread(1) {
        for _ in 1...3 { transfer(from: balanceA, to: balanceB, first: a, second: b) }
    }
    run.thread(2) {
        for _ in 1...3 {
            if run.fixed {
                transfer(from: balanceB, to: balanceA, first: a, second: b)
            } else {
                transfer(from: balanceB, to: balanceA, first: b, second: a)
            }
        }
    }
    return {
        balanceA.value + balanceB.value == 200 ? nil
            : LevelFailure(kind: .lostUpdate, message: "the balances add up to \(balanceA.value + balanceB.value); 200 was expected")
    }
}

LevelMain.run(level)
