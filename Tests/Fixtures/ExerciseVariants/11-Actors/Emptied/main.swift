// The exercise of page 11 with the body of withdraw deleted: the clients and the bank are there, but no withdrawal
// checks, pays or declines anything, and the program ends at once, normally.
import LessonKit

//: ## Yours to change

actor Account: BankAccount {
    private(set) var balance = 100

    func withdraw(_ amount: Int, for client: String) async -> Bool {
        false
    }
}

//: ## The clients (leave them as they are)

// A withdraws 70 and B 60 at once, each in a child task of a group. `Bank.runClients` is in LessonKit, with the
// fraud check's hold.
await Bank.runClients(on: Account())
