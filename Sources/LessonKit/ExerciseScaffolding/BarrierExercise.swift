import Dispatch
import Foundation

// Page 8's exercise (`Exercises/08-Barrier`): the clients that share the learner's person, and the ledger that records
// and holds every read and write of it. The exercise, its solution and its test variants differ only in the person.

/// The person of page 8's exercise, as its clients use it: a name that changes in two steps and is read whole.
public protocol LedgerPerson: AnyObject, Sendable {
    func changeName(firstName: String, lastName: String)
    var name: String { get }
}

/// Records every write and read of page 8's person as a span, and holds them so that a race happens on every run: each
/// write holds still after storing the first name until a read has started or its writer has gone on, and each reader
/// waits until its write has got that far.
public enum Ledger {
    private static let holds = LedgerHolds()

    /// Runs one change of the name as the span "write First Last". `body` stores the two names, calling `midway`
    /// between them: the slow moment a database write would take, where this write holds still (see the note above).
    public static func write(_ first: String, _ last: String, _ body: (_ midway: () -> Void) -> Void) {
        let name = "\(first) \(last)"
        trace("write \(name)") {
            body {
                Simulated.wait(0.05)
                holds.holdHalfway(name)
                Simulated.wait(0.05)
            }
        }
    }

    /// Runs one read of the name as the span "read name", and returns what `body` read. A read takes a moment too, so
    /// several readers can be seen sharing the person.
    public static func read(_ body: () -> String) -> String {
        trace("read name") {
            holds.readStarted()
            let name = body()
            Simulated.wait(0.02)
            return name
        }
    }

    /// The writer of `first last` has come back from `changeName`: its write may go on, if it is still holding.
    static func writerWentOn(_ first: String, _ last: String) {
        mark("writer went on from write \(first) \(last)")
        holds.release("\(first) \(last)")
    }

    /// Waits, as the span "reader N waits for write First Last", until that write has stored its first name.
    static func waitUntilHalfway(_ first: String, _ last: String, reader: Int) {
        trace("reader \(reader) waits for write \(first) \(last)") {
            holds.waitUntilHalfway("\(first) \(last)")
        }
    }

    /// The next `count` reads each wait, inside their span, until all of them have started.
    static func pairTheNextReads(_ count: Int) {
        holds.pair(count)
    }
}

/// The semaphores behind `Ledger`'s holds. An `NSLock` guards the bookkeeping, which every client thread touches.
final class LedgerHolds: @unchecked Sendable {
    /// One write's two moments: it has stored its first name, and it may go on.
    private final class WriteHold: Sendable {
        let halfway = DispatchSemaphore(value: 0)
        let goOn = DispatchSemaphore(value: 0)
    }

    private let lock = NSLock()
    private var writes: [String: WriteHold] = [:]
    /// The writes holding halfway right now, by their new name.
    private var holding: Set<String> = []
    private var readsToPair = 0
    private var pairedReadsStarted = 0
    private let pairedReadsMayGoOn = DispatchSemaphore(value: 0)

    /// The hold of the write to `name`, made by whichever side gets there first. Call with `lock` held.
    private func hold(_ name: String) -> WriteHold {
        if let hold = writes[name] { return hold }
        let hold = WriteHold()
        writes[name] = hold
        return hold
    }

    func holdHalfway(_ name: String) {
        let write = lock.withLock {
            holding.insert(name)
            return hold(name)
        }
        write.halfway.signal()
        write.goOn.wait()
    }

    func waitUntilHalfway(_ name: String) {
        lock.withLock { hold(name) }.halfway.wait()
    }

    func release(_ name: String) {
        let write = lock.withLock {
            holding.remove(name)
            return hold(name)
        }
        write.goOn.signal()
    }

    /// A read has started: every write holding halfway goes on; a paired read waits for the others of its pair.
    func readStarted() {
        let (released, pairSize, lastOfPair) = lock.withLock {
            let released = holding.map { hold($0) }
            holding.removeAll()
            guard readsToPair > 0 else { return (released, 0, false) }
            pairedReadsStarted += 1
            let size = readsToPair
            let last = pairedReadsStarted == readsToPair
            if last {
                readsToPair = 0
                pairedReadsStarted = 0
            }
            return (released, size, last)
        }
        released.forEach { $0.goOn.signal() }
        guard pairSize > 0 else { return }
        if lastOfPair {
            for _ in 0..<pairSize { pairedReadsMayGoOn.signal() }
        }
        pairedReadsMayGoOn.wait()
    }

    func pair(_ count: Int) {
        lock.withLock {
            readsToPair = count
            pairedReadsStarted = 0
        }
    }
}

extension Ledger {
    /// Runs page 8's clients on `person`, which starts as Anna Adams: three writers and three readers at once, each on
    /// a serial queue of its own, where reader N reads while writer N's change is halfway if the person lets it; then
    /// two readers at once, each of whose reads waits inside itself until the other has started; then the final name.
    public static func runClients(on person: some LedgerPerson) {
        let newNames = [("Charlie", "Cheesecake"), ("Delia", "Dingle"), ("Eva", "Evershed")]
        let clients = DispatchGroup()
        for (index, (first, last)) in newNames.enumerated() {
            let number = index + 1
            DispatchQueue(label: "tour.exercise.writer\(number)").async(group: clients) {
                person.changeName(firstName: first, lastName: last)
                writerWentOn(first, last)
            }
            DispatchQueue(label: "tour.exercise.reader\(number)").async(group: clients) {
                waitUntilHalfway(first, last, reader: number)
                print("Reader \(number) read: \(person.name)")
            }
        }
        clients.wait()

        pairTheNextReads(2)
        let sideBySide = DispatchGroup()
        for number in 4...5 {
            DispatchQueue(label: "tour.exercise.reader\(number)").async(group: sideBySide) {
                print("Reader \(number) read: \(person.name)")
            }
        }
        sideBySide.wait()
        print("Final name: \(person.name)")
    }
}
