/*:
 # Test variant: page 11's exercise with only the first step done

 The balance can no longer go below zero: `withdraw` takes the money straight after its check, with no `await`
 between them. But it pays before the fraud check has approved the payment, which the task forbids, and the check
 must fail it.
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
        balance -= amount
        Bank.paid(client, amount, balance: balance)
        await Bank.fraudCheck(amount, for: client)
        return true
    }
}

//: ## The clients (leave them as they are)

// A withdraws 70 and B 60 at once, each in a child task of a group. `Bank.runClients` is in LessonKit, with the
// fraud check's hold.
await Bank.runClients(on: Account())
