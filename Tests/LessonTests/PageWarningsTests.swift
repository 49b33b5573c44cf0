import Foundation
import Testing
import TourCore
import TourTestSupport

/// The pages at their default knobs raise no warning their prose does not expect (`TraceWarnings`), each judged
/// on the run its own suite already makes, so no page runs twice for this. Page 4 with its knobs turned raises the
/// warnings its experiments are about.
@Suite("Warnings of the pages", .bodiesBelowTheRunner)
struct PageWarningsTests {
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// The warnings of `run` no page text expects, as their sentences.
    static func unexpected(_ run: RunRecord) -> [String] {
        TraceWarnings.of(run, cores: cores).filter { $0.expected == nil }.map(\.text)
    }

    @Test func pagesAtTheirDefaultsRaiseNoUnexpectedWarning() async {
        let runs: [(page: Int, run: Task<RunRecord, Never>)] = [
            (1, OperationPageTests.run), (2, QueuePageTests.run), (3, AsyncPageTests.run), (4, DependenciesPageTests.run),
            (5, InPracticePageTests.run), (6, GCDPageTests.run), (7, GroupsPageTests.run), (8, BarrierPageTests.run),
            (9, TasksPageTests.run), (10, TaskGroupsPageTests.run), (11, ActorsPageTests.run),
            (12, IsolationPageTests.run), (13, StreamsPageTests.run), (14, StarvationPageTests.run),
        ]
        for (page, run) in runs {
            let record = await run.value
            #expect(record.ending != nil, "page \(page) ran to its end")
            #expect(Self.unexpected(record) == [], "page \(page)")
        }
    }

    /// With `checkDependencies` off the retina chain's filter and display run on a cancelled download; the cycle the
    /// page builds on purpose is named and expected.
    @Test func pageFourTurnedWarnsOfWhatItsExperimentsShow() async throws {
        let turned = await DependenciesPageTests.turned.value
        let warnings = TraceWarnings.of(turned, cores: Self.cores)
        let ran = warnings.filter { $0.kind == .ranAfterCancelledDependency }
        #expect(ran.map(\.sentence).contains { $0.hasPrefix("tilt-shift retina ran at") && $0.contains("its dependency load retina was cancelled") },
                "\(warnings.map(\.text))")
        let cycle = try #require(warnings.first { $0.kind == .dependencyCycle })
        #expect(cycle.sentence.contains("compress") && cycle.sentence.contains("upload"))
        #expect(cycle.expected != nil, "the page said it would hang on the cycle")
    }
}
