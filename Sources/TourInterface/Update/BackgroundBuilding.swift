import ExerciseJudging
import TourCore

/// Building the programs `swift run tour` left unbuilt, in the background (see `BackgroundBuilds`).
extension TourModel {
    /// What the launch asks the shell to look at: every page's folder and every exercise's, whose programs may be
    /// missing or older than their sources. Page 8's exercise is left out: its check builds it with Thread Sanitizer,
    /// apart from the plain programs, so a plain build of it would make nothing ready.
    var programsToSurvey: [Page] {
        pages.map(\.page) + pages.compactMap { page in
            page.exercise.flatMap { $0.challenge.threadSanitizer ? nil : $0.exerciseFiles }
        }
    }

    /// The shell found these programs missing or older than their sources: they wait to be built, the page in view and
    /// its exercise first.
    mutating func programsFound(_ stale: [Page]) {
        var programs: [BackgroundBuilds.Program] = []
        for page in stale {
            if let index = index(of: page) {
                pages[index].build.needsBuild = true
                programs.append(.page(index))
            } else if let index = pages.firstIndex(where: { $0.exercise?.exerciseFiles.folder == page.folder }) {
                programs.append(.exercise(index))
            }
        }
        let pagesFirst = programs.filter { if case .page = $0 { true } else { false } }
            + programs.filter { if case .exercise = $0 { true } else { false } }
        backgroundBuilds.add(pagesFirst)
        backgroundBuilds.putFirst([.page(current), .exercise(current)])
    }

    /// The next background build, when nothing else is building, running or being checked; nothing otherwise.
    /// Called after every event: each of them may have ended what it waited for.
    mutating func continueBackgroundBuilds() -> [TourEffect] {
        guard !backgroundBuilds.waiting.isEmpty || backgroundBuilds.inFlight != nil else { return [] }
        if let inFlight = backgroundBuilds.inFlight {
            // A page's build replaced since (a save, `r`, `s`) is no longer the background's: it ended for the queue.
            guard case .page(let index) = inFlight.program, pages[index].build.cycle.buildInFlight != inFlight.buildID else { return [] }
            backgroundBuilds.inFlight = nil
        }
        let busy = runningPage != nil || pages.contains { $0.build.isBuilding || $0.exercise?.isChecking == true }
        guard !busy, let program = backgroundBuilds.takeNext() else { return [] }
        switch program {
        case .page(let index):
            // Built meanwhile (a save rebuilt it): nothing left to do for it.
            guard pages[index].build.needsBuild else { return continueBackgroundBuilds() }
            let thenRun = backgroundBuilds.runWhenBuilt == index
            if thenRun { backgroundBuilds.runWhenBuilt = nil }
            let effects = build(index, thenRun: thenRun)
            backgroundBuilds.inFlight = pages[index].build.cycle.buildInFlight.map { .init(program: program, buildID: $0) }
            return effects
        case .exercise(let index):
            guard let exercise = pages[index].exercise else { return continueBackgroundBuilds() }
            let buildID = nextBuildID()
            backgroundBuilds.inFlight = .init(program: program, buildID: buildID)
            return [.build(BuildOrder(buildID: buildID, page: exercise.exerciseFiles))]
        }
    }

    /// The page now in view, and its exercise, are built next; a page that did not compile while it was not in view
    /// opens on its first error, as it would have had it been in view.
    mutating func arrived(at index: Int) {
        backgroundBuilds.putFirst([.page(index), .exercise(index)])
        let build = pages[index].build
        if build.failure == .doesNotCompile, build.selectedDiagnostic == nil,
           let firstError = build.diagnostics.firstIndex(where: { $0.severity == .error }) {
            select(diagnostic: firstError, announce: false)
        }
    }

    /// `r` on a page whose program waits in the queue while another builds: it builds next, and runs once built.
    /// False when the page does not wait behind another build.
    mutating func runOnceBuiltInTurn(_ index: Int) -> Bool {
        guard backgroundBuilds.inFlight != nil, backgroundBuilds.isWaiting(.page(index)) else { return false }
        backgroundBuilds.putFirst([.page(index)])
        backgroundBuilds.runWhenBuilt = index
        notice = "Page \(pages[index].page.number) builds next, after the build in flight; it runs as soon as it is built."
        return true
    }

    /// A check builds its exercise itself: the background leaves it, and stops building it if it was.
    mutating func leaveExerciseToCheck(_ index: Int) -> [TourEffect] {
        backgroundBuilds.remove(.exercise(index))
        guard let inFlight = backgroundBuilds.inFlight, inFlight.program == .exercise(index) else { return [] }
        backgroundBuilds.inFlight = nil
        return [.cancelBuild(buildID: inFlight.buildID)]
    }

    /// An exercise's background build ended: one that does not compile shows its errors where a check's findings go,
    /// as a check would have found them. Nil when `buildID` is no exercise's background build.
    mutating func exerciseBuilt(buildID: Int, _ outcome: BuildOutcome) -> [TourEffect]? {
        guard let inFlight = backgroundBuilds.inFlight, inFlight.buildID == buildID,
              case .exercise(let index) = inFlight.program else { return nil }
        backgroundBuilds.inFlight = nil
        if outcome.status == .failed, let exercise = pages[index].exercise, !exercise.isChecking {
            pages[index].exercise?.check = .finished(CheckVerdict(buildFailure: outcome, of: exercise.challenge,
                                                                  packageRoot: exercise.packageRoot), ran: false)
        }
        return []
    }
}
