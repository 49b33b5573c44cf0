/*:
 # Exercise: a person behind a barrier

 The `Person` below changes its name in two slow steps, the first name and then, a moment later, the last, and
 nothing stops another thread from reading it in between. Three writers change the name while three readers read it,
 each from a serial queue of its own, as on the page. Make `Person` thread-safe the way the page does, with the
 readers–writer pattern:

 1. Give `Person` a private concurrent queue of its own, such as `DispatchQueue(label: "tour.person", attributes: .concurrent)`.
 2. Read the name in a plain `sync` block on that queue: the caller gets its answer, and readers share the queue.
 3. Change the name in an `async` block with the `.barrier` flag: it waits for the reads already running, runs alone,
    holds back whatever comes after it, and its caller does not wait.

 Keep the calls to `Ledger.write` and `Ledger.read`, and put them inside your blocks: they make a span on the timeline
 of every write and every read of the person, on the thread and the queue that ran it, and the check reads those spans.

 ## What the check looks at

 `tour check 8` runs this program and judges it by what its threads did, never by what it prints:

 - every write and every read of the person ran;
 - no write ran while any other read or write of the person did;
 - each writer went on before its write had finished: a barrier write is asynchronous;
 - all the reads and writes ran on one queue, the person's own, not on the clients' queues or a global queue;
 - the two readers at the end read side by side: readers share the queue.

 It also builds the program with Thread Sanitizer, in a build folder of its own (`.build/tsan`), runs it again, and
 fails on any data race it reports.

 - note: So that a race shows on every run, not once in a while, each write holds still after storing the first name
   until a read of the person has started or the writer that asked for it has gone on, and each reader waits until
   its write has got that far. Without a barrier the read gets in every time. With one it cannot, and the write goes on
   because its writer did. The two readers at the end each wait, inside their read, until the other has started
   reading. These holds, and the clients, are in LessonKit (`Ledger`, in
   `Sources/LessonKit/ExerciseScaffolding/BarrierExercise.swift`); you need not change them.

 Check it with `tour check 8`; `tour hint 8` gives a hint, a nudge first and nearly the answer last.
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
        Ledger.write(firstName, lastName) { midway in
            self.firstName = firstName
            midway()
            self.lastName = lastName
        }
    }

    var name: String {
        Ledger.read { "\(firstName) \(lastName)" }
    }
}

//: ## The clients (leave them as they are)

// Three writers and three readers at once, each on a serial queue of its own, then two readers side by side, as on
// the page. `Ledger.runClients` is in LessonKit, with the ledger's holds.
Ledger.runClients(on: Person(firstName: "Anna", lastName: "Adams"))
