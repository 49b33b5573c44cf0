import Foundation
import Testing
import TourCore
import TourTestSupport

/// `swift run tour` builds no page: `tour run` builds a page whose program is missing or older than its source before
/// it runs it, and a page that does not compile is said in the compiler's words, on its lines. In a `ScratchPackage`:
/// the checkout's page is never touched.
@Suite("tour run builds the page first", .bodiesBelowTheRunner)
struct PlainModeBuildTests {
    @Test("A page that does not compile: each error under its line, exit status 3; mended, it is built and runs")
    func brokenThenMended() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let source = scratch.root.appendingPathComponent("Lessons/02-Queue/main.swift")
        let original = try String(contentsOf: source, encoding: .utf8)
        let brokenLine = "let broken = = 1"
        try (original + brokenLine + "\n").write(to: source, atomically: true, encoding: .utf8)
        let lineNumber = original.split(separator: "\n", omittingEmptySubsequences: false).count

        /// The copy's `tour run 2`, in a page-run slot as any page run. Two builds and three runs one after another
        /// make the suite's longest chain: asked for as `.normal`, each waited behind the page runs queued meanwhile,
        /// and the test ended last, 70 s into a 70 s suite.
        func runPage2() async throws -> FinishedProgram {
            try await PageRunSlots.shared.withSlot(.longestChain, label: "tour run 2, built first") {
                try await runToEnd(scratch.tour, ["run", "2", "--plain", "--speed", "8"], environment: scratch.environment)
            }
        }

        let broken = try await runPage2()
        let said = String(decoding: broken.output, as: UTF8.self)
        #expect(broken.status == 3, "\(said)\n\(broken.errors)")
        #expect(said.contains("Building page 2 first: its program is missing or older than its source"), "\(said)")
        #expect(said.contains("main.swift:\(lineNumber):"), "the error names its line: \(said)")
        #expect(said.contains("\(lineNumber) | \(brokenLine)"), "the line itself is shown: \(said)")
        #expect(said.contains("Page 2 does not compile"), "\(said)")
        #expect(!said.contains("Width 1:"), "the old program did not run in its place: \(said)")

        try original.write(to: source, atomically: true, encoding: .utf8)
        let mended = try await runPage2()
        let ran = String(decoding: mended.output, as: UTF8.self)
        #expect(mended.status == 0, "\(ran)\n\(mended.errors)")
        #expect(ran.contains("(built in "), "\(ran)")
        #expect(ran.contains("Width 1:"), "the page ran: \(ran)")

        // Built now: the next run starts at once, with no build.
        let again = try await runPage2()
        #expect(!String(decoding: again.output, as: UTF8.self).contains("Building page"))
    }
}
