import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Every level's program, run as the host runs it: `--explore` finds a failing schedule and exits 1, `--explore
/// --fixed` searches at least 10 schedules and finds none, and the shortest failing schedule, fed to `--play` a step a
/// line, reaches the same failure in 10 runs out of 10. The programs run off Swift Testing's threads (`runToEnd`,
/// `awaitBlocking`); nothing here waits on time.
@Suite("Level programs", .bodiesBelowTheRunner, .timeLimit(.minutes(2)))
struct LevelProgramTests {
    static let levels = ["Level01LostUpdate", "Level02CheckThenAct", "Level03LockOrder", "Level04SyncOnOwnQueue", "Level05ResumedTwice", "Level06ActorReentrancy", "Level07GlobalBarrier", "Level08PoolStarvation"]

    @Test(arguments: levels)
    func theSearchFindsTheFailureAndTheShortestScheduleReplaysToIt(product: String) async throws {
        let explored = try await runToEnd(BuildProducts.executable(named: product), ["--explore"], label: product)
        #expect(explored.status == 1, "\(explored.output)")
        let report = try JSONDecoder().decode(ExploreReport.self, from: Data(explored.output.utf8))
        #expect(report.failing > 0)
        #expect(report.exhaustive)
        let shortest = try #require(report.shortest)
        #expect(report.failures[shortest.failure.kind.rawValue, default: 0] > 0)
        let input = shortest.steps.map { "\($0.thread)\n" }.joined()
        for _ in 1...10 {
            let played = try await play(product, input: input)
            let end = try #require(played.last)
            #expect(end.ended)
            #expect(end.failure == shortest.failure)
            #expect(end.steps == shortest.steps)
            #expect(played.allSatisfy { $0.refusal == nil }, "no step of the schedule is refused")
        }
    }

    @Test(arguments: levels)
    func theFixFailsInNoScheduleOfTheSearch(product: String) async throws {
        let explored = try await runToEnd(BuildProducts.executable(named: product), ["--explore", "--fixed"], label: product)
        #expect(explored.status == 0, "\(explored.output)")
        let report = try JSONDecoder().decode(ExploreReport.self, from: Data(explored.output.utf8))
        #expect(report.fixed)
        #expect(report.schedules >= 10)
        #expect(report.failing == 0)
        #expect(report.shortest == nil)
        #expect(report.strategy == "every schedule with at most 2 preemptions")
    }

    @Test(arguments: levels)
    func playRefusesAStepNoThreadCanTakeAndAnyStepAfterTheEnd(product: String) async throws {
        let description = try JSONDecoder().decode(
            LevelDescription.self, from: Data(try await runToEnd(BuildProducts.executable(named: product), ["--describe"], label: product).output.utf8))
        #expect(!description.hints.isEmpty && !description.introduction.isEmpty && !description.threads.isEmpty)
        let explored = try await runToEnd(BuildProducts.executable(named: product), ["--explore"], label: product)
        let shortest = try #require(try JSONDecoder().decode(ExploreReport.self, from: Data(explored.output.utf8)).shortest)
        let input = "9\nx\n" + shortest.steps.map { "\($0.thread)\n" }.joined() + "1\n"
        let played = try await play(product, input: input)
        #expect(played[1].refusal?.contains("from 1 to \(description.threads.count)") == true)
        #expect(played[1].steps.isEmpty && played[2].steps.isEmpty)
        if shortest.failure.kind == .crash {
            // The crash is made for real, after the state that names it: nothing answers the step after it.
            #expect(played.count == shortest.steps.count + 3)
            #expect(played.last?.failure == shortest.failure)
        } else {
            #expect(played.count == shortest.steps.count + 4)
            #expect(played[played.count - 1].refusal?.contains("the run has ended") == true)
            #expect(played[played.count - 1].steps == played[played.count - 2].steps)
        }
    }

    @Test func everyLevelFolderIsTested() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Levels")
        let folders = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(folders.map { "Level" + $0.filter { $0 != "-" } }.sorted() == Self.levels)
    }

    /// The tutorial says which page has a level from the levels' sources, without building or running them: what it reads
    /// must be what each program describes, and the name it plays a level by the name the level gives.
    @Test func thePageReadFromALevelsSourceIsTheOneItDescribes() async throws {
        let catalog = LevelCatalog.load(root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent())
        #expect(catalog.levels.count == Self.levels.count)
        for level in catalog.levels {
            let described = try JSONDecoder().decode(
                LevelDescription.self, from: Data(try await runToEnd(BuildProducts.executable(named: level.product), ["--describe"], label: level.product).output.utf8))
            #expect(level.pageInSource() == described.page, "\(level.folder)")
            #expect(level.folderName == described.name, "\(level.folder)")
        }
        #expect(catalog.levelsOnPages.contains { $0.name == "lost-update" && $0.page == 8 })
    }

    @Test func badArgumentsSayWhatIsWrongAndExitTwo() async throws {
        let run = try await runToEnd(BuildProducts.executable(named: Self.levels[0]), ["--explore", "--random", "3"], label: "bad")
        #expect(run.status == 2)
        #expect(run.output.contains("--random N needs --seed S"))
        #expect(run.output.contains("usage:"))
    }

    /// Runs `product --play` with `input` on its standard input; the states it printed, one a line.
    func play(_ product: String, input: String) async throws -> [PlayState] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("level-input-\(UUID().uuidString)")
        try Data(input.utf8).write(to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = try await awaitBlocking("play \(product)") { () throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: product))
            process.arguments = ["--play"]
            process.standardInput = try FileHandle(forReadingFrom: scratch)
            // A level that crashes for real (a continuation resumed twice) prints the runtime's backtrace there.
            process.standardError = FileHandle.nullDevice
            return String(decoding: try process.runCapturingOutput(withErrors: false), as: UTF8.self)
        }
        return try output.split(separator: "\n").map { try JSONDecoder().decode(PlayState.self, from: Data($0.utf8)) }
    }
}
