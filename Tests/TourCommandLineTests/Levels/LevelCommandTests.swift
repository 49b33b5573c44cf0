import Foundation
import Testing
import PageProtocol
@testable import TourCommandLine
@testable import TourCore
import TourTestSupport

/// `tour levels`, `tour explore` and `tour play --plain`, against the fixture level (a lost update over a model) in a
/// scratch root: the report's words and statuses, the JSON document, a saved schedule replayed, each refusal of a
/// schedule file with its line, and the steps and refusals of a game.
@Suite("The levels' commands", .bodiesBelowTheRunner)
struct LevelCommandTests {
    let folder: LevelFixtureFolder

    init() throws {
        folder = try LevelFixtureFolder()
    }

    @Test func theCatalogFindsTheNumberedFoldersOfLevels() throws {
        let catalog = LevelCatalog.load(root: folder.root)
        #expect(catalog.levels.map(\.folder) == ["01-LostUpdate"], "a folder without a number is no level")
        let level = try #require(catalog.levels.first)
        #expect(level.product == "Level01LostUpdate")
        #expect(level.folderName == "lost-update")
        for query in ["1", "01", "lost-update", "Lost Update", "01-LostUpdate", "Level01LostUpdate"] {
            #expect(catalog.level(namedByFolder: query) == level, "\(query)")
        }
        #expect(catalog.level(namedByFolder: "2") == nil)
        #expect(!level.programIsStale(in: folder.products.path))
        #expect(LevelCatalog.load(root: folder.root.appendingPathComponent("Levels/Notes")).levels.isEmpty, "no Levels folder, no levels")
    }

    @Test func levelsAreListedOneALineByTheNameTheCommandsTake() async throws {
        let programs = folder.programs()
        let page = Page(number: 8, folder: "08-Barrier", title: "Barrier", summary: "", product: "Lesson08Barrier",
                        source: folder.root.appendingPathComponent("main.swift"))
        let said = LevelCommandLines()
        let status = await offThePool { LevelCommand.levels(programs, pages: [page], output: said.output) }
        #expect(status == .endedAsExpected)
        #expect(said.lines == ["lost-update  The lost update (from page 8, barrier)"])
        #expect(try TourCommand.parse(["levels"]) == .levels)
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["levels", "extra"]) }
    }

    @Test func exploreSaysWhatRanWhatFailedAndTheShortestFailingScheduleStepByStep() async throws {
        let (status, said) = try await folder.explore(["lost-update"])
        #expect(status == .endedOtherwise, "a failing schedule is status 1")
        #expect(said.lines == [
            "Level lost-update, version 1: the level as written.",
            "Searched every schedule with at most 2 preemptions: 6 schedules ran, 4 failed.",
            "  a lost update: 4",
            "The shortest failing schedule, 4 steps:",
            "  1. T1 load count → 0",
            "  2. T2 load count → 0",
            "  3. T1 store count = 1",
            "  4. T2 store count = 1",
            "Failure: a lost update: count is 1 after two increments; 2 was expected",
            "Keep it with --save FILE; tour play lost-update --plain --schedule FILE replays it.",
        ])
        #expect(said.errors.isEmpty)
    }

    @Test func aFixWithNoFailureIsABoundedStatementAndStatusZero() async throws {
        let (status, said) = try await folder.explore(["1", "--fixed", "--preemptions", "1"])
        #expect(status == .endedAsExpected)
        #expect(said.lines.contains("0 of 2 schedules with at most 1 preemption fail."), "\(said.lines)")
        #expect(said.lines.contains("That is what this search shows, and no more: a schedule with more preemptions was not tried."))
        #expect(!said.lines.joined().contains("correct"))
    }

    @Test func aRandomSearchWithoutASeedSaysTheSeedItChose() async throws {
        let (status, said) = try await folder.explore(["lost-update", "--random", "20"])
        #expect(status == .endedOtherwise)
        #expect(said.lines.first == "Seed 4242, chosen for this search: give --seed 4242 to draw the same schedules again.")
        #expect(said.lines.contains("Searched 20 random schedules, seed 4242: 20 schedules ran, \(try #require(Self.failing(said.lines))) failed."))
        let (again, seeded) = try await folder.explore(["lost-update", "--random", "20", "--seed", "4242"])
        #expect(again == status)
        #expect(Array(seeded.lines) == Array(said.lines.dropFirst()), "the seed given draws the same schedules")
    }

    /// The number of failing schedules in a report's second line.
    static func failing(_ lines: [String]) -> Int? {
        lines.first { $0.hasPrefix("Searched") }.flatMap { $0.split(separator: " ").dropLast().last.flatMap { Int($0) } }
    }

    @Test func badInputIsStatusTwoAndSaysWhatIsRight() async throws {
        let (unknown, said) = try await folder.explore(["lost-updates"])
        #expect(unknown == .usage)
        #expect(said.errors == ["tour: there is no level 'lost-updates'; the levels are lost-update (see tour levels)"])
        #expect(throws: TourCommand.UsageError(description: "--preemptions needs a whole number from 0 to 5, for example --preemptions 2")) {
            try TourCommand.parse(["explore", "lost-update", "--preemptions", "6"])
        }
        #expect(throws: TourCommand.UsageError(description: "explore searches by --preemptions K or by --random N, not both")) {
            try TourCommand.parse(["explore", "lost-update", "--preemptions", "1", "--random", "5"])
        }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["explore", "lost-update", "--seed", "3"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["explore"]) }
        let (refused, saying) = try await folder.explore(["lost-update", "--save", folder.root.path])
        #expect(refused == .usage)
        #expect(saying.errors.first?.hasPrefix("tour: --save \(folder.root.path) is a folder") == true, "\(saying.errors)")
        #expect(saying.lines.isEmpty, "refused before the search")
    }

    @Test func jsonIsOneDocumentWithSchedulesFailingAndShortest() async throws {
        for (arguments, failing) in [(["lost-update"], 4), (["lost-update", "--fixed"], 0)] {
            let (status, said) = try await folder.explore(arguments + ["--json"])
            #expect(status == (failing > 0 ? .endedOtherwise : .endedAsExpected))
            #expect(said.lines.count == 1)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(said.lines.joined().utf8)) as? [String: Any])
            #expect(document["schedules"] as? Int == (failing > 0 ? 6 : 2))
            #expect(document["failing"] as? Int == failing)
            #expect(document.keys.contains("shortest"), "present, null when none failed")
            #expect((document["shortest"] is NSNull) == (failing == 0))
        }
    }

    @Test func aSavedScheduleReplaysAsTypedStepsWould() async throws {
        let file = folder.root.appendingPathComponent("race.schedule").path
        let (status, said) = try await folder.explore(["lost-update", "--save", file])
        #expect(status == .endedOtherwise)
        #expect(said.lines.last == "Saved to \(file); replay it with tour play lost-update --plain --schedule \(file)")
        let saved = try ScheduleFile.parse(try String(contentsOfFile: file, encoding: .utf8))
        #expect(saved == ScheduleFile(level: "lost-update", version: 1, fixed: false, threads: [1, 2, 1, 2]))

        let (replayStatus, replay) = try await folder.play(["lost-update", "--schedule", file])
        let (typedStatus, typed) = try await folder.play(["lost-update"], typing: ["1", "2", "1", "2"])
        #expect(replayStatus == .endedAsExpected, "\(replay.errors)")
        #expect(typedStatus == .endedAsExpected)
        #expect(replay.lines == typed.lines)
        #expect(replay.lines.contains("You won: the run reached a lost update."))
        #expect(replay.lines.contains("The schedule that made it, 4 steps: 1 2 1 2"))
        #expect(replay.wins == ["lost-update in 4 steps"] && typed.wins == replay.wins, "a win is recorded for progress")
        #expect(replay.lines.last?.contains("--save FILE") == true)
    }

    @Test(arguments: [
        ("level lost-update 1\nfixed no\n1\nthree\n", [String](), "line 4, 'three': a step is one thread number from 1 to 2"),
        ("# made elsewhere\nlevel lock-order 1\nfixed no\n1\n", [], "line 2, 'level lock-order 1': this schedule is for level lock-order, version 1; this is level lost-update, version 1"),
        ("level lost-update 2\nfixed no\n1\n", [], "line 1, 'level lost-update 2': this schedule is for level lost-update, version 2; this is level lost-update, version 1"),
        ("level lost-update 1\nfixed yes\n1\n", [], "line 2, 'fixed yes': this schedule plays the level's fix: add --fixed to replay it"),
        ("level lost-update 1\nfixed no\n1\n", ["--fixed"], "line 2, 'fixed no': this schedule plays the level as written: replay it without --fixed"),
        ("level lost-update 1\nfixed no\n1\n2\n1\n2\n\n1  # one too many\n", [], "line 8, '1  # one too many': the run ended after step 4; this schedule is longer than the level's run"),
    ])
    func aScheduleFileThatDoesNotFitIsRefusedWithItsLine(text: String, flags: [String], message: String) async throws {
        let file = try folder.file("\(UUID().uuidString).schedule", text)
        let (status, said) = try await folder.play(["lost-update", "--schedule", file] + flags)
        #expect(status == .usage)
        #expect(said.errors == ["tour: \(file): \(message)"])
    }

    @Test func playRelaysEachStepAndSaysARefusalInWords() async throws {
        let (status, said) = try await folder.play(["lost-update", "--fixed"], typing: ["1", "", "2", "x", "9"])
        #expect(status == .endedOtherwise, "the input ended first")
        let lines = said.lines
        #expect(lines.contains("Thread 1 T1: enabled, line 9, next lock L, holds nothing."))
        #expect(lines.contains("Step 1. T1 lock L"))
        #expect(lines.contains("Thread 2 T2: blocked on lock L, line 9, next lock L, holds nothing."))
        #expect(lines.contains("Shared: count = 0, L = held by T1."))
        #expect(lines.contains("Locks: L held by T1."))
        #expect(lines.contains("Refused: T2 is blocked: it waits for lock L, which T1 holds."))
        #expect(lines.contains("Type a thread's number, 1 to 2, and Enter; 'x' is not one."))
        #expect(lines.contains("Refused: there is no thread 9: the threads are 1 and 2."))
        #expect(lines.last == "The input ended before the run did: no failure reached this time.")
        #expect(lines.filter { $0.hasPrefix("Step ") }.count == 1, "a refused step takes none")
    }

    @Test func aRunWithoutTheFailureIsNoWin() async throws {
        let (status, said) = try await folder.play(["lost-update"], typing: ["1", "1", "2", "2"])
        #expect(status == .endedOtherwise)
        #expect(said.lines.last == "The run ended and the level's check held: no failure this time. Try another order.")
        #expect(said.wins.isEmpty, "no win, nothing recorded")
    }

    @Test(arguments: [
        ("garbage", "tour: level lost-update sent a line that is not an ExploreReport (not JSON): 'this is not a document'"),
        ("crash", "tour: level lost-update was killed by signal 6 (Aborted) before it answered; its last words: Fatal error: the fixture crashes on demand"),
    ])
    func aMisbehavingLevelIsNamedAndStatusThree(fixture: String, message: String) async throws {
        let (status, said) = try await folder.explore(["lost-update"], misbehaving: fixture)
        #expect(status == .couldNotStart)
        #expect(said.errors == [message])
    }

    @Test func aLevelThatCrashesMidGameIsNamed() async throws {
        let (status, said) = try await folder.play(["lost-update"], typing: ["1"], misbehaving: "crash-on-step")
        #expect(status == .couldNotStart)
        #expect(said.errors.first?.hasPrefix("tour: level lost-update was killed by signal 6") == true, "\(said.errors)")
        #expect(said.lines.contains("Thread 1 T1: enabled, line 10, next load count, holds nothing."), "the state before it is said")
    }

    @Test func aHelpForEachCommandComesFromTheTable() throws {
        for command in [CommandName.levels, .explore, .play] {
            #expect(try TourCommand.parse([command.rawValue, "--help"]) == .commandHelp(command))
            let usage = TourCommand.usage(of: command, pageCount: 14)
            for option in CommandOption.taken(by: command) { #expect(usage.contains(option.synopsis), "\(command) \(option.name)") }
        }
        #expect(TourCommand.usage(pageCount: 14).contains("Be the scheduler"))
    }
}

/// The program of a level, run directly: a line that is no document, a program that never answers (stopped by the
/// watchdog on a test clock, without waiting), and one that dies before it answers.
@Suite("A level's program", .bodiesBelowTheRunner)
struct LevelProcessTests {
    let fixture = BuildProducts.executable(named: "LevelFixture")

    @Test func aDescriptionIsDecoded() async throws {
        let process = try LevelProcess(levelName: "lost-update", executable: fixture, arguments: ["--describe"], patience: 10_000_000_000)
        let description = try await offThePool { Result { () throws(LevelProblem) in try process.next(LevelDescription.self) } }.get()
        #expect(description.name == "lost-update")
        #expect(description.threads == ["T1", "T2"])
    }

    @Test func aLevelThatNeverAnswersIsStoppedByTheWatchdog() async throws {
        let clock = TestClock()
        let process = try LevelProcess(levelName: "lost-update", executable: fixture, arguments: ["--explore"],
                                       environment: ["LEVEL_FIXTURE": "silent"], clock: clock, patience: 30_000_000_000)
        await clock.advance(by: 29_000_000_000)
        #expect(clock.pendingWakes == 1, "not yet")
        await clock.advance(by: 1_000_000_000)
        let outcome = await offThePool { Result { () throws(LevelProblem) in try process.next(ExploreReport.self) } }
        #expect(throws: LevelProblem(kind: .silent, description: "level lost-update did not answer within 30.000 s and was stopped")) {
            try outcome.get()
        }
    }

    @Test func aLineThatIsNoDocumentIsAProblemNamingTheLevel() async throws {
        let process = try LevelProcess(levelName: "lost-update", executable: fixture, arguments: ["--play"],
                                       environment: ["LEVEL_FIXTURE": "garbage"], patience: 10_000_000_000)
        let outcome = await offThePool { Result { () throws(LevelProblem) in try process.next(PlayState.self) } }
        #expect(throws: LevelProblem(kind: .notADocument,
                                     description: "level lost-update sent a line that is not a PlayState (not JSON): 'this is not a document'")) {
            try outcome.get()
        }
    }

    @Test func aProgramThatCannotStartIsSaid() throws {
        #expect(throws: LevelProblem.self) {
            try LevelProcess(levelName: "gone", executable: "/nonexistent/Level99Gone", arguments: ["--describe"], patience: 1_000_000_000)
        }
    }
}
