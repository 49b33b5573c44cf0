/*:
 # Test variant: page 8's exercise with only the first step done

 `Person` has a private concurrent queue of its own, and every read and every write of the name runs on it in a
 plain `sync` block; but no write is a barrier, so on a concurrent queue a write runs beside the reads, and a read
 still sees a name changed halfway. The check must fail it.
 */
import Foundation
import LessonKit

//: ## Yours to change

/// A person whose name changes in two slow steps. Make it safe to use from many threads at once.
///
/// `@unchecked Sendable` is a promise to the compiler that the class orders access to its own state. As given, it
/// breaks that promise: nothing orders its writes. Keep the promise.
final class Person: LedgerPerson, @unchecked Sendable {
    private var firstName: String
    private var lastName: String
    private let isolation = DispatchQueue(label: "tour.person", attributes: .concurrent)

    init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }

    func changeName(firstName: String, lastName: String) {
        isolation.sync {
            Ledger.write(firstName, lastName) { midway in
                self.firstName = firstName
                midway()
                self.lastName = lastName
            }
        }
    }

    var name: String {
        isolation.sync {
            Ledger.read { "\(firstName) \(lastName)" }
        }
    }
}

//: ## The clients (leave them as they are)

// Three writers and three readers at once, each on a serial queue of its own, then two readers side by side, as on
// the page. `Ledger.runClients` is in LessonKit, with the ledger's holds.
Ledger.runClients(on: Person(firstName: "Anna", lastName: "Adams"))
