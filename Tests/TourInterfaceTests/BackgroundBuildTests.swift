@testable import ExerciseJudging
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// The programs `swift run tour` leaves unbuilt, built by the interface one at a time from the first frame on.
@Suite("Background builds", .bodiesBelowTheRunner)
struct BackgroundBuildTests {
    typealias Edit = EditLoopUpdateTests

    /// The fixture with the queue page's exercise, after launch, with every page and the exercise found unbuilt.
    static func launched(current: Int = 0) throws -> (model: TourModel, first: BuildOrder) {
        var model = try FixtureExercises.model()
        model.current = current
        let launch = model.update(.launched)
        let survey = try #require(launch.compactMap { effect -> [Page]? in
            if case .findProgramsToBuild(let pages) = effect { pages } else { nil }
        }.first, "the launch did not ask which programs to build: \(launch)")
        #expect(survey.map(\.folder) == ["01-Queue", "02-Dispatch", "Exercises/01-Queue"])
        let effects = model.update(.editLoop(.programsToBuild(survey)))
        let builds = Edit.builds(effects)
        #expect(builds.count == 1, "one build at a time: \(effects)")
        return (model, try #require(builds.first))
    }

    /// The verdict of a check that never ran its program; nil for any other state.
    static func unranVerdict(_ check: CheckState) -> CheckVerdict? {
        if case .finished(let verdict, ran: false) = check { verdict } else { nil }
    }

    /// The screen's rows as text.
    static func rows(_ model: TourModel) -> [String] {
        let screen = TourRenderer.render(model)
        return screen.lines(in: Rect(x: 0, y: 0, width: screen.size.width, height: screen.size.height))
    }

    static func finish(_ build: BuildOrder, _ model: inout TourModel, _ outcome: BuildOutcome = Edit.outcome(.succeeded)) -> [TourEffect] {
        model.update(.editLoop(.buildFinished(buildID: build.buildID, outcome)))
    }

    @Test("The page in view builds first, then the other pages in order, then the exercises, one at a time")
    func order() throws {
        var (model, first) = try Self.launched(current: 1)
        #expect(first.page.folder == "02-Dispatch")
        #expect(model.pages[1].status == .building)
        #expect(model.pages[0].status == .notBuilt)
        #expect(model.backgroundBuilds.ready == 0 && model.backgroundBuilds.total == 3)

        let second = try #require(Edit.builds(Self.finish(first, &model)).first)
        #expect(second.page.folder == "01-Queue")
        #expect(model.pages[1].status == .notRun)
        #expect(model.backgroundBuilds.ready == 1)
        let third = try #require(Edit.builds(Self.finish(second, &model)).first)
        #expect(third.page.folder == "Exercises/01-Queue")
        #expect(third.page.product == FixtureExercises.challenge.product)
        #expect(Edit.builds(Self.finish(third, &model)).isEmpty)
        #expect(!model.backgroundBuilds.isBusy)
        #expect(model.backgroundBuilds.ready == 3)
    }

    @Test("The status line counts the programs built, and the list of pages marks those still to build")
    func shown() throws {
        var (model, first) = try Self.launched()
        let screen = Self.rows(model)
        #expect(screen.last?.contains("\(Glyphs.unicode.building) 0/3 built") == true, "\(screen.last ?? "")")
        #expect(screen.contains { $0.contains("2 Dispatch") && $0.contains(String(Glyphs.unicode.notBuilt)) }, "\(screen.prefix(8))")

        var build = first
        while let next = Edit.builds(Self.finish(build, &model)).first { build = next }
        let done = Self.rows(model)
        #expect(done.last?.contains("built") == false, "the count goes once every program is built: \(done.last ?? "")")
        #expect(!done.contains { $0.contains(String(Glyphs.unicode.notBuilt)) })
    }

    @Test("Moving to a page puts it and its exercise next in line")
    func movingFirst() throws {
        var (model, first) = try Self.launched()
        #expect(first.page.folder == "01-Queue")
        _ = model.update(.key(.character("n")))
        let next = try #require(Edit.builds(Self.finish(first, &model)).first)
        #expect(next.page.folder == "02-Dispatch")
    }

    @Test("r on a page still waiting builds it next and runs it once built; nothing builds beside the build in flight")
    func runWhileWaiting() throws {
        var (model, first) = try Self.launched()
        _ = model.update(.key(.character("n")))
        let pressed = model.update(.key(.character("r")))
        #expect(Edit.builds(pressed).isEmpty && Edit.starts(pressed).isEmpty, "\(pressed)")
        #expect(model.notice?.contains("builds next") == true)

        let dispatch = try #require(Edit.builds(Self.finish(first, &model)).first)
        #expect(dispatch.page.folder == "02-Dispatch")
        let built = Self.finish(dispatch, &model)
        #expect(Edit.starts(built).count == 1, "the page runs once built: \(built)")
    }

    @Test("No background build starts while a page runs: its timings stay its own")
    func pausedWhileRunning() throws {
        var model = try FixturePages.model()
        _ = model.update(.launched)
        _ = model.update(.editLoop(.watchStarted(page: model.pages[0].page, programIsStale: false)))
        let run = try #require(model.update(.key(.character("r"))).last?.runOrder)
        let found = model.update(.editLoop(.programsToBuild([model.pages[1].page])))
        #expect(Edit.builds(found).isEmpty, "\(found)")
        #expect(model.pages[1].status == .notBuilt)
        let ended = model.update(.host(runID: run.runID, .ended(.exited(code: 0), time: RunScript.time(10))))
        #expect(Edit.builds(ended).map(\.page.folder) == ["02-Dispatch"])
    }

    @Test("A page that does not compile in the background is marked, says nothing over the notice, and opens on its error")
    func failedPage() throws {
        var (model, first) = try Self.launched(current: 1)
        model.notice = "Built in 41 s; later launches open at once."
        let error = Diagnostic(file: model.pages[1].page.source.path, line: 3, column: 1, severity: .error, message: "expected expression")
        _ = Self.finish(first, &model, Edit.outcome(.failed, [error]))
        #expect(model.pages[1].status == .doesNotCompile)
        #expect(model.notice == "Built in 41 s; later launches open at once.")

        model.current = 0
        _ = model.update(.key(.character("n")))
        #expect(model.current == 1)
        #expect(model.currentPage.build.selectedDiagnostic == 0, "the page opens on its first error")
    }

    @Test("An exercise that does not compile shows its error where a check's findings go; c takes over its build")
    func exercises() throws {
        var (model, first) = try Self.launched()
        // The page in view's exercise comes right after the page: its check is what the learner does next there.
        let exerciseBuild = try #require(Edit.builds(Self.finish(first, &model)).first)
        #expect(exerciseBuild.page.folder == "Exercises/01-Queue")
        let file = model.pages[0].exercise!.exerciseFile.path
        let error = Diagnostic(file: file, line: 7, column: 3, severity: .error, message: "cannot find 'queu' in scope")
        _ = Self.finish(exerciseBuild, &model, Edit.outcome(.failed, [error]))
        let check = try #require(model.pages[0].exercise).check
        let verdict = try #require(Self.unranVerdict(check), "no finding for the exercise that does not compile: \(check)")
        #expect(verdict.failures.first?.text.contains("Exercises/01-Queue/main.swift does not compile") == true, "\(verdict.failures)")
        #expect(verdict.failures.first?.text.contains(":7:3: error: cannot find 'queu' in scope") == true)

        // A check while the exercise builds in the background stops that build: the check builds it itself.
        var (again, firstAgain) = try Self.launched()
        let inBackground = try #require(Edit.builds(Self.finish(firstAgain, &again)).first)
        let checked = again.update(.key(.character("c")))
        #expect(checked.contains(.cancelBuild(buildID: inBackground.buildID)), "\(checked)")
        #expect(checked.contains { if case .check = $0 { true } else { false } })
        #expect(again.backgroundBuilds.waiting == [.page(1)], "the check's exercise leaves the queue")
    }

    @Test("? says what the list's build marks mean: not built yet, building, does not compile")
    func helpExplainsTheBuildMarks() throws {
        var model = try FixturePages.model()
        _ = model.update(.key(.character("?")))
        let screen = Self.rows(model)
        let glyphs = Glyphs.unicode
        #expect(screen.contains { $0.contains("\(glyphs.notBuilt) not built yet") && $0.contains("\(glyphs.building) building")
            && $0.contains("\(glyphs.doesNotCompile) does not compile") }, "\(screen.joined(separator: "\n"))")
    }
}
