import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 11 proves what it teaches about actors from its own trace.
@Suite("Page 11: Actors", .bodiesBelowTheRunner)
struct ActorsPageTests {
    static let speed = 10.0
    /// One run at a high speed factor serves every claim: the order that matters is made by the page's holds.
    static let run = Task { await recordRun(product: "Lesson11Actors", speed: speed) }

    static let wholeNames: Set<String> = ["Anna Adams", "Charlie Cheesecake", "Delia Dingle", "Eva Evershed", "Freddie Frost", "Gina Gregory"]

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func theActorRunsOneAccessAtATimeReadsIncluded() async throws {
        let run = await Self.run.value
        let actorSpans = run.spans.filter { $0.name.hasPrefix("actor ") }
        #expect(actorSpans.filter { $0.name.hasPrefix("actor writes ") }.count == 5)
        #expect(actorSpans.filter { $0.name == "actor reads name" }.count == 6)
        let most = try #require(run.mostAtOnce(actorSpans))
        #expect(most.count == 1, "\(most.spans.map(\.name)) ran at once")
        // Each client is a traced child task of the page's group, and the actor's work ran inside the calling task.
        let clients = run.tasks.filter { Set((1...5).map { "client \($0)" }).contains($0.name) }
        #expect(clients.count == 5 && clients.allSatisfy { $0.kind == .child && $0.end != nil })
        // The clients' ten accesses carry their task; the page's last read, from its untraced top-level code, none.
        let inClients = actorSpans.filter { span in clients.contains { $0.number == span.task } }
        #expect(inClients.count == 10)
        #expect(actorSpans.filter { $0.task == nil }.count == 1)
        let reads = run.marks.filter { $0.name.hasPrefix("client ") && $0.name.contains(" reads ") }
        #expect(reads.count == 5)
        for read in reads {
            let name = try #require(read.name.components(separatedBy: " reads ").last)
            #expect(Self.wholeNames.contains(name), "a client read the mixed name \(name)")
        }
    }

    /// The actor borrows the global executor's threads (page 9): its work runs as jobs of `Swift global concurrent queue`,
    /// so a `Simulated.wait` inside it keeps one of that queue's places.
    @Test func theActorsWorkRunsOnTheGlobalExecutorsQueue() async throws {
        let run = await Self.run.value
        let writes = run.spans.filter { $0.name.hasPrefix("actor writes ") }
        try #require(!writes.isEmpty)
        #expect(writes.allSatisfy { $0.queue == "Swift global concurrent queue" }, "\(Set(writes.map(\.queue)))")
    }

    @Test func aReentrantCallSeesTheStateChangedAcrossItsAwait() async throws {
        let run = await Self.run.value
        let aFirst = try #require(run.spans(named: "A writes first name Charlie").first)
        let bSpans = run.spans.filter { $0.name.hasPrefix("B writes ") }
        #expect(bSpans.map(\.name) == ["B writes first name Delia", "B writes last name Dingle"])
        let resumed = try #require(run.marks.first { $0.name.hasPrefix("A resumes and finds ") })
        // B ran from start to end on the actor while A was suspended at its await: after A's first write, before A resumed.
        for span in bSpans {
            #expect(span.start >= (aFirst.end ?? .max) && (span.end ?? .max) <= resumed.time, "\(span.name) ran outside A's await")
        }
        #expect(resumed.name == "A resumes and finds Delia Dingle", "A saw \(resumed.name)")
        let aLast = try #require(run.spans(named: "A writes last name Cheesecake").first)
        #expect(aLast.start >= resumed.time)
        #expect(run.marks.contains { $0.name == "saving person ends as Delia Cheesecake" })
        // A and B are traced tasks, and A's two writes are spans of one task, on either side of its suspension.
        let a = try #require(run.tasks.first { $0.name == "client A" })
        #expect(aFirst.task == a.number && aLast.task == a.number)
        #expect(run.tasks.first { $0.name == "client B" }?.kind == .unstructured)
    }

    @Test func mainActorWorkRunsOnAPoolThreadServingTheMainQueue() async throws {
        let run = await Self.run.value
        for name in ["@MainActor work", "main queue block"] {
            let span = try #require(run.spans(named: name).first)
            #expect(!run.isMainThread(span.thread), "\(name) ran on the main thread")
            #expect(span.queue == "com.apple.main-thread", "\(name) ran on \(span.queue)")
        }
        #expect(run.outputText.contains { $0.hasPrefix("@MainActor code ran with Thread.isMainThread false") })
    }

    @Test func aContendedMutexSleepsInAPriorityInheritanceFutex() async throws {
        let run = await Self.run.value
        let owner = try #require(run.spans(named: "owner holds the Mutex").first)
        let waiter = try #require(run.spans(named: "waiter takes the Mutex").first)
        let read = try #require(run.marks.first { $0.name == "read the waiter's system call" })
        let ownerEnd = try #require(owner.end)
        #expect(waiter.start > owner.start && read.time > waiter.start && read.time < ownerEnd,
                "the page read the waiter's system call while the owner held the Mutex and the waiter waited for it")
        #expect(try #require(waiter.end) >= ownerEnd, "the waiter had the Mutex only after the owner let go")
        #expect(run.outputText.contains("While the owner held the Mutex, the waiting thread was in futex with FUTEX_LOCK_PI_PRIVATE"))
    }

    @Test func theMutexHoldsOneWriterAtATime() async throws {
        let run = await Self.run.value
        let writes = run.spans.filter { $0.name.hasPrefix("locked write ") }
        #expect(writes.count == 5)
        #expect(try #require(run.mostAtOnce(writes)).count == 1)
        let reads = run.marks.filter { $0.name.hasPrefix("locked client ") }
        #expect(reads.count == 5)
        for read in reads {
            let name = try #require(read.name.components(separatedBy: " reads ").last)
            #expect(Self.wholeNames.contains(name), "a locked client read the mixed name \(name)")
        }
    }
}
