import Foundation
import Testing
import TourCore
import TourTestSupport

/// The real `tour` binary in a real terminal (tmux): what a learner sees, key by key.
///
/// Not serialized: each test has a tmux server of its own, a test that edits a page does it in a `ScratchPackage`
/// of its own, and each tutorial takes a page-run slot (`PageRunSlots`) as a page run does.
@Suite("tour in tmux", .bodiesBelowTheRunner)
struct TourInTmuxTests {
    static let exitMarker = "TOUR-EXITED"

    @Test("Opens, lists the pages, runs page 1 into every pane, survives 80×24 and back, and quits to a clean shell",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func walkThrough() async throws {
        let catalog = try PageCatalog.load()
        let firstPage = try #require(catalog.pages.first)
        // What page 1 prints and reports when run on its own, to recognise it on the screen.
        let reference = await recordRun(product: firstPage.product)
        // The last line stays on screen above the ending; the first may have scrolled away by then.
        let lastLine = try #require(reference.output.last { $0.stream == .stdout }?.text)
        let printed = String(lastLine.prefix(16))
        let sourceLines = try String(contentsOf: firstPage.source, encoding: .utf8).components(separatedBy: "\n")

        let tmux = Tmux()
        defer { tmux.stop() }
        let tour = BuildProducts.executable(named: "tour")
        try await tmux.start("bash --norc --noprofile -c '\(tour); echo \(Self.exitMarker); sleep 60'", width: 120, height: 40)

        try await tmux.waitFor("the sidebar listing every page") { screen in
            screen.contains("Pages") && catalog.pages.allSatisfy { screen.contains("\($0.number) \($0.title.prefix(12))") }
        }

        try await tmux.runSkippingThePrediction()
        try await tmux.waitFor("page 1's output", timeout: 120) { $0.contains(printed) }
        let ended = try await tmux.waitFor("the run's ending in words", timeout: 180) { $0.contains(" after ") && !$0.contains("s stop") }
        #expect(ended.contains("ended normally"))
        let lanes = try #require(Self.laneCount(in: ended), "no thread count in the timeline's title:\n\(ended)")
        #expect(lanes >= 2)
        #expect(ended.matches(#"main *[│|]"#), "the main thread's lane is titled main")

        try await findResultBesideItsLine(tmux: tmux, results: reference.results, sourceLines: sourceLines)

        try await tmux.resize(width: 80, height: 24)
        try await tmux.waitFor("the compact layout") { screen in
            let rows = screen.components(separatedBy: "\n")
            return rows.contains { $0.contains("Output") && $0.contains("Timeline") && $0.contains("Knobs") } && !screen.contains("Pages")
        }
        try await tmux.resize(width: 120, height: 40)
        try await tmux.waitFor("the full layout again, with the run's output kept") { screen in
            screen.contains("Pages") && screen.contains(printed) && screen.contains("ended normally")
        }

        try await tmux.send("q")
        let shell = try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
        #expect(!shell.contains("Pages"))
        #expect(!shell.contains("Timeline"))
        #expect(!shell.contains("? help"))
    }

    /// "Timeline 3 threads" → 3.
    static func laneCount(in screen: String) -> Int? {
        guard let range = screen.range(of: #"Timeline (\d+) threads"#, options: .regularExpression) else { return nil }
        return Int(screen[range].split(separator: " ")[1])
    }

    /// Scrolls the page until a code line and its result show on one row.
    private func findResultBesideItsLine(tmux: Tmux, results: [LineResult], sourceLines: [String]) async throws {
        let wanted = results.filter { $0.kind == .peek && sourceLines.indices.contains($0.line - 1) }.map { result in
            (code: String(sourceLines[result.line - 1].trimmingCharacters(in: .whitespaces).prefix(16)), result: String(result.text.prefix(6)))
        }
        try #require(!wanted.isEmpty, "page 1 reported no peek results")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let rows = try await tmux.screen().components(separatedBy: "\n")
            if rows.contains(where: { row in wanted.contains { row.contains($0.code) && row.contains("│ " + $0.result) } }) { return }
            try await tmux.send("j", "j", "j", "j", "j")
        }
        Issue.record("no result appeared beside its code line; looked for \(wanted)")
    }
}
