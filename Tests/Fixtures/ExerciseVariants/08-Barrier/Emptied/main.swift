/*:
 # Test variant: the exercise with its body deleted

 `Exercises/08-Barrier/main.swift` with the bodies of `Person.changeName` and `Person.name` deleted, for the check's
 tests: nothing writes or reads the person, so each reader waits for a write that never comes, and the check must fail.
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

    init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }

    func changeName(firstName: String, lastName: String) {
    }

    var name: String {
        ""
    }
}

//: ## The clients (leave them as they are)

// Three writers and three readers at once, each on a serial queue of its own, then two readers side by side, as on
// the page. `Ledger.runClients` is in LessonKit, with the ledger's holds.
Ledger.runClients(on: Person(firstName: "Anna", lastName: "Adams"))
