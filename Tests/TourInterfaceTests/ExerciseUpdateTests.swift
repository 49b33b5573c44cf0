import ExerciseJudging
import Foundation
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// The exercises as the model plays them: the prediction asked before a run and graded by it, checks and their
/// verdicts, re-checks on save, hints, the solution's lock, and the state progress brought back.
@Suite("Exercise updates", .bodiesBelowTheRunner)
struct ExerciseUpdateTests {
    /// The helper span on the worker: "b" is right.
    static var helperOnWorker: RunScript { .finishedQueueRun }

    static var helperOnMain: RunScript {
        var script = RunScript()
        script.span(2, "helper", from: 100, to: 300, thread: RunScript.mainThread, queue: RunScript.mainQueue)
        script.end(.exited(code: 0), at: 400)
        return script
    }

    private func feed(_ script: RunScript, to runID: Int, in model: inout TourModel) -> [TourEffect] {
        script.events.flatMap { model.update(.host(runID: runID, $0)) }
    }

    @Test("r on an unanswered prediction asks it first; a choice runs the page, whose end grades and records the answer")
    func predictionAskedThenGraded() async throws {
        var model = try FixtureExercises.model()
        #expect(model.update(.key(.character("r"))).isEmpty, "nothing runs before the question is answered")
        #expect(model.overlay == .predict(page: 0))
        // Another key leaves the question open and says which keys answer it.
        #expect(model.update(.key(.character("z"))).isEmpty)
        #expect(model.overlay == .predict(page: 0))
        #expect(model.notice == "Answer with a or b; r runs without answering, Esc runs nothing.")

        let orderGiven = model.update(.key(.character("b"))).last?.runOrder
        let order = try #require(orderGiven)
        #expect(model.overlay == nil)
        #expect(model.currentPage.exercise?.pendingAnswer == PendingAnswer(choice: "b", runID: order.runID))
        let effects = feed(Self.helperOnWorker, to: order.runID, in: &model)
        #expect(effects == [.recordProgress(.predicted(page: "queue", prediction: "helper-thread", right: true))])
        let exercise = try #require(model.currentPage.exercise)
        #expect(exercise.answeredRight == true)
        #expect(exercise.pendingAnswer == nil)
        #expect(exercise.lastGrade?.outcome == .right)
        let notice = try #require(model.notice)
        #expect(notice.contains("You said (b) a worker thread; it ran on"), "\(notice)")
        #expect(notice.contains("a worker"))

        // Answered: r runs at once; a asks again, and a wrong answer then replaces the right one.
        #expect(model.update(.key(.character("r"))).last?.runOrder != nil)
        model.press(.character("a"))
        #expect(model.overlay == .predict(page: 0))
        let secondGiven = model.update(.key(.character("a"))).last?.runOrder
        let second = try #require(secondGiven)
        #expect(feed(Self.helperOnWorker, to: second.runID, in: &model)
            == [.recordProgress(.predicted(page: "queue", prediction: "helper-thread", right: false))])
        #expect(model.currentPage.exercise?.answeredRight == false)
        #expect(model.notice?.contains("The answer was (b) a worker thread.") == true, "\(model.notice ?? "")")
    }

    @Test("Esc closes the question and runs nothing; r in it runs unanswered, not asked again; a run that cannot tell records nothing")
    func predictionCancelledOrSkipped() async throws {
        var model = try FixtureExercises.model()
        model.press(.character("r"))
        #expect(model.update(.key(.escape)).isEmpty, "Esc runs nothing")
        #expect(model.overlay == nil)
        #expect(model.currentPage.runID == nil)
        #expect(model.notice == "Nothing ran; r asks the question again.")
        #expect(model.update(.key(.character("r"))).isEmpty, "a cancelled question is asked again")
        #expect(model.overlay == .predict(page: 0))

        let effects = model.update(.key(.character("r")))
        let order = try #require(effects.last?.runOrder, "r in the question runs the page: \(effects)")
        #expect(model.overlay == nil)
        #expect(model.currentPage.exercise?.pendingAnswer == nil)
        #expect(feed(Self.helperOnMain, to: order.runID, in: &model).isEmpty)
        #expect(model.currentPage.exercise?.answeredRight == nil)
        #expect(model.update(.key(.character("r"))).last?.runOrder != nil, "a skipped question is not asked again")

        model.press(.character("a"))
        let answeredGiven = model.update(.key(.character("a"))).last?.runOrder
        let answered = try #require(answeredGiven)
        var crashed = RunScript()
        crashed.end(.fatalError(message: "Fatal error: boom", location: "main.swift:3"), at: 5)
        #expect(feed(crashed, to: answered.runID, in: &model).isEmpty, "a run that cannot tell records no answer")
        #expect(model.currentPage.exercise?.answeredRight == nil)
        #expect(model.currentPage.exercise?.lastGrade?.outcome == .unknown)
        #expect(model.notice?.contains("this run cannot tell: the run ended before the helper span") == true, "\(model.notice ?? "")")
        #expect(model.notice?.hasSuffix("a answers again.") == true)
    }

    @Test("An answer given while the page must build first is graded by the run after the build, not by an older one")
    func answerWaitsForTheRunAfterABuild() async throws {
        var model = try FixtureExercises.model()
        model.pages[0].build.needsBuild = true
        model.press(.character("a"))
        let effects = model.update(.key(.character("b")))
        #expect(effects.contains { if case .build = $0 { true } else { false } })
        #expect(model.currentPage.exercise?.pendingAnswer == PendingAnswer(choice: "b", runID: nil))
        let buildID = try #require(model.pages[0].build.cycle.buildInFlight)
        let outcome = EditLoopUpdateTests.outcome(.succeeded)
        let orderGiven = model.update(.editLoop(.buildFinished(buildID: buildID, outcome))).last?.runOrder
        let order = try #require(orderGiven)
        #expect(model.currentPage.exercise?.pendingAnswer == PendingAnswer(choice: "b", runID: order.runID))
        #expect(feed(Self.helperOnWorker, to: order.runID, in: &model).contains(.recordProgress(
            .predicted(page: "queue", prediction: "helper-thread", right: true))))
    }

    @Test("c checks: building, running, then the verdict; a failure says what is wrong, a pass is recorded")
    func checkFailsThenPasses() async throws {
        var model = try FixtureExercises.model(width: 80, height: 24)
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        #expect(order.page == model.currentPage.page && order.challenge.id == "one-at-a-time")
        #expect(model.currentPage.exercise?.check == .building(checkID: order.checkID))
        // The page pane shows the challenge, where the findings will appear.
        let challengeRow = try #require(model.pageLayout().exerciseRows?.challenge)
        #expect(model.currentPage.pageScroll == min(challengeRow, model.pageLayout().rows.count - model.box(of: .page).inside.height))

        #expect(model.update(.exercise(.checkRunning(checkID: order.checkID))).isEmpty)
        #expect(model.currentPage.exercise?.check == .running(checkID: order.checkID))
        let failing = FixtureExercises.verdict(passing: false)
        #expect(model.update(.exercise(.checkFinished(checkID: order.checkID, failing, run: RunRecord())))
            == [.recordProgress(.checked(page: "queue", exercise: "one-at-a-time", passed: false,
                                         firstFailure: "two work spans ran at once; the limit is one"))])
        #expect(model.currentPage.exercise?.check == .finished(failing, ran: true))
        #expect(model.notice == "Check failed: two work spans ran at once; the limit is one.")
        #expect(model.currentPage.exercise?.passed == false)

        let againGiven = model.pressCheck()
        let again = try #require(againGiven)
        #expect(again.checkID != order.checkID)
        let passing = FixtureExercises.verdict(passing: true)
        #expect(model.update(.exercise(.checkFinished(checkID: again.checkID, passing, run: RunRecord())))
            == [.recordProgress(.checked(page: "queue", exercise: "one-at-a-time", passed: true))])
        #expect(model.currentPage.exercise?.passed == true)
        #expect(model.notice == "Check passed: Run the work one at a time. v shows the reference solution.")
    }

    @Test("A check replaces one in flight, whose late verdict changes nothing; a save of the exercise checks again")
    func recheckOnSave() async throws {
        var model = try FixtureExercises.model()
        let firstGiven = model.pressCheck()
        let first = try #require(firstGiven)
        let effects = model.update(.exercise(.exerciseChanged(page: model.currentPage.page, files: ["main.swift"])))
        #expect(effects.first == .cancelCheck(checkID: first.checkID))
        let second = try #require(effects.compactMap { if case .check(let order) = $0 { order } else { nil } }.first)
        #expect(model.notice == "main.swift changed: checking it again…")
        #expect(model.update(.exercise(.checkFinished(checkID: first.checkID, FixtureExercises.verdict(passing: true), run: RunRecord()))).isEmpty)
        #expect(model.currentPage.exercise?.check == .building(checkID: second.checkID), "the replaced check's verdict is ignored")
    }

    @Test("h shows the next hint, except in the timeline, where it still steps to the previous span")
    func hintsAndTheTimeline() async throws {
        var model = try FixtureExercises.model()
        #expect(model.update(.key(.character("h"))) == [.recordProgress(.hintShown(page: "queue", exercise: "one-at-a-time", number: 1))])
        #expect(model.currentPage.exercise?.hintsTaken == 1)
        #expect(model.notice == "Hint 1 of 3: A queue has a width.")
        model.pages[0].exercise?.skippedPrediction = true
        model.run(.finishedQueueRun)
        model.press(.tab, .tab)
        #expect(model.focus == .timeline)
        model.press(.character("l"), .character("h"))
        #expect(model.currentPage.exercise?.hintsTaken == 1, "h in the timeline is not a hint")
        #expect(model.currentPage.timeline.selectedSpanID != nil)
        model.press(.tab, .character("h"), .character("h"), .character("h"))
        #expect(model.currentPage.exercise?.hintsTaken == 3)
        #expect(model.notice == "That was the last hint (3 of 3); v shows the reference solution.")
    }

    @Test("v is locked until a pass or two hints, then reads the solution into a read-only overlay that Esc closes")
    func solutionUnlocks() async throws {
        var model = try FixtureExercises.model(width: 80, height: 24)
        #expect(model.update(.key(.character("v"))).isEmpty)
        #expect(model.overlay == nil)
        #expect(model.notice == "The solution opens once the check passes (c), or after 2 hints (h: 0 taken).")
        model.press(.character("h"), .character("h"))
        let exercise = try #require(model.currentPage.exercise)
        let page = model.currentPage.page
        #expect(model.update(.key(.character("v"))) == [.readSolution(page: page, file: exercise.solutionFile),
                                                        .recordProgress(.solutionOpened(page: "queue", exercise: "one-at-a-time"))])
        #expect(model.overlay == .solution(page: 0))
        #expect(exercise.solutionFile.path.hasSuffix("/Solutions/01-Queue/main.swift"))
        #expect(model.update(.exercise(.solutionRead(page: page, .read(FixtureExercises.solution)))).isEmpty)
        // Keys scroll it or close it; none edits anything.
        for key: Key in [.character("j"), .pageDown, .character("G"), .character("e"), .character("x")] {
            #expect(model.update(.key(key)).isEmpty)
        }
        #expect(model.overlay == .solution(page: 0))
        model.press(.escape)
        #expect(model.overlay == nil)
        // Read once: opening it again needs no read.
        #expect(model.update(.key(.character("v"))) == [.recordProgress(.solutionOpened(page: "queue", exercise: "one-at-a-time"))])
        #expect(model.overlay == .solution(page: 0))
    }

    @Test("A pass opens the solution without hints; an unreadable solution closes it with the reason")
    func solutionAfterAPass() async throws {
        var model = try FixtureExercises.model()
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        _ = model.update(.exercise(.checkFinished(checkID: order.checkID, FixtureExercises.verdict(passing: true), run: RunRecord())))
        #expect(model.update(.key(.character("v"))).count == 2)
        _ = model.update(.exercise(.solutionRead(page: model.currentPage.page, .unreadable("Solutions/01-Queue/main.swift is gone"))))
        #expect(model.overlay == nil)
        #expect(model.notice == "Could not read the reference solution: Solutions/01-Queue/main.swift is gone")
    }

    @Test("E opens the exercise file, not the page, keeping the exercise's original; pages without exercises say so")
    func editExercise() async throws {
        var model = try FixtureExercises.model()
        model.editing = EditingSettings(editor: "vi", editorOrigin: "EDITOR")
        let file = try #require(model.currentPage.exercise?.exerciseFile)
        let effects = model.update(.key(.character("E")))
        let order = try #require(effects.first.flatMap { if case .edit(let order) = $0 { order } else { nil } })
        #expect(effects.count == 1 && order.file == file.path && order.line == 1)
        // The folder whose original is kept is the exercise's, as `tour reset` finds it.
        #expect(order.page.folder == "Exercises/01-Queue" && order.page.source == file)
        #expect(file.path.hasSuffix("/Exercises/01-Queue/main.swift"))
        model.press(.character("n"))
        for key in ["E", "c", "h", "v", "a"] {
            #expect(model.update(.key(.character(Character(key)))).isEmpty)
            #expect(model.notice?.hasPrefix("Page 2 has no") == true, "\(key): \(model.notice ?? "")")
        }
    }

    @Test("Showing a page with exercises watches its exercise folder; progress brings back answers and passes")
    func watchAndProgress() async throws {
        var progress = ProgressRecord()
        progress.apply(.predicted(page: "queue", prediction: "helper-thread", right: false), at: Date(timeIntervalSince1970: 0))
        progress.apply(.passed(page: "queue", exercise: "one-at-a-time"), at: Date(timeIntervalSince1970: 1))
        progress.apply(.hintShown(page: "queue", exercise: "one-at-a-time", number: 2), at: Date(timeIntervalSince1970: 2))
        var model = try FixtureExercises.model(progress: progress)
        let exercise = try #require(model.currentPage.exercise)
        #expect(exercise.answeredRight == false && exercise.passed && exercise.isDone)
        #expect(exercise.hintsTaken == 2, "hints shown in an earlier session stay shown")
        #expect(model.update(.launched).contains(.watchExercise(page: model.currentPage.page, exercise: exercise.exerciseFiles)))
        #expect(exercise.exerciseFiles.source == exercise.exerciseFile)
        #expect(model.update(.key(.character("r"))).last?.runOrder != nil, "an answered prediction is not asked first")
        // A page without exercises watches none.
        #expect(!model.update(.key(.character("n"))).contains { if case .watchExercise = $0 { true } else { false } })
    }

    @Test("After c, C switches the output and timeline to the check's run and back; a new run of the page shows that one")
    func checkRunSwitch() async throws {
        var model = try FixtureExercises.model()
        model.press(.character("C"))
        #expect(model.notice == "No check has run yet: c checks your exercise, then C shows its run here.")
        #expect(!model.currentPage.showsCheckRun)

        // r asks the prediction first; r in the question runs the page unanswered.
        model.press(.character("r"))
        model.run(.finishedQueueRun)
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        let checked = FixtureExercises.checkedRun(overlapping: true)
        _ = model.update(.exercise(.checkFinished(checkID: order.checkID, FixtureExercises.verdict(passing: false), run: checked)))
        #expect(!model.currentPage.showsCheckRun, "the check's verdict alone does not take the panes away from the page's run")
        model.press(.tab, .tab, .character("l"))
        #expect(model.currentPage.timeline.selectedSpanID != nil)

        model.press(.character("C"))
        #expect(model.currentPage.showsCheckRun)
        #expect(model.currentPage.shownRecord?.spans.map(\.name) == ["work", "work"])
        #expect(model.currentPage.record?.spans.map(\.name) != ["work", "work"], "the page's own run is kept")
        #expect(model.currentPage.timeline.selectedSpanID == nil, "the timeline starts afresh on the other run")
        #expect(model.notice == "Output and timeline: your exercise's last check. C shows the page's run.")
        #expect(model.update(.key(.character("S"))) == [.savePictures(page: model.currentPage.page)])

        model.press(.character("C"))
        #expect(!model.currentPage.showsCheckRun)
        model.press(.character("C"))
        #expect(model.currentPage.showsCheckRun)
        // r runs the page: its new run is what the learner watches.
        #expect(model.update(.key(.character("r"))).last?.runOrder != nil)
        #expect(!model.currentPage.showsCheckRun)

        // A check whose program did not build has no run to show: the panes go back to the page's.
        model.press(.character("C"))
        let failedGiven = model.pressCheck()
        let failed = try #require(failedGiven)
        _ = model.update(.exercise(.checkFinished(checkID: failed.checkID, CheckVerdict(findings: [CheckFinding(holds: false, "does not compile")]), run: nil)))
        #expect(!model.currentPage.showsCheckRun && model.currentPage.exercise?.checkRun == nil)

        model.press(.character("n"), .character("C"))
        #expect(model.notice == "Page 2 has no code challenge, so no check's run to show.")
    }
}
