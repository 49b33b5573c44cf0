import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour run N --plain` starts the page before it reads the catalog, so the page's own start-up runs beside the
/// host's (issue 13, goal 3): the header still comes first, and the page that runs is the one the catalog names.
@Suite("tour run starts the page first")
struct PlainModeEarlyStartTests {
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

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
            try Data("/*:\n # \(title)\n\n A page.\n */\nprint(1)\n".utf8).write(to: page.appendingPathComponent("main.swift"))
        }
        #expect(PageCatalog.product(named: "queue", root: root) == "Lesson02Queue")
        #expect(try PageCatalog.load(root: root).page(named: "queue")?.product == "Lesson01Operation")

        let outcome = try await PageRunSlots.shared.withSlot {
            try await awaitBlocking("tour-early-start") { try Self.tour(["run", "queue", "--plain", "--speed", "10"], root: root) }
        }
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        // Plain mode off a terminal writes ASCII: "ConcurrencyTour . page 1 of 2: Queue".
        #expect(lines.first?.hasPrefix("ConcurrencyTour . page 1 of 2: Queue") == true, "\(lines.prefix(3))")
        let firstLine = try #require(lines.firstIndex { $0.contains("Loaded coffee: 400x300 pixels") }, "page 1's program ran: \(outcome.output)")
        #expect(firstLine > 0, "the page's first line comes after the header")
        #expect(!outcome.output.contains("Queue proper"))
    }

    /// `tour` with its pages from `root`, output on pipes, its progress in a folder of the test's.
    private static func tour(_ arguments: [String], root: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TOUR_ROOT"] = root.path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = ErrorsRead()
        Thread { errorData.finish(errors.fileHandleForReading.readDataToEndOfFile()) }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       errors: String(decoding: errorData.wait(), as: UTF8.self))
    }
}
