import Foundation
import Testing
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// `--trace FILE` on the command line: watch takes none, and a write that fails at the end is an exit status of its
/// own.
@Suite("Trace targets on the command line", .bodiesBelowTheRunner)
struct TraceTargetCommandTests {
    @Test func watchTakesNoTrace() {
        #expect(throws: TourCommand.UsageError(description: "watch writes no trace, since it reruns the page at every save; "
                                               + "use tour run <page> --trace FILE.json")) {
            try TourCommand.parse(["watch", "1", "--trace", "run.json"])
        }
        #expect(throws: TourCommand.UsageError(description: "--trace needs a file name, for example --trace run.json")) {
            try TourCommand.parse(["run", "1", "--trace", ""])
        }
    }

    /// The folder went away while the page ran: the run still ends, with status 4 and the reason.
    @Test func aWriteThatFailsAtTheEndIsStatusFour() async throws {
        let folder = ScratchSpace.folder.appendingPathComponent("tour-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let gone = path("gone/run.json")
        let page = Page(number: 1, folder: "01-Fixture", title: "Fixture", summary: "", product: "RunnerFixture",
                        source: URL(fileURLWithPath: path("main.swift")))
        var options = TourCommand.RunOptions(page: "1")
        options.traceFile = gone
        let catalog = PageCatalog(pages: [page], root: folder)
        let (status, lines) = await Self.runOffThePool(options, page: page, catalog: catalog)
        #expect(status == .traceNotWritten)
        #expect(lines.contains { $0.hasPrefix("The trace was not written: --trace \(gone) is in a folder that does not exist") }, "\(lines)")

        options.traceFile = path("written.json")
        let (written, _) = await Self.runOffThePool(options, page: page, catalog: catalog)
        #expect(written != .traceNotWritten)
        #expect(PathKind.at(path("written.json")) == .regularFile)
    }

    /// Runs the page on a Dispatch thread, so its wait never holds one of the test pool's threads.
    static func runOffThePool(_ options: TourCommand.RunOptions, page: Page, catalog: PageCatalog) async -> (TourCommandLine.ExitStatus, [String]) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let lines = Lines()
                let status = PlainRun.execute(options, page: page, catalog: catalog, style: .detect(forceBare: true)) { lines.append($0) }
                continuation.resume(returning: (status, lines.all))
            }
        }
    }

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }
}
