import Synchronization
import Testing
@testable import LessonKit
import TourTestSupport

/// The holds LessonKit's exercise harnesses use to make an interleaving certain, on any machine: what they hold back,
/// and what lets it go.
@Suite("Exercise holds", .bodiesBelowTheRunner)
struct ExerciseHoldsTests {
    /// Suspends until `isHeld` is true: the waiting task has got to its hold. Yields, never sleeps.
    static func untilHeld(_ isHeld: () -> Bool) async {
        while !isHeld() { await Task.yield() }
    }

    @Test func anUploadEndsOnlyOnceTheNextHasBegun() async throws {
        let holds = UploadHolds(total: 3)
        let released = Atomic<Bool>(false)
        #expect(holds.begin() == 1)
        let first = Task {
            await holds.waitForTheNext(after: 1)
            released.store(true, ordering: .sequentiallyConsistent)
        }
        await Self.untilHeld { holds.heldPlaces == [1] }
        let releasedEarly = released.load(ordering: .sequentiallyConsistent)
        #expect(!releasedEarly, "held until the second upload begins")
        #expect(holds.begin() == 2)
        await first.value
        let releasedAfter = released.load(ordering: .sequentiallyConsistent)
        #expect(releasedAfter)
        #expect(holds.heldPlaces.isEmpty)
    }

    @Test func anUploadWhoseNextHasBegunAndTheLastGoOnAtOnce() async {
        let holds = UploadHolds(total: 2)
        _ = holds.begin()
        _ = holds.begin()
        await holds.waitForTheNext(after: 1)
        await holds.waitForTheNext(after: 2)
        #expect(holds.heldPlaces.isEmpty)
    }

    @Test func aFraudCheckWaitsUntilTheOtherClientHasArrivedOrEnded() async {
        let holds = FraudCheckHolds(clients: ["A", "B"])
        let a = Task { await holds.arrive("A") }
        await Self.untilHeld { holds.heldClients == ["A"] }
        holds.settle("B")
        await a.value
        #expect(holds.heldClients.isEmpty)
    }

    @Test func twoFraudChecksReleaseEachOther() async {
        let holds = FraudCheckHolds(clients: ["A", "B"])
        let a = Task { await holds.arrive("A") }
        await Self.untilHeld { holds.heldClients == ["A"] }
        await holds.arrive("B")
        await a.value
        #expect(holds.heldClients.isEmpty)
    }
}
