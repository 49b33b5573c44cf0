import Foundation
import Testing
import TourCore
import TourTestSupport

/// `sharedRun` runs each distinct request once for the whole test process, and a different request anew.
@Suite("Shared runs", .bodiesBelowTheRunner)
struct SharedRunTests {
    @Test func theSameRequestIsRunOnceAndADifferentOneRunsAnew() async throws {
        async let first = sharedRun(product: "Lesson01Operation", knobs: [("executionBlocks", "2")], speed: 10)
        async let again = sharedRun(product: "Lesson01Operation", knobs: [("executionBlocks", "2")], speed: 10)
        async let other = sharedRun(product: "Lesson01Operation", knobs: [("executionBlocks", "3")], speed: 10)
        let (one, two, three) = await (first, again, other)
        let pid = try #require(one.pid)
        #expect(one.ending == .exited(code: 0))
        #expect(two.pid == pid, "the second caller read the first caller's run")
        #expect(try #require(three.pid) != pid, "other knobs are another run")
        #expect(three.knobs.first { $0.name == "executionBlocks" }?.value == "3")
    }
}
