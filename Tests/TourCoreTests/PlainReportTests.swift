import Testing
@testable import TourCore

@Suite("Plain report")
struct PlainReportTests {
    /// A run that ended normally, with nothing else in it.
    private var endedRun: RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: 1, time: 1_000))
        record.apply(.ended(.exited(code: 0), time: 2_000))
        return record
    }

    @Test("A run's summary prints each deep dive in full, marked as one with its line, before the ending")
    func deepDivesArePrintedInFull() throws {
        let source = """
            /*:
             # Internals

             Ordinary prose stays on the page.

             - deep dive: What the folded row shows. Its first sentence, and the
               rest waits for `o`.

               Then come:
               - an item
                 - a nested item
               1. a numbered item
             */
            let a = 1
            //: - Deep Dive: Second one.
            """
        let lines = PlainReport(style: .bare).summary(of: endedRun, source: source)
        let first = try #require(lines.firstIndex(of: "Deep dive (main.swift:6)"))
        #expect(Array(lines[first...].prefix(9)) == [
            "Deep dive (main.swift:6)",
            "  What the folded row shows. Its first sentence, and the rest waits for o.",
            "  Then come:",
            "  - an item",
            "    - a nested item",
            "  1. a numbered item",
            "",
            "Deep dive (main.swift:15)",
            "  Second one.",
        ])
        let ending = try #require(lines.firstIndex { $0.hasPrefix("Ended: ") })
        #expect(ending > first + 8, "the ending stays the last word")
        #expect(!lines.contains { $0.contains("Ordinary prose") }, "only deep dives, which the interface folds, are printed")
    }

    @Test("A page without deep dives prints none")
    func noDeepDives() throws {
        let lines = PlainReport(style: .bare).summary(of: endedRun, source: "//: # Plain\nlet a = 1\n")
        #expect(!lines.contains { $0.contains("Deep dive") })
    }
}
