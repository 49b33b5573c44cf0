/*:
 # Barrier

 Running work concurrently is half the job; the other half is the state that work shares. An object that is changed from several threads at once, with nothing to order the changes, ends up in a state nobody asked for. This page breaks an object that way, repairs it with a dispatch barrier, and lets a tool prove which of the two is safe.
 */
import Foundation
import LessonKit
import Synchronization

/// Which person's experiment a run performs; the Thread Sanitizer run uses this to race one person at a time.
enum People: String, CaseIterable {
    case both, unsafe, safe
}

//: - experiment: Run the page a few times: the unsafe person's final name changes from run to run, the safe person's never mixes. Set `people` to race only one of them.
let people = knob("people", default: People.both, "which person is raced: both, or only the unsafe or the safe one")
let threadSanitizer = knob("threadSanitizer", default: false, "rebuild this page with Thread Sanitizer and run each person's race under it")

/*:
 ## A person with a slow name change

 A `Person` has a first and a last name, and changing them takes a moment between the two: think of a database write for each. Nothing is wrong with this class as long as one thread uses it.

 - important: Swift 6 will not let a class with mutable properties be shared between threads: it is not `Sendable`. Writing `@unchecked Sendable` switches that check off for the class. It is a promise to the compiler that the class protects its own state, and this class breaks it. That is exactly what the rest of the page is about.
 */
class Person: @unchecked Sendable {
    private var firstName: String
    private var lastName: String

    init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }

    func changeName(firstName: String, lastName: String) {
        Simulated.wait(.random(in: 0...0.1))
        self.firstName = firstName
        Simulated.wait(.random(in: 0...0.4))
        self.lastName = lastName
    }

    var name: String {
        "\(firstName) \(lastName)"
    }
}

let newNames = [("Charlie", "Cheesecake"), ("Delia", "Dingle"), ("Eva", "Evershed"), ("Freddie", "Frost"), ("Gina", "Gregory")]

/*:
 ## Changing it from five places at once

 Five clients, each with a serial queue of its own as five separate parts of an app would have, each change the name and then read it back. They run side by side, so one client's first name can meet another client's last name: a person called "Eva Dingle" that nobody ever named. Which mixture you get depends on the timing of that run.
 */
let clients = newNames.indices.map { DispatchQueue(label: "tour.barrier.client\($0 + 1)") }

if people != .safe {
    let person = Person(firstName: "Alison", lastName: "Anderson")
    let changes = DispatchGroup()
    for ((first, last), client) in zip(newNames, clients) {
        client.async(group: changes) {
            trace("change to \(first) \(last)") {
                person.changeName(firstName: first, lastName: last)
            }
            print("Unsafe person is now: \(person.name)")
        }
    }
    changes.wait()
    print("Unsafe person's final name: \(person.name)")
}

/*:
 - note: A race on a `String` can do worse than mix two names. A string is more than one machine word, and two writes at the same moment can leave half of each: under Thread Sanitizer's slower timing this page once printed `Gina` followed by stray blanks, a first name neither client wrote. Longer strings live on the heap, and there the same race can crash the program. That is why Swift 6 refuses to share such a class unless someone promises, wrongly here, that it is safe.
 */

/*:
 ## Readers and writers, with a barrier

 The fix gives the person a private **isolation queue**, a concurrent one, and sends every access through it:

 * a read is a `sync` block: the caller waits for the answer, and any number of reads may run at the same time, because reading does not change anything;
 * a write is an `async` block with the `.barrier` flag: the queue lets the blocks already running finish, runs the barrier **alone**, and only then starts what came after it. The caller does not wait.

 This is the readers–writer pattern: many readers or one writer, never both. A read that comes after a write waits for it, so no read can see half a change.
 */
final class ThreadSafePerson: Person, @unchecked Sendable {
    private let isolation = DispatchQueue(label: "tour.barrier.isolation", attributes: .concurrent)

    override func changeName(firstName: String, lastName: String) {
        isolation.async(flags: .barrier) {
            trace("write \(firstName) \(lastName)") {
                super.changeName(firstName: firstName, lastName: lastName)
            }
        }
    }

    override var name: String {
        isolation.sync {
            trace("read name") {
                // A read takes a moment too, so several readers can be seen sharing the queue.
                Simulated.wait(0.02)
                return super.name
            }
        }
    }
}

if people != .unsafe {
    let person = ThreadSafePerson(firstName: "Anna", lastName: "Adams")
    let changes = DispatchGroup()
    for ((first, last), client) in zip(newNames, clients) {
        client.async(group: changes) {
            person.changeName(firstName: first, lastName: last)
            print("Thread-safe person is now: \(person.name)")
        }
    }
    changes.wait()
    print("Thread-safe person's final name: \(person.name)")
}

/*:
 - note: The writes still happen in whatever order the clients reach the isolation queue, so the final name is any one of the five. What the barrier guarantees is that it is always a whole name.

 - important: Why five serial queues, and not five blocks on one concurrent queue as an Apple example would use? Because of the thread pool on Linux. Blocks on a concurrent queue share the pool, which starts as wide as the cores. If every pool thread is a client blocked in a `sync` read, waiting for a barrier, the barrier itself has no thread to run on. Apple's kernel notices blocked pool threads and adds one at once; libdispatch on Linux adds one only after a while, and in our runs the page then stood still for up to four seconds, differently each time. A serial queue you create gets a thread outside that pool, so it cannot starve it.

 ## A barrier on a global queue is no barrier

 The barrier flag works only on a concurrent queue **you created**. On a global queue, shared by the whole process, libdispatch cannot hold everyone else back, so it ignores the flag and the "barrier" runs like any other block. The same five half-second blocks go to each kind of queue, the middle one flagged as a barrier, and the page checks what ran while the barrier did.
 */
final class RunLog: Sendable {
    private let entries = Mutex<[(name: String, start: DispatchTime, end: DispatchTime)]>([])

    func record(_ name: String, from start: DispatchTime, to end: DispatchTime) {
        entries.withLock { $0.append((name, start, end)) }
    }

    /// The names of the entries that were running at some moment while `name` ran.
    func overlapping(_ name: String) -> [String] {
        entries.withLock { entries in
            guard let target = entries.first(where: { $0.name == name }) else { return [] }
            return entries.filter { $0.name != name && $0.start < target.end && target.start < $0.end }.map(\.name).sorted()
        }
    }
}

func barrierExperiment(on queue: DispatchQueue, title: String) -> [String] {
    let log = RunLog()
    let batch = DispatchGroup()
    let blocks: [(name: String, seconds: Double, flags: DispatchWorkItemFlags)] = [
        ("block 1", 0.5, []), ("block 2", 0.5, []), ("barrier", 0.5, .barrier), ("block 3", 0.5, []), ("block 4", 0.5, []),
    ]
    for (name, seconds, flags) in blocks {
        queue.async(group: batch, flags: flags) {
            let start = DispatchTime.now()
            trace("\(title) \(name)") { Simulated.wait(seconds) }
            log.record(name, from: start, to: .now())
        }
    }
    batch.wait()
    let overlapping = log.overlapping("barrier")
    print("On the \(title), the barrier ran alongside: \(overlapping.isEmpty ? "nothing" : overlapping.joined(separator: ", "))")
    return overlapping
}

if people == .both {
    let ownQueue = DispatchQueue(label: "tour.barrier.experiment", attributes: .concurrent)
    peek(barrierExperiment(on: ownQueue, title: "custom queue"))
    peek(barrierExperiment(on: .global(), title: "global queue"))
}

/*:
 ## Proving it with Thread Sanitizer

 A race that happens to give a sensible answer is still a race, and the next run may not be so lucky. **Thread Sanitizer** (TSan) finds races whether or not they show: the compiler instruments every memory access, and at run time TSan tracks which accesses are ordered by locks, queues and other synchronisation. Two accesses to the same memory from different threads, at least one a write, with nothing ordering them: that is reported, with both stacks.

 It works with Swift on Linux. This knob rebuilds this very page with `--sanitize=thread`, in a build folder of its own (`.build/tsan`) so your normal build is untouched, and runs the instrumented program twice more, with the knob off and `people` set: once racing only the unsafe person, once only the safe one. TSan names Swift functions in their mangled form; the report goes through `swift demangle --simplified` on its way here.

 Expect several warnings for the unsafe person (the page shows the first in full and the summary line of each other): a write in `changeName` on one worker thread, an access to the same name on another, both stacks, and the hint "As if synchronized via sleep": the only thing keeping those accesses apart was a sleep, which orders nothing. For the safe person expect none: TSan understands libdispatch on Linux too, so it knows that a barrier block and a `sync` read on the same queue never overlap.

 - experiment: Set `threadSanitizer` to true. The first build takes a while (it compiles LessonKit again, instrumented); after that it is quick.
 */
if threadSanitizer {
    let sanitized = ThreadSanitizerRun(product: "Lesson08Barrier")
    if sanitized.build() {
        for racer in People.allCases where racer != .both && (people == .both || people == racer) {
            sanitized.run(knobs: ["people=\(racer.rawValue)"], title: "the \(racer.rawValue) person")
        }
    }
}

//: That is the end of the tour. Every page is a program you can run again with other knobs; go back to any of them. [Previous: Groups](@previous)
switch people {
case .both: print("Done: an unsafe person, a safe one behind a barrier, and a barrier that only works on a queue of your own.")
case .unsafe, .safe: print("Done: the \(people.rawValue) person's race alone.")
}
