import ExerciseJudging
import Foundation
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// How the exercises look at 120×40 and 80×24: the block at the end of the page, the question before a run, the
/// solution, the list's marks and the keys in the help.
@Suite("Exercise rendering", .bodiesBelowTheRunner)
struct ExerciseRenderingTests {
    /// A model whose check of the challenge has failed, after one hint.
    private func failedCheck(width: Int, height: Int) throws -> TourModel {
        var model = try FixtureExercises.model(width: width, height: height)
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        _ = model.update(.exercise(.checkFinished(checkID: order.checkID, FixtureExercises.verdict(passing: false), run: RunRecord())))
        model.press(.character("h"))
        return model
    }

    @Test("120×40: the exercises end the page; the failing finding comes first, in red, before what holds")
    func fullFailedCheck() async throws {
        let model = try failedCheck(width: 120, height: 40)
        let screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        Snapshot.expect(screen.lines(in: page), matches: "pane-page-exercise-failing-120")
        let failing = try #require(screen.find("✗ two work spans ran at once; the limit is one", in: page))
        let holding = try #require(screen.find("✓ the program ran to its end", in: page))
        #expect(failing.y < holding.y, "what is still wrong comes first")
        #expect(screen[failing.x, failing.y].style.foreground == .failure)
        #expect(screen[holding.x, holding.y].style.foreground == .success)
        #expect(screen.find("Hint 1 of 3  A queue has a width.", in: page) != nil)
        #expect(screen.find("✗ failing: 1 of 3 still wrong", in: page) != nil)
        Snapshot.expect([screen.text(ofRow: 39)], matches: "status-exercise-failing-120")
    }

    @Test("80×24: after c the page pane shows the challenge and its findings; the strip marks the page's exercises")
    func compactFailedCheck() async throws {
        let model = try failedCheck(width: 80, height: 24)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-exercise-failing")
        let page = try #require(model.layout.panes[.page])
        #expect(screen.find("Challenge  Run the work one at a time", in: page) != nil)
        #expect(screen.find("two work spans ran at once", in: page) != nil)
        // " 1▶○": the queue page's entry ends with its open exercises' mark; the dispatch page has none.
        #expect(screen.text(ofRow: 0).hasPrefix(" 1·○ 2·  "), "\(screen.text(ofRow: 0))")
    }

    @Test("After a relaunch the challenge shows the last check's verdict, its time and its first failure")
    func lastCheckAfterRelaunch() async throws {
        var progress = ProgressRecord()
        // 2026-12-01 13:45 UTC.
        let checkedAt = Date(timeIntervalSince1970: 1_796_132_700)
        progress.apply(.checked(page: "queue", exercise: "one-at-a-time", passed: false,
                                firstFailure: "two work spans ran at once; the limit is one"), at: checkedAt)
        var model = try FixtureExercises.model(progress: progress, timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
        model.press(.character("G"))
        var screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        let state = try #require(screen.find("✗ failed when last checked, 2026-12-01 14:45", in: page),
                                 "\(screen.lines(in: page).joined(separator: "\n"))")
        #expect(screen[state.x, state.y].style.foreground == .failure)
        let finding = try #require(screen.find("✗ two work spans ran at once; the limit is one", in: page))
        #expect(finding.y == state.y + 1, "the first failure follows the verdict")
        #expect(screen.text(ofRow: 39).contains("c check"))

        // A passing check replaces it, and says when.
        progress.apply(.checked(page: "queue", exercise: "one-at-a-time", passed: true), at: checkedAt.addingTimeInterval(60))
        model = try FixtureExercises.model(progress: progress)
        model.press(.character("G"))
        screen = TourRenderer.render(model)
        #expect(screen.find("✓ passed when last checked, 2026-12-01 13:46", in: page) != nil)
        #expect(screen.find("two work spans", in: page) == nil)
    }

    @Test("A progress file from before verdicts were kept shows the last check's time, failed when never passed")
    func lastCheckFromAnOlderFile() async throws {
        var progress = ProgressRecord()
        progress.apply(.checked(page: "queue", exercise: "one-at-a-time", passed: false), at: Date(timeIntervalSince1970: 1_796_132_700))
        progress.pages["queue"]?.attempts["one-at-a-time"]?.lastVerdict = nil
        var model = try FixtureExercises.model(progress: progress)
        model.press(.character("G"))
        let screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        let state = try #require(screen.find("✗ failed when last checked, 2026-12-01 13:45", in: page))
        #expect(!screen.text(ofRow: state.y + 1).contains("✗"), "no finding is made up")
    }

    @Test("C: the output and timeline titles say they show the check's run, with its spans; the status line offers C")
    func checkRunShown() async throws {
        var model = try FixtureExercises.model()
        // r asks the prediction first; r in the question runs the page unanswered.
        model.press(.character("r"))
        model.run(.finishedQueueRun)
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        _ = model.update(.exercise(.checkFinished(checkID: order.checkID, FixtureExercises.verdict(passing: false),
                                                  run: FixtureExercises.checkedRun(overlapping: true))))
        model.press(.escape)
        var screen = TourRenderer.render(model)
        #expect(screen.text(ofRow: 39).contains("C check's run"), "\(screen.text(ofRow: 39))")
        let timeline = try #require(model.layout.panes[.timeline])
        let output = try #require(model.layout.panes[.output])
        #expect(!screen.text(ofRow: timeline.y).contains("your check's run"))

        // C, then another key, so the status line shows its keys again instead of C's notice.
        model.press(.character("C"), .redraw)
        screen = TourRenderer.render(model)
        #expect(screen.text(ofRow: timeline.y).contains("Timeline 3 threads (your check's run)"), "\(screen.text(ofRow: timeline.y))")
        #expect(screen.text(ofRow: output.y).contains("Output (your check's run)"), "\(screen.text(ofRow: output.y))")
        #expect(screen.find("work", in: timeline) != nil, "the check's spans are drawn")
        #expect(screen.find("helper", in: timeline) == nil, "the page's spans are not")
        #expect(screen.text(ofRow: 39).contains("C page's run"))
    }

    @Test("While a check builds and runs, the challenge and the status line say so")
    func checkInFlight() async throws {
        var model = try FixtureExercises.model(width: 120, height: 40)
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        var screen = TourRenderer.render(model)
        #expect(screen.find("↻ checking: building Exercise01Queue…") != nil)
        #expect(screen.text(ofRow: 39).contains("↻ checking: building"))
        _ = model.update(.exercise(.checkRunning(checkID: order.checkID)))
        screen = TourRenderer.render(model)
        #expect(screen.find("▶ checking: running Exercise01Queue…") != nil)
        #expect(screen.text(ofRow: 39).contains("▶ checking: running"))
    }

    @Test("While a Thread Sanitizer check builds, the challenge says it is one and that the first takes about a minute")
    func threadSanitizerCheckInFlight() async throws {
        var model = try FixtureExercises.model(width: 120, height: 40, threadSanitizer: true)
        let order = model.pressCheck()
        #expect(order?.challenge.threadSanitizer == true)
        let screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        // The challenge's state wraps over rows of the pane: read them, inside the pane's border, as one text.
        let said = screen.lines(in: page).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
            .joined(separator: " ")
        #expect(said.contains("checking: building Exercise01Queue with Thread Sanitizer: the first such build takes about a minute…"),
                "\(said)")
        #expect(screen.text(ofRow: 39).contains("↻ checking: building with Thread Sanitizer"), "\(screen.text(ofRow: 39))")
    }

    @Test("The prediction asked before the run, at 120×40 and 80×24")
    func predictionOverlay() async throws {
        for (width, height, name) in [(120, 40, "full-predict"), (80, 24, "compact-predict")] {
            var model = try FixtureExercises.model(width: width, height: height)
            model.press(.character("r"))
            let screen = TourRenderer.render(model)
            Snapshot.expect(screen.lines, matches: name)
            let choice = try #require(screen.find(" b  a worker thread"))
            #expect(screen[choice.x + 1, choice.y].style.foreground == .accent)
            // The dialog's own keys, highlighted: r runs without an answer, Esc runs nothing.
            let run = try #require(screen.find("r runs it without answering; Esc"), "\(screen.lines.joined(separator: "\n"))")
            #expect(screen[run.x, run.y].style.foreground == .accent)
            #expect(screen[run.x + 29, run.y].style.foreground == .accent)
            #expect(screen.find("runs nothing.") != nil)
        }
    }

    @Test("After the run, the grade in the prediction: what was said and what the run showed")
    func gradedPrediction() async throws {
        var model = try FixtureExercises.model()
        model.press(.character("r"))
        let orderGiven = model.update(.key(.character("a"))).last?.runOrder
        let order = try #require(orderGiven)
        for event in RunScript.finishedQueueRun.events { _ = model.update(.host(runID: order.runID, event)) }
        model.press(.character("G"))
        let screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        let grade = try #require(screen.find("✗ You said (a) the main thread; it ran on", in: page), "\(screen.lines(in: page).joined(separator: "\n"))")
        #expect(screen[grade.x, grade.y].style.foreground == .failure)
        #expect(screen.find("✗ answered, not right", in: page) != nil)
        #expect(screen.find("a answers it again", in: page) != nil)
    }

    @Test("The reference solution, read-only, over the panes at 80×24")
    func solutionOverlay() async throws {
        var model = try FixtureExercises.model(width: 80, height: 24)
        model.press(.character("h"), .character("h"), .character("v"))
        _ = model.update(.exercise(.solutionRead(page: model.currentPage.page, .read(FixtureExercises.solution))))
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-solution")
        #expect(screen.find("Solution: Run the work one at a time (read-only)") != nil)
        #expect(screen.find("queue.maxConcurrentOperationCount = 1") != nil)
    }

    @Test("The list of pages marks each page's exercises: open, then done once answered and passed")
    func sidebarMarks() async throws {
        var progress = ProgressRecord()
        progress.apply(.predicted(page: "queue", prediction: "helper-thread", right: true), at: Date(timeIntervalSince1970: 0))
        var model = try FixtureExercises.model(progress: progress)
        let sidebar = try #require(model.layout.sidebar)
        var screen = TourRenderer.render(model)
        let open = try #require(screen.find("○", in: sidebar))
        #expect(screen[open.x, open.y].style.foreground == .muted)
        let orderGiven = model.pressCheck()
        let order = try #require(orderGiven)
        _ = model.update(.exercise(.checkFinished(checkID: order.checkID, FixtureExercises.verdict(passing: true), run: RunRecord())))
        screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines(in: sidebar), matches: "pane-sidebar-exercises-120")
        let done = try #require(screen.find("●", in: sidebar))
        #expect(screen[done.x, done.y].style.foreground == .success)
        #expect(done.y == open.y)
        // The page without exercises has no mark.
        #expect(!screen.text(ofRow: sidebar.y + 2).contains("○") && !screen.text(ofRow: sidebar.y + 2).contains("●"))
    }

    @Test("Page 1's second hint keeps its backslash, as tour hint prints it: trace(\"band \\(band)\")")
    func hintKeepsItsBackslash() async throws {
        let real = try #require(ExerciseCatalog.exercises(forPage: "operation"))
        let hint = real.challenge.hint(after: 1)
        #expect(hint.number == 2 && hint.text.contains(#"trace("band \(band)")"#))
        let exercises = PageExercises(page: "queue", prediction: FixtureExercises.prediction, challenge: real.challenge)
        var model = TourModel.load(try FixturePages.catalog(), speed: 1, size: Size(width: 200, height: 50), glyphs: .unicode,
                                   pictureDepth: .colors256, exercises: [exercises])
        model.readEverySource()
        model.press(.character("h"), .character("h"))
        let screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page])
        #expect(screen.find(#"trace("band \(band)") span begins"#, in: page) != nil, "\(screen.lines(in: page).joined(separator: "\n"))")
    }

    @Test("No exercise's question, choice, task or hint loses a backslash in the tutorial")
    func exerciseTextsKeepTheirBackslashes() {
        for exercises in ExerciseCatalog.all {
            let prediction = exercises.prediction, challenge = exercises.challenge
            for text in [prediction.question] + prediction.choices.map(\.text) + [challenge.task] + challenge.hints {
                let shown = ExerciseBlockView.spans(text, style: .plain).map(\.text).joined()
                #expect(shown.filter { $0 == "\\" }.count == text.filter { $0 == "\\" }.count, "\(exercises.page): \(text)")
            }
        }
    }

    @Test("? explains the list's exercise marks and the meter's run/N and open/N rows, at 120×40 and 80×24, in ASCII too")
    func helpExplainsMarksAndMeter() async throws {
        for (width, height, glyphs) in [(120, 40, Glyphs.unicode), (80, 24, .unicode), (80, 24, .ascii)] {
            var model = try FixtureExercises.model(width: width, height: height)
            model.glyphs = glyphs
            model.press(.character("?"))
            let screen = TourRenderer.render(model)
            let size = "\(width)×\(height) \(glyphs == .ascii ? "ASCII" : "Unicode")"
            // The marks as the list draws them (SidebarView): open until both exercises are done.
            let marks = try #require(screen.find("\(glyphs.exercisesOpen) \(glyphs.exercisesDone)"), "\(size)")
            #expect(screen.text(ofRow: marks.y).contains("exercises to do / answered, check passed"), "\(size)")
            // The meter's rows as ConcurrencyMeter titles them: run/cores, open/the widest queue limit.
            let run = try #require(screen.find("run/N"), "\(size)")
            #expect(screen.text(ofRow: run.y).contains("threads running, of N cores; a digit or +: more"), "\(size)")
            let open = try #require(screen.find("open/N"), "\(size)")
            #expect(screen.text(ofRow: open.y).contains("spans open of the widest queue limit, else cores"), "\(size)")
            #expect(screen.find("help / redraw / quit") != nil, "the last key line still shows at \(size)")
            #expect(screen.find("Any key closes this.") != nil, "\(size)")
        }
    }

    @Test("The help lists the exercise keys, and at 80×24 still every key, the states giving way")
    func helpListsExerciseKeys() async throws {
        for (width, height) in [(120, 40), (80, 24)] {
            var model = try FixtureExercises.model(width: width, height: height)
            model.press(.character("?"))
            let screen = TourRenderer.render(model)
            #expect(screen.find("a c E") != nil && screen.find("answer the prediction / check the code / edit it") != nil)
            #expect(screen.find("hint (timeline keeps h) / solution / check's run") != nil)
            #expect(screen.find("help / redraw / quit") != nil, "the last key line shows at \(width)×\(height)")
        }
    }
}
