/*:
 # Solution: remove the deadlock

 The work a deposit does is split from the way onto the ledger. `record(_:)` changes the balance and assumes it is already on the ledger (`dispatchPrecondition` says so, and stops the program if it is not); `deposit(_:)` gets onto the ledger with `sync` and records; `post(_:)`, whose block is on the ledger already, records each amount directly. No code on the ledger calls `sync` on the ledger, so nothing waits for itself, and every change still runs on the ledger, one at a time.

 The other common fix, a recursive lock, has no counterpart in dispatch: a serial queue is not reentrant, by design.
 */
import Foundation
import LessonKit

/// A balance that only its ledger queue touches.
///
/// `@unchecked Sendable`: the compiler cannot see that a serial queue guards `balance`; every access runs on `ledger`.
final class Account: @unchecked Sendable {
    private let ledger = DispatchQueue(label: "tour.gcd.ledger")
    private var balance = 0

    /// Adds `amount` to the balance, on the ledger.
    func deposit(_ amount: Int) {
        ledger.sync { record(amount) }
    }

    /// Makes every deposit of `amounts` in one block on the ledger, so nothing else comes between them.
    func post(_ amounts: [Int]) {
        ledger.async {
            trace("post the day's deposits") {
                for amount in amounts {
                    self.record(amount)
                }
            }
        }
    }

    /// Adds `amount` to the balance; only for code already running on the ledger.
    private func record(_ amount: Int) {
        dispatchPrecondition(condition: .onQueue(ledger))
        trace("deposit \(amount)") {
            balance += amount
            Simulated.wait(0.1) // writing the entry down
        }
    }

    /// The balance, once everything sent to the ledger before this call has run.
    var currentBalance: Int {
        ledger.sync { balance }
    }
}

let account = Account()
print("Posting the day's deposits on the ledger")
account.post([10, 20, 30, 40])
print("Balance after the day: \(account.currentBalance)")
