import Foundation
import Testing
import TourTestSupport

/// The tests' own short commands (tmux's clients, above all) end or are killed: a client that never ends becomes a
/// failure that names it, never a suite that waits forever.
@Suite("Blocking commands", .bodiesBelowTheRunner)
struct BlockingCommandTests {
    @Test("A command still running at its timeout is killed, and the run fails saying so")
    func aCommandThatNeverEndsIsKilled() async throws {
        let result = await awaitBlocking("blocking-command-test") {
            Result { () throws(BlockingCommand.Failure) in
                try BlockingCommand(executable: "/bin/sleep", arguments: ["600"], timeout: 0.2).run()
            }
        }
        let failure = try #require(result.failure, "sleep 600 ended within 0.2 s: \(result)")
        #expect(failure.timedOut)
        #expect(failure.description == "/bin/sleep 600 did not end within 0.2 s and was killed")
    }

    @Test("A command that ends in time gives its exit and its output")
    func aCommandThatEndsIsReaped() async throws {
        let finished = try await awaitBlocking("blocking-command-test") {
            try BlockingCommand(executable: "/bin/echo", arguments: ["ended"]).run()
        }
        #expect(finished.exit.succeeded)
        #expect(finished.output == "ended\n")
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
