/*:
 # Exercise: remove the deadlock

 An account keeps its balance on a serial queue of its own, `tour.gcd.ledger`: every change and every read of the balance runs there, one block at a time, so no two threads ever touch it at once. `deposit(_:)` makes one change with `ledger.sync`.

 `post(_:)` makes a whole day's deposits in one block on the ledger, so that nothing else can come between them. As written it stops the program at its first deposit: the posting block is running on the ledger, and `deposit(_:)` calls `ledger.sync` from inside it. `sync` waits until the queue is free, and the queue is held by the very block that waits. libdispatch sees that the thread asking to wait owns the queue, and rather than hang for ever it stops the process with an illegal instruction (`SIGILL`), printing nothing.

 Your task: change `Account` so that `post(_:)` makes its four deposits and the program runs to its end.

 `tour check 6` runs this file and judges it by what its threads did, not by what it prints:
 - the program ends normally: no libdispatch trap, no hang;
 - each of the four `deposit` spans ran on the queue `tour.gcd.ledger`, one at a time, in the order posted;
 - all four ran inside the `post the day's deposits` block, on its thread, and that block ran on `tour.gcd.ledger`, so nothing came between them.

 Keep the names given to `trace`: the check reads them. `tour hint 6` gives a hint; `tour run` shows the timeline.
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
        ledger.async {
            trace("post the day's deposits") {
                for amount in amounts {
                    self.deposit(amount)
                }
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
