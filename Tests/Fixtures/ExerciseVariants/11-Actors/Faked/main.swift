// Runs page 11's clients on an account that only pretends: it marks A paid and B declined, as a right answer would,
// and prints what the reference solution prints, without a fraud check or a balance of its own. Calling the harness
// is not enough: the check must still fail.
import LessonKit

actor PretendAccount: BankAccount {
    var balance: Int { 30 }

    func withdraw(_ amount: Int, for client: String) async -> Bool {
        guard client == "A" else {
            Bank.declined(client, amount, balance: 30)
            return false
        }
        Bank.paid(client, amount, balance: 30)
        return true
    }
}

await Bank.runClients(on: PretendAccount())
