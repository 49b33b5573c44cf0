import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour run N --plain` starts the page before it reads the catalog, so the page's own start-up runs beside the
/// host's (issue 13, goal 3): the header still comes first, and the page that runs is the one the catalog names.
@Suite("tour run starts the page first", .bodiesBelowTheRunner)
struct PlainModeEarlyStartTests {
    /// Two pages where page 1's title is page 2's name: from the folder names alone, `queue` is page 2, which
    /// `tour run` starts first; the catalog, which reads the titles, says page 1, whose title comes first in order.
    /// The early run is stopped and page 1 is the one that runs, its header before its first line.
    @Test func thePageTheCatalogNamesIsTheOneThatRuns() async throws {
        let files = FileManager.default
        let root = files.temporaryDirectory.appendingPathComponent("tour-early-start-\(UUID().uuidString)")
        defer { try? files.removeItem(at: root) }
        for (folder, title) in [("01-Operation", "Queue"), ("02-Queue", "Queue proper")] {
            let page = root.appendingPathComponent("Lessons/\(folder)")
            try files.createDirectory(at: page, withIntermediateDirectories: true)
            let source = page.appendingPathComponent("main.swift")
            try Data("/*:\n # \(title)\n\n A page.\n */\nprint(1)\n".utf8).write(to: source)
            // Older than the page programs it stands in front of, so `tour run` takes them as built from it.
            try files.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: source.path)
        }
        #expect(PageCatalog.program(named: "queue", root: root)?.product == "Lesson02Queue")
        #expect(try PageCatalog.load(root: root).page(named: "queue")?.product == "Lesson01Operation")

        let outcome = try await PlainModeTests.tour(["run", "queue", "--plain", "--speed", "10"], environment: ["TOUR_ROOT": root.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        // Plain mode off a terminal writes ASCII: "ConcurrencyTour . page 1 of 2: Queue".
        #expect(lines.first?.hasPrefix("ConcurrencyTour . page 1 of 2: Queue") == true, "\(lines.prefix(3))")
        let firstLine = try #require(lines.firstIndex { $0.contains("Loaded coffee: 400x300 pixels") }, "page 1's program ran: \(outcome.output)")
        #expect(firstLine > 0, "the page's first line comes after the header")
        #expect(!outcome.output.contains("Queue proper"))
    }
}
