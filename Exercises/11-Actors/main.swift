/*:
 # Exercise: the balance that changed across an await

 `Account` below is an actor: it runs one piece of its code at a time, and nothing outside it can touch its balance.
 Yet two clients, A taking 70 and B taking 60, both get their money from a balance of 100, and it ends at -30.

 `withdraw` checks the balance, then awaits the bank's fraud check, and only then takes the money. At that `await`
 the actor does not wait with it: it is free, and runs the other client's withdrawal, which checks the same balance
 of 100 and passes too. When the two resume, both subtract. Every access was isolated, so there is no data race and
 the compiler is content: the bug is in the order of the steps. This is actor *reentrancy*.

 Your task: change `withdraw` so that the balance can never go below zero, whatever ran during its `await`. Keep
 the fraud check: no money may go before it has approved the payment. Do not assume after an `await` what you
 checked before it: check again once the `await` is behind you (or take the money first, and give it back if the
 check says no).

 ## What the check looks at

 `tour check 11` (or `c` in the tutorial) runs this program and reads its trace, never what it prints:

 - both withdrawals ran to their end, and were in the actor at the same time (one suspended at its fraud check);
 - each client was either paid or declined, and every payment came after its own fraud check had approved it;
 - the balance ended at 100 less what was paid, and never below zero.

 - note: So that the two withdrawals interleave on every run, on any machine, the fraud check answers a withdrawal
   only once the other has reached the fraud check too, or has ended (the hold is in LessonKit, with `Bank`). A
   withdrawal that waits for the other to end before it goes on therefore never ends: the check stops such a run and
   says which withdrawal it stopped in.

 Keep the calls to `Bank`: they make the spans and marks the check reads. `tour hint 11` gives a hint;
 `tour solution 11` opens the reference solution once the check has passed, or after two hints.
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
        balance -= amount
        Bank.paid(client, amount, balance: balance)
        return true
    }
}

//: ## The clients (leave them as they are)

// A withdraws 70 and B 60 at once, each in a child task of a group. `Bank.runClients` is in LessonKit, with the
// fraud check's hold.
await Bank.runClients(on: Account())
