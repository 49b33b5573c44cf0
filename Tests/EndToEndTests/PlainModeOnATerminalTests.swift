@preconcurrency import Glibc
import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour run --plain` in a terminal, as a learner types it: on a pty of its own, in the terminal's foreground.
@Suite("tour in plain mode on a terminal", .bodiesBelowTheRunner, .timeLimit(.minutes(3)))
struct PlainModeOnATerminalTests {
    static let patience = 90.0

    /// Page 5 with `script=keys` reads its scroll commands from the terminal. It used to sit in a background process
    /// group, be stopped by SIGTTIN at its first read, and be called stuck.
    @Test func pageFiveReadsTheLearnersScrollCommandsFromTheTerminal() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        // The run it records goes to a folder of the test's, never the learner's progress.
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-plain-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let tour = try PseudoTerminal([BuildProducts.executable(named: "tour"), "run", "in-practice", "--plain",
                                       "--set", "script=keys", "--speed", "10"],
                                      environment: marker.environment.merging(["NO_COLOR": "1", "XDG_STATE_HOME": state.path]) { $1 })
        defer { tour.stop() }
        try #require(await tour.output(containing: "Reading scroll commands from standard input.", within: Self.patience),
                     "\(tour.output)")
        tour.type("wait 1\n")
        #expect(await tour.output(containing: "After a rest of", within: Self.patience),
                "the page never got the command: \(tour.output)")
        tour.type("quit\n")
        #expect(await tour.output(containing: "Ended: ended normally", within: Self.patience), "\(tour.output)")
        #expect(await tour.exit(within: Self.patience) == .exited(code: 0), "\(tour.output)")
        #expect(marker.livingProcesses() == [])
    }
}
