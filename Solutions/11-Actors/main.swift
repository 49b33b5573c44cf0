/*:
 # Solution: the balance that changed across an await

 `withdraw` checks the balance again after its `await`: while it was suspended at the fraud check, the actor ran the
 other withdrawal, and the balance it checked before may be gone. Between that second check and the subtraction
 there is no `await`, so nothing else can run on the actor in between: whichever client resumes first is paid, and
 the other is declined.
 */
import LessonKit

//: ## Yours to change

actor Account: BankAccount {
    private(set) var balance = 100

    /// Pays `amount` to `client` if the balance covers it and the fraud check approves; returns whether it paid.
    func withdraw(_ amount: Int, for client: String) async -> Bool {
        guard balance >= amount else {
            Bank.declined(client, amount, balance: balance)
            return false
        }
        await Bank.fraudCheck(amount, for: client)
        // Another withdrawal may have run while this one was suspended: what was checked before the await no longer
        // holds, so check it again, with no await between this check and the subtraction.
        guard balance >= amount else {
            Bank.declined(client, amount, balance: balance)
            return false
        }
        balance -= amount
        Bank.paid(client, amount, balance: balance)
        return true
    }
}

//: ## The clients (leave them as they are)

// A withdraws 70 and B 60 at once, each in a child task of a group. `Bank.runClients` is in LessonKit, with the
// fraud check's hold.
await Bank.runClients(on: Account())
