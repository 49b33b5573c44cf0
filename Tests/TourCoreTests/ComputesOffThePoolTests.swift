import Foundation
import Testing
import TourTestSupport

/// `ComputesOffThePool` moves a test's body, and only that, onto the computing tests' thread.
@Suite("Computing off the cooperative pool")
struct ComputesOffThePoolTests {
    @Test(.computesOffThePool) func theBodyRunsOnTheComputingThreadBeforeAndAfterItsAwaits() async throws {
        #expect(threadName() == "test-computing")
        await Task.yield()
        #expect(threadName() == "test-computing", "a yield comes back to the same thread, not to the pool")
        let child = await Task { threadName() }.value
        #expect(child != "test-computing", "an unstructured task runs on the pool as before")
    }

    @Test(.computesOffThePool) func anIssueRecordedThereBelongsToTheTest() async throws {
        withKnownIssue("recorded on the computing thread") {
            #expect(Bool(false))
        }
    }

    @Test func aTestWithoutTheTraitRunsOnThePool() async throws {
        #expect(threadName() != "test-computing")
    }
}

/// The name of the thread the caller runs on (`Thread.current` is not to be read from an async function).
private func threadName() -> String? {
    Thread.current.name
}
