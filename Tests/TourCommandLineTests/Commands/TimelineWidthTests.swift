import Foundation
import Synchronization
import Testing
@testable import TourCommandLine
import TourCore
import TourTestSupport

/// `tour run <page> --timeline-width COLUMNS`: plain mode's text timeline drawn as wide as asked, within bounds.
@Suite("The plain timeline's width", .bodiesBelowTheRunner)
struct TimelineWidthTests {
    @Test("--timeline-width takes a whole number of columns from 20 to 400, for run only")
    func theWidthIsParsedAndBounded() throws {
        let parsed = try TourCommand.parse(["run", "operation", "--timeline-width", "120"])
        #expect(parsed == .run({ var options = TourCommand.RunOptions(page: "operation"); options.timelineWidth = 120; return options }()))
        let needs = "--timeline-width needs a whole number of columns from 20 to 400, for example --timeline-width 120"
        for value in ["19", "401", "80.5", "wide"] {
            #expect(throws: TourCommand.UsageError(description: needs)) { try TourCommand.parse(["run", "1", "--timeline-width", value]) }
        }
        #expect(throws: TourCommand.UsageError(description: needs)) { try TourCommand.parse(["run", "1", "--timeline-width"]) }
        let watch = try #require(throws: TourCommand.UsageError.self) { try TourCommand.parse(["watch", "1", "--timeline-width", "120"]) }
        #expect(watch.description.hasPrefix("unknown option '--timeline-width' for watch ("))
    }

    @Test("A run of page 1 draws each lane of its timeline as many columns wide as --timeline-width says")
    func theRunsTimelineIsAsWideAsAsked() async throws {
        let catalog = try PageCatalog.load()
        let page = try #require(catalog.page(named: "operation"))
        var options = TourCommand.RunOptions(page: "operation")
        options.plain = true
        options.speed = 10
        options.timelineWidth = 137
        let printed = Mutex<[String]>([])
        let request = options
        let status = await awaitBlocking {
            PlainRun.execute(request, page: page, catalog: catalog, style: .bare) { line in printed.withLock { $0.append(line) } }.rawValue
        }
        let lines = printed.withLock { $0 }
        #expect(status == 0, "\(lines)")
        let lanes = lines.filter { $0.hasPrefix("  ") && $0.hasSuffix("|") && $0.contains(" |") }
        try #require(!lanes.isEmpty, "\(lines)")
        for lane in lanes {
            let cells = try #require(lane.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first)
            #expect(cells.count == 137, "\(lane)")
        }
    }
}
