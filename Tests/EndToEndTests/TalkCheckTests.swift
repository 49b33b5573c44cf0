import Foundation
import FoundationXML
import Presenting
import Testing
import TourCommandLine
import TourCore
import TourTestSupport

/// `tour present --check`, the speaker's pre-flight, as a speaker runs it before a talk.
@Suite("tour present --check", .bodiesBelowTheRunner)
struct TalkCheckTests {
    /// The shipped talk, copied into a scratch folder with `change` made to its text: the checkout is never edited.
    static func scratchCopy(_ change: (String) -> String) throws -> URL {
        let shipped = try String(contentsOf: PageCatalog.defaultRoot.appendingPathComponent("assets/talks/part-one.talk"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("talk-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("broken.talk")
        try change(shipped).write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("A broken copy of the shipped talk is refused before anything runs, every wrong line named in one pass, on standard error, with what would be right")
    func brokenScriptNamesItsLines() async throws {
        var brokenLines: [Int] = []
        let file = try Self.scratchCopy { text in
            var lines = text.components(separatedBy: "\n")
            // A line that does not parse, then lines that parse but do not fit the pages.
            let knob = try! #require(lines.firstIndex(of: "set maxConcurrentOperationCount 1"))
            lines[knob] = "set maxConcurrentOperationCount"
            let value = try! #require(lines.firstIndex(of: "set maxConcurrentOperationCount 1"))
            lines[value] = "set maxConcurrentOperationCount 99"
            let page = try! #require(lines.firstIndex(of: "page gcd"))
            lines[page] = "page dispatch"
            let firstStep = try! #require(lines.firstIndex { !$0.isEmpty && !$0.hasPrefix("#") })
            lines.insert("run", at: firstStep)
            brokenLines = [firstStep + 1, knob + 2, value + 2, page + 2]
            return lines.joined(separator: "\n")
        }
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await PlainModeTests.tour(["present", "--check", file.path])
        #expect(outcome.status == 2)
        #expect(outcome.output.isEmpty, "nothing ran, and the problems go to standard error: \(outcome.output)")
        let lines = outcome.errors.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "each wrong line once, and none of the steps that follow the unknown page: \(lines)")
        #expect(lines[0] == "\(file.path): line \(brokenLines[0]): `run` comes before any `page` step, so it has no page to act on; put `page 1` (or its page) above it")
        #expect(lines[1] == "\(file.path): line \(brokenLines[1]): `set` needs a knob and a value, for example `set maxConcurrentOperationCount 3`, but got 'maxConcurrentOperationCount'")
        #expect(lines[2] == "\(file.path): line \(brokenLines[2]): knob maxConcurrentOperationCount takes a whole number from 1 to 6, not '99'; for example `set maxConcurrentOperationCount 3`")
        #expect(lines[3].hasPrefix("\(file.path): line \(brokenLines[3]): there is no page 'dispatch'; the pages are "))
    }

    @Test("Steps after a `page` line that does not parse are not checked against the page before it")
    func stepsAfterAnUnreadPageAreNotChecked() throws {
        let catalog = try PageCatalog.load()
        let reading = TalkScript.read("page queue\nreveal 2\npage gcd groups\nset jobs 99\nrun\npage groups\nset photos 0\n")
        let problems = try #require(throws: TalkScriptProblems.self) {
            try TalkPlan.check(reading, pages: catalog.pages.map(TalkPage.init(reading:)), catalog: catalog)
        }.problems.map(\.description)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first == "line 3: `page` takes one page, but got 'gcd groups'; write one `page` step per page")
        #expect(problems.last?.hasPrefix("line 7: knob photos takes a whole number from ") == true, "\(problems)")
    }

    @Test("Each run's line is followed by what its page printed, indented, so the speaker rehearses against the room's lines")
    func runsPrintTheirLines() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("talk-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let talk = folder.appendingPathComponent("one-run.talk")
        try Data("speed 10\npage operation\nrun\n".utf8).write(to: talk)
        let outcome = try await PlainModeTests.tour(["present", "--check", talk.path])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        let run = try #require(lines.firstIndex { $0.hasPrefix("line 3: run 1 of 1, page 1 (operation)") }, "\(lines)")
        let printed = lines[(run + 1)...].prefix { $0.hasPrefix("    ") }
        #expect(printed.first?.hasPrefix("    Loaded coffee") == true, "\(lines)")
        #expect(printed.last?.hasPrefix("    Done: ") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("Runs: 1 of 1 ended as expected") == true)
    }

    @Test("tour present --export writes an SVG for every block a talk shows and for each run's timeline, and an index in the talk's order")
    func backupSlides() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("talk-slides-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let talk = folder.appendingPathComponent("small.talk")
        try Data("speed 8\npage groups\nreveal 2\nrun\nreveal all\nend Questions?\n".utf8).write(to: talk)
        let slides = folder.appendingPathComponent("slides")
        let outcome = try await PlainModeTests.tour(["present", "--export", slides.path, talk.path])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        let blocks = try #require(try PageCatalog.load().page(named: "groups")).readParsedSource().document.presentedBlocks.count
        let files = try FileManager.default.contentsOfDirectory(atPath: slides.path).sorted()
        let blockSlides = files.filter { $0.hasPrefix("07-groups-block-") }
        #expect(blockSlides.count == blocks)
        #expect(files.contains("07-groups-run-1.svg"))
        #expect(outcome.output.contains("Slides written to \(slides.path): \(blocks + 1) pictures"))
        for file in files where file.hasSuffix(".svg") {
            let parser = XMLParser(data: try Data(contentsOf: slides.appendingPathComponent(file)))
            #expect(parser.parse(), "\(file) is well-formed")
        }
        // The index shows them in the talk's order: block 3, the one the run was made at, then the run, then block 4.
        let index = try String(contentsOf: slides.appendingPathComponent("index.html"), encoding: .utf8)
        let order = ["07-groups-block-01.svg", "07-groups-block-03.svg", "07-groups-run-1.svg", "07-groups-block-04.svg"]
        let positions = try order.map { file in try #require(index.range(of: "src=\"\(file)\"")?.lowerBound, "\(file) in the index") }
        #expect(positions == positions.sorted())
        let blockThree = try String(contentsOf: slides.appendingPathComponent("07-groups-block-03.svg"), encoding: .utf8)
        #expect(blockThree.contains("Groups"))
    }

    @Test("A script that is not there is named, with the shipped one to try")
    func missingScript() async throws {
        let outcome = try await PlainModeTests.tour(["present", "--check", "/nonexistent/talk.talk"])
        #expect(outcome.status == 2)
        #expect(outcome.errors == "tour: there is no script file '/nonexistent/talk.talk'; the shipped ones are assets/talks/part-one.talk and assets/talks/part-two.talk\n",
                "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
        // Presenting it is refused in the same words, before the screen changes, never in Foundation's.
        let presented = try await PlainModeTests.tour(["present", "/nonexistent/talk.talk"])
        #expect(presented.status == 2)
        #expect(presented.errors == "tour: there is no script file '/nonexistent/talk.talk'; the shipped ones are assets/talks/part-one.talk and assets/talks/part-two.talk\n",
                "\(presented.errors)")
    }
}
