import Foundation
@testable import Presenting
import Testing
import PageProtocol
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

@Suite("Talk scripts", .bodiesBelowTheRunner)
struct TalkScriptTests {
    @Test("Every kind of step, with comments and blank lines skipped and each step's line kept")
    func parsesEveryStep() async throws {
        let script = try TalkScript.parse("""
            # Page 2, about eight minutes

            page queue
              reveal
            reveal 3
            reveal all
            set maxConcurrentOperationCount 1
            run
            wait
            pause 12.5
            note Point at the lanes: one # of them is busy.
            caption One at a time
            speed 2\r
            """)
        #expect(script.steps == [
            TalkScriptStep(line: 3, step: .page("queue")),
            TalkScriptStep(line: 4, step: .reveal(.blocks(1))),
            TalkScriptStep(line: 5, step: .reveal(.blocks(3))),
            TalkScriptStep(line: 6, step: .reveal(.all)),
            TalkScriptStep(line: 7, step: .set(knob: "maxConcurrentOperationCount", value: "1")),
            TalkScriptStep(line: 8, step: .run),
            TalkScriptStep(line: 9, step: .wait),
            TalkScriptStep(line: 10, step: .pause(seconds: 12.5)),
            TalkScriptStep(line: 11, step: .note("Point at the lanes: one # of them is busy.")),
            TalkScriptStep(line: 12, step: .caption("One at a time")),
            TalkScriptStep(line: 13, step: .speed(2)),
        ])
    }

    @Test("Every kind of bad line is named by its line, with what would be right")
    func everyBadLine() async throws {
        let text = """
            page
            page 2 3
            reveal none
            reveal 0
            set
            set maxConcurrentOperationCount
            set a b c
            run now
            wait 5
            pause
            pause -1
            pause 601
            note
            caption
            speed fast
            speed 1000
            jump 3
            page 2
            """
        let problems = try #require(throws: TalkScriptProblems.self) { try TalkScript.parse(text) }.problems.map(\.description)
        #expect(problems == [
            "line 1: `page` needs a page, for example `page 2` or `page queue`",
            "line 2: `page` takes one page, but got '2 3'; write one `page` step per page",
            "line 3: `reveal` takes a number of blocks from 1, or `all`, for example `reveal 2`; not 'none'",
            "line 4: `reveal` takes a number of blocks from 1, or `all`, for example `reveal 2`; not '0'",
            "line 5: `set` needs a knob and a value, for example `set maxConcurrentOperationCount 3`",
            "line 6: `set` needs a knob and a value, for example `set maxConcurrentOperationCount 3`, but got 'maxConcurrentOperationCount'",
            "line 7: `set` needs a knob and a value, for example `set maxConcurrentOperationCount 3`, but got 'a b c'",
            "line 8: `run` takes nothing after it, but got 'now'",
            "line 9: `wait` takes nothing after it, but got '5'",
            "line 10: `pause` needs a number of seconds above 0 and at most 600, for example `pause 20`",
            "line 11: `pause` needs a number of seconds above 0 and at most 600, for example `pause 20`, not '-1'",
            "line 12: `pause` needs a number of seconds above 0 and at most 600, for example `pause 20`, not '601'",
            "line 13: `note` needs the words the speaker reads, for example `note Point at the second lane.`",
            "line 14: `caption` needs the words the room reads, for example `caption One at a time`",
            "line 15: `speed` needs a factor from 0.1 to 100, for example `speed 2` (1 is real time), not 'fast'",
            "line 16: `speed` needs a factor from 0.1 to 100, for example `speed 2` (1 is real time), not '1000'",
            "line 17: 'jump' is not a step; a line starts with one of page, reveal, set, run, wait, pause, note, caption, speed, seed, end, theme, or # for a comment",
        ])
    }

    @Test("`seed N` and `seed off` set the seed of the runs that follow; every bad seed line is named with what would be right")
    func seedLines() async throws {
        let script = try TalkScript.parse("seed 7\nseed off\nseed 18446744073709551615\n")
        #expect(script.steps.map(\.step) == [.seed(7), .seed(nil), .seed(UInt64.max)])
        let problems = try #require(throws: TalkScriptProblems.self) {
            try TalkScript.parse("seed\nseed -1\nseed 1.5\nseed 7 8\nseed on\nseed 18446744073709551616\n")
        }.problems.map(\.description)
        let message = "`seed` needs a whole number from 0 to 18446744073709551615, for example `seed 7` (the same random delays every run), or `off` for runs that differ"
        #expect(problems == [
            "line 1: \(message)",
            "line 2: \(message), not '-1'",
            "line 3: \(message), not '1.5'",
            "line 4: \(message), not '7 8'",
            "line 5: \(message), not 'on'",
            "line 6: \(message), not '18446744073709551616'",
        ])
    }

    @Test("A plan's runs carry the seed the script set by then, starting from the one the check was given")
    func planCarriesTheSeed() async throws {
        let catalog = try PageCatalog.load()
        let script = try TalkScript.parse("page 8\nrun\nseed 7\nrun\npage 1\nrun\nseed off\nrun\n")
        let pages = catalog.pages.map(TalkPage.init(reading:))
        #expect(try TalkPlan.check(script, pages: pages, catalog: catalog).runs.map(\.seed) == [nil, 7, 7, nil])
        #expect(try TalkPlan.check(script, pages: pages, catalog: catalog, seed: 3).runs.map(\.seed) == [3, 7, 7, nil])
    }

    @Test("A script of only comments has no steps, and says how to start one")
    func noSteps() async throws {
        let problems = try #require(throws: TalkScriptProblems.self) { try TalkScript.parse("# nothing yet\n\n") }
        #expect(problems.description == "the script has no steps; start with a page, for example `page 1`, then `reveal 2` and `run`")
    }

    @Test("Checked against the pages: unknown pages and knobs, values a knob does not take, reveals past the end, steps before a page")
    func checkedAgainstThePages() async throws {
        let catalog = try PageCatalog.load()
        let pages = catalog.pages.map(TalkPage.init(reading:))
        let queueBlocks = try #require(pages.first { $0.page.slug == "queue" }).blockCount
        let script = try TalkScript.parse("""
            set maxConcurrentOperationCount 3
            page queues
            page queue
            set maxConcurrent 3
            set maxConcurrentOperationCount 9
            set workload sleepy
            reveal \(queueBlocks)
            reveal all
            reveal
            """)
        let problems = try #require(throws: TalkScriptProblems.self) { try TalkPlan.check(script, pages: pages, catalog: catalog) }
        #expect(problems.problems.map(\.description) == [
            "line 1: `set` comes before any `page` step, so it has no page to act on; put `page 1` (or its page) above it",
            "line 2: there is no page 'queues'; the pages are \(catalog.choices)",
            "line 4: no knob named 'maxConcurrent'; the knobs of page 2 (queue) are maxConcurrentOperationCount, workload, previewPriority, serialQoSQueue, rounds, "
                + "queueQualityOfService",
            "line 5: knob maxConcurrentOperationCount takes a whole number from 1 to 8, not '9'; for example `set maxConcurrentOperationCount 2`",
            "line 6: knob workload is one of sleeping, computing, not 'sleepy'; for example `set workload sleeping`",
            "line 7: `reveal \(queueBlocks)` goes past the end of page 2 (queue): it has \(queueBlocks) blocks and 1 are shown by then; `reveal \(queueBlocks - 1)` or `reveal all` shows the rest",
            "line 9: `reveal 1` goes past the end of page 2 (queue): it has \(queueBlocks) blocks and \(queueBlocks) are shown by then; every block is shown already",
        ])
    }

    @Test("The plan's runs carry the knobs set on their page so far, at the speed set so far")
    func planOfRuns() async throws {
        let catalog = try PageCatalog.load()
        let script = try TalkScript.parse("""
            speed 4
            page 2
            set maxConcurrentOperationCount 1
            run
            page 1
            run
            page 2
            set maxConcurrentOperationCount 2
            set workload computing
            speed 8
            run
            pause 30
            wait
            """)
        let plan = try TalkPlan.check(script, pages: catalog.pages.map(TalkPage.init(reading:)), catalog: catalog)
        #expect(plan.runs.map(\.line) == [4, 6, 11])
        #expect(plan.runs.map(\.page.number) == [2, 1, 2])
        #expect(plan.runs[0].knobSettings == [KnobSetting(name: "maxConcurrentOperationCount", value: "1")])
        #expect(plan.runs[1].knobSettings == [])
        // Setting the default back leaves the knob out, as the tutorial's knob panel does.
        #expect(plan.runs[2].knobSettings == [KnobSetting(name: "workload", value: "computing")])
        #expect(plan.runs.map(\.speed) == [4, 4, 8])
        #expect(plan.pauseSeconds == 30)
        #expect(plan.waits == 1)
    }

    @Test("`end` and `end TEXT` parse, and an end step anywhere but last is named with what would be right")
    func endStep() throws {
        let catalog = try PageCatalog.load()
        let pages = catalog.pages.map(TalkPage.init(reading:))
        #expect(try TalkScript.parse("page 1\nend\n").steps.last?.step == .end("Questions?"))
        #expect(try TalkScript.parse("page 1\nend Thank you!\n").steps.last?.step == .end("Thank you!"))
        let problems = try #require(throws: TalkScriptProblems.self) {
            try TalkPlan.check(try TalkScript.parse("page 1\nend\nreveal 1\n"), pages: pages, catalog: catalog)
        }.problems.map(\.description)
        #expect(problems == ["line 2: `end` shows the talk's end slide and must be the script's last step; move the steps after it above it"])
        for talk in ShippedTalks.all {
            let text = try String(contentsOf: catalog.root.appendingPathComponent(talk), encoding: .utf8)
            #expect(try TalkScript.parse(text).steps.last?.step == .end("Questions?"), "\(talk) ends on its end slide")
        }
    }

    /// Page 1 shows a block operation's blocks end to end on one thread (corelibs' `main()` loops over them); the talk's
    /// note on that run once told the speaker they each ran on a thread of their own.
    @Test("Part one's note on the block operation's run says what page 1 shows: its blocks one after another")
    func blockOperationNoteIsTrue() throws {
        let catalog = try PageCatalog.load()
        let text = try String(contentsOf: catalog.root.appendingPathComponent(ShippedTalks.partOne), encoding: .utf8)
        let notes = try TalkScript.parse(text).steps.compactMap { if case .note(let note) = $0.step { note } else { nil } }
        let note = try #require(notes.first { $0.contains("block operation") })
        #expect(note.contains("one after another"))
        #expect(!notes.contains { $0.contains("its own thread") })
    }

    @Test("The shipped talks are the ones the messages name, one for each part")
    func shippedTalksAreNamed() throws {
        let catalog = try PageCatalog.load()
        let folder = catalog.root.appendingPathComponent("assets/talks")
        let talks = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".talk") }
        #expect(talks.sorted().map { "assets/talks/\($0)" } == ShippedTalks.all.sorted())
        let parts = catalog.pages.compactMap(\.part).reduce(into: [PagePart]()) { if !$0.contains($1) { $0.append($1) } }
        #expect(ShippedTalks.all.count == parts.count, "one talk for each part")
    }

    @Test("The shipped talk of part two reads, fits the pages, walks every page of part two in order and plans about twenty minutes")
    func shippedTalkOfPartTwo() async throws {
        let catalog = try PageCatalog.load()
        let text = try String(contentsOf: catalog.root.appendingPathComponent(ShippedTalks.partTwo), encoding: .utf8)
        let plan = try TalkPlan.check(try TalkScript.parse(text), pages: catalog.pages.map(TalkPage.init(reading:)), catalog: catalog)
        let partTwo = catalog.pages.filter { $0.part?.label == "Part two" }.map(\.number)
        #expect(partTwo.count >= 6)
        #expect(plan.pagesVisited.map(\.number) == partTwo, "every page of part two, once, in order")
        #expect((14 * 60.0...19 * 60.0).contains(plan.pauseSeconds), "pauses of \(plan.pauseSeconds) s")
        #expect(plan.runs.count >= partTwo.count * 2)
    }

    @Test("The shipped talk of part one reads, fits the pages, walks all eight and plans about twenty minutes")
    func shippedTalk() async throws {
        let catalog = try PageCatalog.load()
        let text = try String(contentsOf: catalog.root.appendingPathComponent(ShippedTalks.partOne), encoding: .utf8)
        let plan = try TalkPlan.check(try TalkScript.parse(text), pages: catalog.pages.map(TalkPage.init(reading:)), catalog: catalog)
        #expect(Set(plan.pagesVisited.map(\.number)) == Set(1...8))
        #expect(plan.pagesVisited.map(\.number) == plan.pagesVisited.map(\.number).sorted(), "the pages in order")
        #expect((15 * 60.0...19 * 60.0).contains(plan.pauseSeconds), "pauses of \(plan.pauseSeconds) s")
        #expect(plan.runs.count >= 8)
    }
}
