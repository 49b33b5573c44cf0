// The exercise of page 6 with the body of `post(_:)` deleted: it runs, ends normally and makes no deposit.
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
        ledger.sync {
            trace("deposit \(amount)") {
                balance += amount
                Simulated.wait(0.1) // writing the entry down
            }
        }
    }

    /// Makes every deposit of `amounts` in one block on the ledger, so nothing else comes between them.
    func post(_ amounts: [Int]) {
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
