import ExerciseJudging
import Foundation
import TourCore

/// A page's exercises as the model sees them: `r` asks the prediction first and the run grades it, `c` checks the
/// challenge, `E` opens its file and each save checks again, `h` shows the next hint, `v` the reference solution once
/// it is earned. The terminal layer builds, runs, reads and watches, and reports back through `ExerciseEvent`s.
extension TourModel {
    /// `r`: a page whose prediction was never answered (nor skipped in this session) asks it first; the answer, or
    /// `r` again, runs the page.
    mutating func runAskingFirst() -> [TourEffect] {
        if let exercise = currentPage.exercise, exercise.answeredRight == nil, !exercise.skippedPrediction,
           exercise.pendingAnswer == nil {
            overlay = .predict(page: current)
            return []
        }
        return run()
    }

    /// `a`: asks the current page's prediction, answered before or not; the answer runs the page to grade it.
    mutating func askPrediction() {
        guard currentPage.exercise != nil else {
            notice = "Page \(currentPage.page.number) has no prediction to answer."
            return
        }
        overlay = .predict(page: current)
    }

    /// A key while the prediction is asked: a choice answers it and runs the page, `r` runs it unanswered, Esc closes
    /// the question and runs nothing.
    mutating func handlePrediction(_ key: Key, page index: Int) -> [TourEffect] {
        guard let prediction = pages[index].exercise?.prediction else {
            overlay = nil
            return []
        }
        switch key {
        case .escape:
            overlay = nil
            notice = "Nothing ran; r asks the question again."
            return []
        case .character("r"):
            // r, the key that runs a page, is no choice's key (`ExerciseCatalogTests` holds every catalog to that).
            overlay = nil
            pages[index].exercise?.skippedPrediction = true
            return run(page: index)
        case .redraw:
            return [.redrawAll]
        case .character(let character) where (try? prediction.choice(forKey: String(character))) != nil:
            let choice = try! prediction.choice(forKey: String(character))
            overlay = nil
            pages[index].exercise?.pendingAnswer = PendingAnswer(choice: choice.key)
            notice = "You said \(choice.text). The run will tell."
            return run(page: index)
        default:
            let keys = prediction.choices.map(\.key)
            notice = "Answer with \(Self.listed(keys)); r runs without answering, Esc runs nothing."
            return []
        }
    }

    /// The run with this id ended: if it was to grade an answer, grade it from the run's record.
    mutating func gradePrediction(page index: Int, runID: Int) -> [TourEffect] {
        guard var exercise = pages[index].exercise, let pending = exercise.pendingAnswer, pending.runID == runID,
              let record = pages[index].record else { return [] }
        exercise.pendingAnswer = nil
        // The answer is one of the choices: the overlay takes no other key.
        guard let grade = try? exercise.prediction.grade(answer: pending.choice, from: record) else {
            pages[index].exercise = exercise
            return []
        }
        exercise.lastGrade = grade
        var effects: [TourEffect] = []
        if grade.isKnown {
            let right = grade.outcome == .right
            exercise.answeredRight = right
            effects.append(.recordProgress(.predicted(page: pages[index].page.slug, prediction: exercise.prediction.id, right: right)))
        }
        notice = grade.message + (grade.isKnown ? "" : " a answers again.")
        pages[index].exercise = exercise
        // The grade is the news of this run, and longer than the status line: the page pane shows it in full.
        if index == current { showExercise(\.prediction) }
        return effects
    }

    /// Binds an answer waiting for a run to the run starting now on page `index`: the newest run grades it.
    mutating func bindPendingAnswer(page index: Int, runID: Int) {
        guard pages[index].exercise?.pendingAnswer != nil else { return }
        pages[index].exercise?.pendingAnswer?.runID = runID
    }

    /// `c`, or a save of the exercise file: checks page `index`'s challenge, replacing a check in flight.
    mutating func check(page index: Int) -> [TourEffect] {
        guard let exercise = pages[index].exercise else {
            notice = "Page \(pages[index].page.number) has no code challenge to check."
            return []
        }
        var effects = leaveExerciseToCheck(index)
        if let inFlight = exercise.check.checkID { effects.append(.cancelCheck(checkID: inFlight)) }
        let checkID = nextCheckID
        nextCheckID += 1
        pages[index].exercise?.check = .building(checkID: checkID)
        if index == current { showExercise(\.challenge) }
        return effects + [.check(CheckOrder(checkID: checkID, page: pages[index].page, challenge: exercise.challenge))]
    }

    /// `h`: the next hint, in the challenge and in the status line.
    mutating func takeHint() -> [TourEffect] {
        guard let exercise = currentPage.exercise else {
            notice = "Page \(currentPage.page.number) has no code challenge, so no hints."
            return []
        }
        let challenge = exercise.challenge
        guard exercise.hintsTaken < challenge.hints.count else {
            notice = "That was the last hint (\(challenge.hints.count) of \(challenge.hints.count)); v shows the reference solution."
            return []
        }
        let hint = challenge.hint(after: exercise.hintsTaken)
        currentPage.exercise?.hintsTaken = hint.number
        notice = "Hint \(hint.number) of \(challenge.hints.count): \(hint.text)"
        showExercise(\.challenge)
        return [.recordProgress(.hintShown(page: currentPage.page.slug, exercise: challenge.id, number: hint.number))]
    }

    /// `v`: the reference solution, read-only, once the check has passed or two hints were taken.
    mutating func openSolution() -> [TourEffect] {
        guard let exercise = currentPage.exercise else {
            notice = "Page \(currentPage.page.number) has no code challenge, so no solution."
            return []
        }
        guard exercise.solutionUnlocked else {
            let needed = ProgressRecord.hintsBeforeSolution
            notice = "The solution opens once the check passes (c), or after \(needed) hints (h: \(exercise.hintsTaken) taken)."
            return []
        }
        overlay = .solution(page: current)
        currentPage.exercise?.solutionScroll = 0
        let read: [TourEffect] = exercise.solution == nil ? [.readSolution(page: currentPage.page, file: exercise.solutionFile)] : []
        return read + [.recordProgress(.solutionOpened(page: currentPage.page.slug, exercise: exercise.challenge.id))]
    }

    /// A key while the solution is shown: scrolling keys scroll it, Esc, q or v close it.
    mutating func handleSolution(_ key: Key, page index: Int) -> [TourEffect] {
        let rows = solutionLayout(page: index)?.rows.count ?? 0
        let visible = max(1, Overlays.solutionBox(in: size).inside.height)
        let last = max(0, rows - visible)
        let amount: ScrollAmount
        switch key {
        case .escape, .character("q"), .character("v"):
            overlay = nil
            return []
        case .redraw: return [.redrawAll]
        case .down, .character("j"): amount = .lines(1)
        case .up, .character("k"): amount = .lines(-1)
        case .pageDown, .character(" "): amount = .pages(1)
        case .pageUp: amount = .pages(-1)
        case .home, .character("g"): amount = .top
        case .end, .character("G"): amount = .bottom
        default:
            notice = "The solution is read-only; Esc closes it. E opens your own file."
            return []
        }
        let scroll = pages[index].exercise?.solutionScroll ?? 0
        pages[index].exercise?.solutionScroll = Self.moved(scroll, amount, page: visible, last: last)
        return []
    }

    /// `E`: the page's exercise file in the learner's editor, its original kept first for `tour reset`; each save
    /// checks it again.
    mutating func editExercise() -> [TourEffect] {
        guard let exercise = currentPage.exercise else {
            notice = "Page \(currentPage.page.number) has no code challenge to edit; e edits the page."
            return []
        }
        guard editing.editor != nil else {
            notice = Self.notice(for: .notFound(editor: nil, origin: ""))
            return []
        }
        return [.edit(EditOrder(page: exercise.exerciseFiles, file: exercise.exerciseFile.path, line: 1))]
    }

    mutating func handle(_ event: ExerciseEvent) -> [TourEffect] {
        switch event {
        case .checkRunning(let checkID):
            guard let index = checking(checkID) else { return [] }
            pages[index].exercise?.check = .running(checkID: checkID)
            return []
        case .checkFinished(let checkID, let verdict, let run):
            guard let index = checking(checkID), let challenge = pages[index].exercise?.challenge else { return [] }
            pages[index].exercise?.check = .finished(verdict, ran: run != nil)
            pages[index].exercise?.checkRun = run
            if pages[index].showsCheckRun { showRun(ofCheck: run != nil, page: index) }
            notice = Self.checkNotice(verdict, challenge: challenge)
            if verdict.passed { pages[index].exercise?.passed = true }
            // As `tour check` records it: every check counts, and a passing one records the pass.
            return [.recordProgress(.checked(page: pages[index].page.slug, exercise: challenge.id, passed: verdict.passed,
                                             firstFailure: verdict.failures.first?.text))]
        case .exerciseChanged(let page, let files):
            guard let index = index(of: page) else { return [] }
            let effects = check(page: index)
            notice = "\(files.joined(separator: ", ")) changed: checking it again\(glyphs.ellipsis)"
            return effects
        case .exerciseUnavailable(let page):
            guard let challenge = index(of: page).flatMap({ pages[$0].exercise?.challenge }) else { return [] }
            notice = "\(challenge.file) is missing or unreadable; tour reset \(page.number) --exercise puts the exercise back."
            return []
        case .solutionRead(let page, let text):
            guard let index = index(of: page) else { return [] }
            switch text {
            case .read(let source):
                pages[index].exercise?.solution = PageText(source)
            case .unreadable(let reason):
                if overlay == .solution(page: index) { overlay = nil }
                notice = "Could not read the reference solution: \(reason)"
            }
            return []
        }
    }

    /// `C`: the output and timeline switch between the page's own run and the run of its exercise's last check.
    mutating func switchShownRun() {
        guard currentPage.exercise != nil else {
            notice = "Page \(currentPage.page.number) has no code challenge, so no check's run to show."
            return
        }
        guard currentPage.showsCheckRun || currentPage.exercise?.checkRun != nil else {
            notice = "No check has run yet: c checks your exercise, then C shows its run here."
            return
        }
        showRun(ofCheck: !currentPage.showsCheckRun, page: current)
        notice = currentPage.showsCheckRun ? "Output and timeline: your exercise's last check. C shows the page's run."
            : "Output and timeline: the page's own run. C shows your exercise's last check."
    }

    /// Shows the check's run or the page's own in page `index`'s output and timeline, each from its start, the whole
    /// run in view: the two runs share the panes' positions, which mean nothing from one run to the other.
    mutating func showRun(ofCheck: Bool, page index: Int) {
        pages[index].showsCheckRun = ofCheck && pages[index].exercise?.checkRun != nil
        pages[index].outputScrollBack = 0
        pages[index].timeline = TimelineState()
    }

    /// "Check passed: …", or the first thing still wrong.
    static func checkNotice(_ verdict: CheckVerdict, challenge: Challenge) -> String {
        guard let first = verdict.failures.first else {
            return "Check passed: \(challenge.title). v shows the reference solution."
        }
        let more = verdict.failures.count > 1 ? " (and \(verdict.failures.count - 1) more)" : ""
        return "Check failed: \(first.text)\(more)."
    }

    /// The page with the check of this id in flight; nil for a check replaced since.
    private func checking(_ checkID: Int) -> Int? {
        pages.firstIndex { $0.exercise?.check.checkID == checkID }
    }

    /// Scrolls the page pane to the prediction, where its grade appears, or to the challenge, where a check's findings
    /// and the hints do, and makes sure the page pane shows.
    mutating func showExercise(_ part: KeyPath<ExerciseRows, Int>) {
        if zoomed && focus != .page { zoomed = false }
        guard let row = pageLayout().exerciseRows?[keyPath: part] else { return }
        currentPage.pageScroll = row
        scroll(.page, .lines(0))
    }

    /// The reference solution of page `index` laid out for its overlay, once read.
    func solutionLayout(page index: Int) -> PageLayout? {
        guard let text = pages[index].exercise?.solution else { return nil }
        return PageLayout(document: text.document, width: Overlays.solutionBox(in: size).inside.width, glyphs: glyphs,
                          showsResults: false)
    }

    /// "a, b or c".
    static func listed(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
