// Level: actor reentrancy across an `await` (page 11). An account actor checks the balance, awaits the bank's
// approval, then withdraws: while it awaits, the actor runs another call.
import LessonKit
import PageProtocol

/// An account: a real actor, so no two of its methods ever run at once. Its balance and what it paid out are `Shared`
/// only so that their loads and stores show as steps.
actor Account {
    let balance: Shared<Int>
    let paidOut: Shared<Int>
    let model: GatedActor
    let fixed: Bool

    init(_ run: LevelRun, model: GatedActor) {
        balance = run.shared("balance", 100)
        paidOut = run.shared("paid out", 0)
        self.model = model
        fixed = run.fixed
    }

    /// Pays out `amount` if the balance covers it, once the bank approves.
    func withdraw(_ amount: Int) async -> Bool {
        let before = balance.load()
        guard before >= amount else { return false }
        await model.await("approval(\(amount))") { await approval(amount) }
        if fixed {
            // The balance may have changed during the await: check it again, with no await between the check and the store.
            let now = balance.load()
            guard now >= amount else { return false }
            balance.store(now - amount)
        } else {
            balance.store(before - amount)
        }
        paidOut.store(paidOut.load() + amount)
        return true
    }
}

/// The bank's approval of a withdrawal: a call to another service, off the actor, which the withdrawal awaits.
@concurrent func approval(_ amount: Int) async {}

let level = Level(LevelDescription(
    name: "actor-reentrancy",
    version: 1,
    title: "An actor across an await",
    page: 11,
    introduction: """
        An account is an actor, as on page 11: two of its methods never run at once, so its balance can never be \
        torn. Three ATMs each withdraw 40 from a balance of 100; `withdraw` checks the balance, awaits the bank's \
        approval, then stores the balance less the amount and pays out. Only two of the three should be paid. But an \
        actor is free while one of its methods awaits: another call may run on it then. Make the account pay out \
        more than it held.
        """,
    hints: [
        "While ATM 1 awaits its approval, who may run on the account?",
        "What balance does ATM 1 store after its await: the one it loaded before it, or the one now?",
        "Let every ATM load the balance, and await, before any comes back.",
    ],
    goal: "the account pays out more than the 100 it held",
    fix: "withdraw loads the balance again after the await and checks it there, with no await between that check and its store",
    threads: ["ATM 1", "ATM 2", "ATM 3"]
)) { run in
    let model = run.actor("account")
    let account = Account(run, model: model)
    for atm in 1...3 {
        run.task(atm) {
            _ = await model.call("withdraw(40)") { await account.withdraw(40) }
        }
    }
    return {
        let paid = account.paidOut.value
        return paid <= 100 ? nil
            : LevelFailure(kind: .assertion, message: "the account paid out \(paid) from a balance of 100 and shows \(account.balance.value)")
    }
}

LevelMain.run(level)
