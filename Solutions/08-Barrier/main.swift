/*:
 # Solution: a person behind a barrier

 The reference solution of `Exercises/08-Barrier/main.swift`: the person reads on its own concurrent queue with a plain
 `sync`, and writes with an `async` barrier, so many readers or one writer use it at a time, never both. The rest of
 the program is the exercise's, unchanged.
 */
import Foundation
import LessonKit

//: ## The person, made thread-safe

/// A person whose name changes in two slow steps, safe to use from many threads at once.
///
/// The promise of `@unchecked Sendable` is kept: after `init`, the names are touched only inside blocks on
/// `isolation`, and the barrier orders every write before or after every other access.
final class Person: LedgerPerson, @unchecked Sendable {
    private var firstName: String
    private var lastName: String
    /// Concurrent, so reads share it; a barrier block on it runs alone.
    private let isolation = DispatchQueue(label: "tour.person", attributes: .concurrent)

    init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }

    /// A barrier: it starts once the reads before it have finished, runs alone, and the caller goes on at once.
    func changeName(firstName: String, lastName: String) {
        isolation.async(flags: .barrier) {
            Ledger.write(firstName, lastName) { midway in
                self.firstName = firstName
                midway()
                self.lastName = lastName
            }
        }
    }

    /// A plain `sync` block: the caller waits for the answer, and any number of reads run at once, never beside a write.
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
