import Foundation
import Testing
import PageProtocol
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

/// `tour run` starts the page before it reads the catalog: the page's program is found from the folder names alone,
/// and the page's events wait, in order, until the header is printed. Every test works in a temporary folder.
@Suite("Plain mode's early start", .bodiesBelowTheRunner)
final class EarlyStartTests {
    let root: URL

    init() throws {
        root = ScratchSpace.folder.appendingPathComponent("tour-early-start-\(UUID().uuidString)")
        let page = root.appendingPathComponent("Lessons/03-InPractice")
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        try Data("/*:\n # Something Else\n\n The page's opening.\n */\nprint(1)\n".utf8)
            .write(to: page.appendingPathComponent("main.swift"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Lessons/Notes"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @Test func theProgramIsFoundByNumberSlugFolderOrProductFromTheFolderNames() async throws {
        for query in ["3", "03", "in-practice", "In Practice", "03-InPractice", "Lesson03InPractice"] {
            #expect(PageCatalog.program(named: query, root: root)?.product == "Lesson03InPractice", "\(query)")
        }
        #expect(PageCatalog.program(named: "4", root: root)?.product == nil)
        #expect(PageCatalog.program(named: "notes", root: root)?.product == nil, "a folder without a number is no page")
        #expect(PageCatalog.program(named: "1", root: root.appendingPathComponent("missing")) == nil)
    }

    /// A title is in the page's text, which the early start does not read: it is left to the catalog, which finds it.
    @Test func aTitleIsLeftToTheCatalog() async throws {
        #expect(PageCatalog.program(named: "something else", root: root)?.product == nil)
        let page = try #require(try PageCatalog.load(root: root).page(named: "something else"))
        #expect(page.product == "Lesson03InPractice")
        #expect(page.title == "Something Else")
    }

    @Test func heldEventsComeOutInOrderOnceReleasedAndLaterOnesPassStraightOn() async throws {
        let held = HeldEvents()
        let line = { (text: String) in HostEvent.output(OutputLine(stream: .stdout, text: text, time: 0)) }
        held.deliver(.started(pid: 7, time: 1))
        held.deliver(line("first"))
        let seen = Seen()
        #expect(seen.events.isEmpty)
        held.release(to: seen.append)
        #expect(seen.events == [.started(pid: 7, time: 1), line("first")])
        held.deliver(line("second"))
        #expect(seen.events == [.started(pid: 7, time: 1), line("first"), line("second")])
    }

    /// A request whose knobs or prediction must be checked against the page, or whose page only the catalog can
    /// find, waits for the catalog: nothing starts before it is known to be valid.
    @Test func aRequestTheCatalogMustCheckStartsNothingEarly() async throws {
        var knobs = TourCommand.RunOptions(page: "3")
        knobs.knobs = [KnobSetting(name: "workers", value: "2")]
        var prediction = TourCommand.RunOptions(page: "3")
        prediction.predict = "a"
        var badTarget = TourCommand.RunOptions(page: "3")
        badTarget.traceFile = root.appendingPathComponent("missing/run.json").path
        for options in [knobs, prediction, badTarget, TourCommand.RunOptions(page: "something else")] {
            #expect(PlainRun.startEarly(options, root: root) == nil, "\(options)")
        }
    }

    /// The page starts from its folder's name alone: here its `main.swift` does not even exist.
    @Test func thePageStartsWithoutItsTextBeingRead() async throws {
        let folder = root.appendingPathComponent("Lessons/01-Operation")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("main.swift").path))
        let early = try #require(PlainRun.startEarly(TourCommand.RunOptions(page: "1"), root: root))
        #expect(early.product == "Lesson01Operation")
        #expect(early.run.pid > 0, "the page's program is running")
        let ending = await awaitBlocking("early-start-stop") { () -> RunEnding in
            early.run.stop()
            return early.run.waitUntilEnded()
        }
        #expect(ending == .stopped, "\(ending)")
    }

    /// The programs' folder comes from one `readlink` of `/proc/self/exe`: the same folder as resolving that link
    /// component by component, where this test bundle's own build put the page programs.
    @Test func theProgramsFolderIsTheOneThisProgramRunsFrom() async throws {
        let resolved = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #expect(BuildProducts.directory.standardizedFileURL.path == resolved.standardizedFileURL.path)
        #expect(FileManager.default.isExecutableFile(atPath: BuildProducts.executable(named: "RunnerFixture")))
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [HostEvent] = []
        func append(_ event: HostEvent) { lock.withLock { seen.append(event) } }
        var events: [HostEvent] { lock.withLock { seen } }
    }
}
