/*:
 # Actors

 Page 8 made a `Person` safe to share by hand: a private concurrent queue, reads with `sync`, writes with a barrier, and a promise to the compiler (`@unchecked Sendable`) that nobody could check but Thread Sanitizer. Swift Concurrency builds that pattern into the language. An **actor** owns its state, runs one piece of its code at a time, and the compiler refuses any access from outside that does not go through it. This page rewrites the person as an actor, shows the one bug an actor does not prevent, finds out where `@MainActor` work runs on Linux, and ends with `Mutex`, the modern lock.

 - speaker: Say: an actor is page 8's queue-protected person built into the language: it owns its state, runs one piece of its code at a time, and the compiler refuses any access that does not go through it. Point, on the first run, at the actor's spans: never two at once, however many clients call. Usual question: "is an actor a thread?" No: it borrows whatever thread the global executor gives it, one job at a time, like a serial queue.
 */
import Foundation
import LessonKit
import Synchronization

/// What the second experiment's actor does around its `await`.
enum Reentrancy: String, CaseIterable {
    /// Writes the first name, awaits, then writes the last name: the classic bug.
    case bug
    /// Awaits first, then writes both names with no `await` between them.
    case fixed
}

//: - experiment: Set `clients` from 1 to 8: however many tasks change the actor at once, its work never overlaps, and every name read back is whole.
let clients = knob("clients", default: 5, in: 1...8, "how many tasks change the actor person's name at the same time")
//: - experiment: Set `reentrancy` to `fixed`: the actor awaits before it changes anything, and the name it ends with is whole again.
let reentrancy = knob("reentrancy", default: Reentrancy.bug, "bug: the actor writes half the name, awaits, then writes the rest; fixed: it awaits first")

let newNames = [("Charlie", "Cheesecake"), ("Delia", "Dingle"), ("Eva", "Evershed"), ("Freddie", "Frost"),
                ("Gina", "Gregory"), ("Harry", "Hill"), ("Ines", "Ivy"), ("Jack", "Jones")]

/*:
 ## The person as an actor

 Page 8's `ThreadSafePerson` needed a queue, two kinds of block and a promise. The actor needs the word `actor`. Every call from outside is an `await`: the caller's task asks the actor to run the method, and is suspended until the actor gets to it. The actor runs its methods one at a time, on whatever thread the global executor gives it, like a serial queue that borrows threads.

 One difference from the barrier queue shows in the lanes: the barrier queue let several reads run together, and only a write ran alone. An actor runs **everything** alone, reads included: it has one kind of access, exclusive. The page's test checks it from the trace: of the actor's spans, never two at once.
 */
actor Person {
    private var firstName: String
    private var lastName: String

    init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }

    func changeName(firstName: String, lastName: String) {
        trace("actor writes \(firstName) \(lastName)") {
            Simulated.wait(0.02)
            self.firstName = firstName
            Simulated.wait(0.03)
            self.lastName = lastName
        }
    }

    var name: String {
        trace("actor reads name") {
            Simulated.wait(0.01)
            return "\(firstName) \(lastName)"
        }
    }
}

let person = Person(firstName: "Anna", lastName: "Adams")
await withTaskGroup(of: Void.self) { group in
    for (number, (first, last)) in newNames.prefix(clients).enumerated() {
        group.addTracedTask("client \(number + 1)") {
            await person.changeName(firstName: first, lastName: last)
            let name = await person.name
            mark("client \(number + 1) reads \(name)")
        }
    }
}
print("The actor person's final name: \(await person.name)")

/*:
 - note: `Simulated.wait` blocks its thread, as page 8's slow database did. Inside an actor that is bad manners: the global executor runs only as many jobs at once as there are cores, and a job that blocks keeps its place (page 9), so every other task, and the actor's waiting callers, lack it for as long as it blocks. It is here so the spans are long enough to see.

 - speaker: Point at the actor's spans end to end, never overlapping, and at the `reads` marks: every name read back is whole. Demo: set `clients` to 8 and run again: still one at a time. Usual question: "why `await` to read a property?" The read waits its turn like any call, so it never sees half a change.

 ## Reentrancy: the bug an actor does not prevent

 An actor runs one method at a time **between suspension points**. At an `await` inside its own method, the actor does not wait with it: it is free, and runs the next call that is waiting. When the first call resumes, the actor's state may have changed under it. This is *reentrancy*, and it is deliberate: an actor that stayed locked across its awaits would deadlock as soon as two of them waited for each other.

 The person below writes its first name, then awaits (a database save, a network call: here a `Gate`, a hold the page opens), then writes its last name. Client A starts a change to Charlie Cheesecake and reaches the await. Only then does the page start client B, Delia Dingle, which runs from start to end while A is suspended. Then the page opens A's gate. A resumes and finds the first name changed under it, to Delia, and finishes the name as Delia Cheesecake: a person nobody named. The holds make it happen on every run, whatever the machine's speed. Page 8's unsafe person mixed names because of a race between threads; this one does it on one actor, with no data race at all: every access was isolated. The compiler cannot catch it, because the bug is in the order of the steps, not in who may touch the state.

 The fix is the rule for actor code: do not assume across an `await` what you checked before it. Here, await first and then change the state in one step with no `await` inside (`reentrancy` set to `fixed`); elsewhere, read the state again after the `await`.

 - speaker: Point at B's two writes landing between A's first-name write and A's last-name write, and read the printed name aloud: Delia Cheesecake, on every run, because gates fix the order. Demo: set `reentrancy` to `fixed` and the name is whole. Usual question: "why doesn't the actor just wait?" An actor held across its awaits would deadlock as soon as two of them waited for each other.
 */
actor SlowSavingPerson {
    private var firstName = "Anna"
    private var lastName = "Adams"

    var name: String { "\(firstName) \(lastName)" }

    func changeName(firstName: String, lastName: String, client: String, saving gate: Gate?) async {
        switch reentrancy {
        case .bug:
            trace("\(client) writes first name \(firstName)") { self.firstName = firstName }
            if let gate {
                await gate.wait()
                mark("\(client) resumes and finds \(self.firstName) \(self.lastName)")
            }
            trace("\(client) writes last name \(lastName)") { self.lastName = lastName }
        case .fixed:
            if let gate {
                await gate.wait()
                mark("\(client) resumes and finds \(self.firstName) \(self.lastName)")
            }
            trace("\(client) writes \(firstName) \(lastName)") {
                self.firstName = firstName
                self.lastName = lastName
            }
        }
    }
}

let saver = SlowSavingPerson()
let aIsSaving = Gate()
let aMaySave = Gate(announcing: aIsSaving)
let clientA = tracedTask("client A") {
    await saver.changeName(firstName: "Charlie", lastName: "Cheesecake", client: "A", saving: aMaySave)
}
await aIsSaving.wait()
await tracedTask("client B") {
    await saver.changeName(firstName: "Delia", lastName: "Dingle", client: "B", saving: nil)
}.value
aMaySave.open()
await clientA.value
let savedName = await saver.name
mark("saving person ends as \(savedName)")
print("With reentrancy \(reentrancy.rawValue), the saving person ends as \(savedName): \(savedName == "Delia Cheesecake" ? "half of each change" : "a whole name")")

/*:
 ## `@MainActor` and the main queue

 `@MainActor` is the actor for code that must run where the user interface runs, the counterpart of `DispatchQueue.main`. In fact the two are one, on Linux and on Apple platforms alike: the main actor's executor puts each job on the main dispatch queue (`swift_dispatchEnqueueMain` in the Swift runtime's `DispatchGlobalExecutor.cpp`). What differs is who drains that queue. On Apple platforms an app's main run loop drains it on the main thread, and a program whose top-level code awaits runs one there too (the runtime's async `main` calls `CFRunLoopRun` when CoreFoundation is loaded, as it is under Foundation, and `dispatch_main()` otherwise). On Linux whatever drains the main queue runs main-actor code, and that is not always the main thread:

 - while top-level code runs without awaiting, nothing drains the main queue: main-actor jobs wait (a main thread that blocks, in `sleep` or a semaphore, never runs them);
 - `RunLoop.main.run()` drains it on the main thread;
 - `dispatchMain()` ends the main thread (libdispatch calls `pthread_exit`) and a pool thread serves the main queue from then on. A top-level `await`, as on this page, does the same: on Linux the runtime's async `main` calls `dispatch_main()` (`swift_task_asyncMainDrainQueue` in the Swift runtime's `Task.cpp`), since there is no `CFRunLoopRun` to call.

 So on this page, after its first `await`, main-actor code runs on a pool thread, in the lane of a `T` thread, with the main queue's label, and `Thread.isMainThread` says false. The page traces one span from a `@MainActor` function and one from a block on the main queue. Top-level code that awaits is itself isolated to the main actor, so it calls the `@MainActor` function with no `await`: the call is an ordinary one, on the thread already serving the main queue (the compiler warns about an `await` there, since nothing in that call can suspend). The test checks both ran on a thread other than the main thread, with the main queue as their queue.

 - speaker: Point at the `@MainActor work` and `main queue block` spans: both on a `T` lane, both under the main queue's label, and the printed line says `Thread.isMainThread false`. Say: the main actor is the main queue, here and on Apple platforms; what differs is who drains it. Usual question: "will my app's UI code run off the main thread then?" Not in an app on Apple platforms, where the main run loop drains the queue on the main thread; on Linux it does after `dispatchMain()` or a top-level `await`.
 */
@MainActor func updateTheScreen() -> Bool {
    trace("@MainActor work") { Thread.isMainThread }
}

let onMainThread = updateTheScreen()
let mainQueueBlock = Gate()
DispatchQueue.main.async {
    trace("main queue block") { mainQueueBlock.open() }
}
await mainQueueBlock.wait()
print("@MainActor code ran with Thread.isMainThread \(onMainThread): \(onMainThread ? "on the main thread" : "on a pool thread serving the main queue")")

/*:
 ## The race the compiler refuses

 Page 8 found its race at run time, with Thread Sanitizer, and only on the runs where it happened. Swift 6 finds this kind before the program runs. A class with mutable state is not `Sendable`, and the compiler will not let a value that is not `Sendable` be shared between tasks that could use it at the same time.

 - experiment: Change `actor Person` at the top of the page to `class Person`. The edit loop rebuilds the page and the compiler refuses it on the lines inside the client's task that use `person`: "non-Sendable type 'Person' of let 'person' cannot exit main actor-isolated context". The task would take `person`, a class anyone can change, away from the page's top-level code into a task that runs at the same time as the other clients. That is the data race of page 8, stopped at compile time. Change it back to `actor`.

 - speaker: Demo: make the edit live. The compiler's error appears on the client's lines before anything runs. Usual question: "can I silence it with `@unchecked Sendable`?" Yes, and then you own the promise page 8 had to check with Thread Sanitizer.

 ## `Mutex`: the modern lock

 Not every shared value needs an actor. An actor makes every caller `await`, and for a few fields that a lock would hold for microseconds that is a lot of ceremony. The Synchronization module's `Mutex` is a lock that owns the value it protects: the only way to the names is `withLock`, so no code can forget to take it. A class whose only state is a `Mutex` is `Sendable` with no `@unchecked` promise: the compiler checks it, because `Mutex` is `Sendable` for any value it holds. On Linux it is a futex word holding its owner's thread id. Taking it while nobody holds it is one atomic compare-and-swap, compiled into your code. Taking it while someone does, the caller first spins, retrying the compare-and-swap a number of times in case the owner lets go soon, and only then asks the kernel to block it, on a priority-inheritance futex (`FUTEX_LOCK_PI`: for real-time threads the kernel lends the owner a waiter's higher priority until it unlocks), which also hands the lock straight to the waiter it wakes (`_lockSlow` in the Swift runtime's `stdlib/public/Synchronization/Mutex/LinuxImpl.swift`).

 - important: Thread Sanitizer does not follow a `Mutex`. Its wait is a futex inside the Synchronization library, which was not built with the sanitizer, so when two threads contend for a `Mutex` the kernel hands the lock over (`_lockSlow` and `_unlockSlow` in the library's `LinuxImpl.swift`), the sanitizer never sees it change hands, and it reports the accesses it guards as a data race that is not there (measured with Swift 6.3.1 on this machine: 2 of 5 runs of 2,000 contended appends reported one). Page 8's run log met it and went back to `NSLock`, a pthread mutex underneath, which the sanitizer follows. So in code you check with Thread Sanitizer, use `NSLock`, or tell the sanitizer what the lock did, as `LockedPerson` below does: LessonKit's `ThreadSanitizer.criticalSection(of:)` calls the sanitizer's own annotations (`__tsan_acquire`, `__tsan_release`) in a build with `-sanitize=thread`, and does nothing in any other. The holds this page uses, LessonKit's `Gate`, lock with a pthread mutex for the same reason.
 */
final class LockedPerson: Sendable {
    private let names: Mutex<(first: String, last: String)>

    init(firstName: String, lastName: String) {
        names = Mutex((firstName, lastName))
    }

    func changeName(firstName: String, lastName: String) {
        names.withLock { names in
            ThreadSanitizer.criticalSection(of: self) {
                trace("locked write \(firstName) \(lastName)") {
                    Simulated.wait(0.02)
                    names.first = firstName
                    Simulated.wait(0.03)
                    names.last = lastName
                }
            }
        }
    }

    var name: String {
        names.withLock { names in
            ThreadSanitizer.criticalSection(of: self) { "\(names.first) \(names.last)" }
        }
    }
}

let lockedPerson = LockedPerson(firstName: "Anna", lastName: "Adams")
await withTaskGroup(of: Void.self) { group in
    for (number, (first, last)) in newNames.prefix(clients).enumerated() {
        group.addTracedTask("locked client \(number + 1)") {
            lockedPerson.changeName(firstName: first, lastName: last)
            mark("locked client \(number + 1) reads \(lockedPerson.name)")
        }
    }
}
print("The locked person's final name: \(lockedPerson.name)")

/*:
 What a contended `Mutex` waits in, asked of the kernel. One thread takes a `Mutex` and keeps it; a second asks for it, spins a moment, and goes to sleep. The page then reads `/proc/self/task/<id>/syscall`, the system call that second thread is in and its arguments: `futex`, with the operation `FUTEX_LOCK_PI_PRIVATE`, the kernel's priority-inheritance lock. Only then does the first thread let go.

 - speaker: Point at the `locked write` spans, one at a time like the actor's, then at `owner holds the Mutex` and `waiter takes the Mutex` on two lanes, the waiter's span ending only after the owner's. Read the printed line: the waiting thread sleeps in `futex` with `FUTEX_LOCK_PI_PRIVATE`, the kernel's own lock. Usual question: "`Mutex` or actor?" A `Mutex` for a few fields held for microseconds by synchronous code; an actor when the work inside must `await`, since a lock must not be held across an `await` (page 9).
 */
let contested = Mutex(0)
let waiterID = Atomic<Int32>(0)
let ownerHolds = DispatchSemaphore(value: 0)
let ownerMayLetGo = DispatchSemaphore(value: 0)
let waiterDone = DispatchSemaphore(value: 0)
Thread {
    contested.withLock { _ in
        trace("owner holds the Mutex") {
            ownerHolds.signal()
            ownerMayLetGo.wait()
        }
    }
}.start()
ownerHolds.wait()
Thread {
    waiterID.store(ThreadIdentity.current, ordering: .relaxed)
    trace("waiter takes the Mutex") { contested.withLock { $0 += 1 } }
    waiterDone.signal()
}.start()
let (call, operation) = futexWait(of: { waiterID.load(ordering: .relaxed) })
mark("read the waiter's system call")
ownerMayLetGo.signal()
waiterDone.wait()
print("While the owner held the Mutex, the waiting thread was in \(call) with \(operation)")

/*:
 An actor is one kind of isolation, and the compiler checks isolation wherever a value or a call crosses from one domain to another. Next, what it checks, and which thread your code then runs on: [Isolation](@next)

 Back: [Task groups](@previous)
 */
print("Done: an actor person, a reentrant call that saw the state change across its await, main-actor work on a pool thread, and a Mutex.")
