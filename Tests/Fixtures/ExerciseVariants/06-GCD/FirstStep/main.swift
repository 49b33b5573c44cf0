/*:
 # Test variant: page 6's exercise with only the first step done

 The deadlock is gone the quickest way: `post(_:)` no longer runs on the ledger, so `deposit(_:)`'s `sync` no longer
 waits for a block that holds the queue, and the program runs to its end. But each deposit now takes the ledger on
 its own, one `sync` after another from the main thread, so other work could come between them. The check must
 fail it.
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
        ledger.sync {
            trace("deposit \(amount)") {
                balance += amount
                Simulated.wait(0.1) // writing the entry down
            }
        }
    }

    /// Makes every deposit of `amounts` in one block on the ledger, so nothing else comes between them.
    func post(_ amounts: [Int]) {
        trace("post the day's deposits") {
            for amount in amounts {
                deposit(amount)
            }
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
