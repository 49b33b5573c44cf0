import Foundation
import Testing
import TourCore
import TourTestSupport

/// A page left broken before the launch never keeps the tutorial from opening: `tour` builds no page, the tutorial
/// builds the stale one in the background, marks it ✘ with its error on its line, and every other page still runs.
/// In a `ScratchPackage`: the checkout's page is never touched.
extension TourInTmuxTests {
    @Test("A page broken before launch opens anyway, is marked ✘ with its error on its line, and the next page runs",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func brokenBeforeLaunch() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let source = scratch.root.appendingPathComponent("Lessons/01-Operation/main.swift")
        let original = try String(contentsOf: source, encoding: .utf8)
        try (original + "let broken = = 1\n").write(to: source, atomically: true, encoding: .utf8)
        let lineNumber = original.split(separator: "\n", omittingEmptySubsequences: false).count

        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(scratch.tour) --page 1; echo \(Self.exitMarker); sleep 60'",
                             width: 120, height: 40, environment: scratch.environment)
        let broken = try await tmux.waitFor("page 1 built and found broken", timeout: 120) { $0.contains("does not compile") }
        let rows = broken.components(separatedBy: "\n")
        let listed = try #require(rows.first { $0.hasPrefix("│▸1 Operation") }, "\(broken)")
        #expect(listed.contains("✘"), "the list of pages marks page 1: \(listed)")
        // The page opens on its error: the line, and the message under it.
        let codeRow = try #require(rows.firstIndex { $0.contains("\(lineNumber) let broken = = 1") }, "line \(lineNumber) is not on screen:\n\(broken)")
        #expect(rows[(codeRow + 1)...].prefix(3).contains { $0.contains("error:") }, "no message under line \(lineNumber):\n\(broken)")

        try await tmux.send("n")
        let pageCount = try scratch.catalog().pages.count
        try await tmux.waitFor("page 2") { $0.contains("2/\(pageCount) Queue") }
        try await tmux.runSkippingThePrediction()
        try await tmux.waitFor("page 2's run, built first if it had to be", timeout: 180) { $0.contains("ended normally") }
        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
    }
}
