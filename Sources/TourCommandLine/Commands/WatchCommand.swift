import ExerciseJudging
import Foundation
import TourCore

/// `tour watch <page>`: runs the page, then on every saved change rebuilds just its product and runs it again,
/// or prints the compile errors on their source lines. Ends with Ctrl-C (the host's signal handling).
///
/// What happens on a change is the `RebuildCycle` the interface drives too: the old run is stopped and the old build
/// cancelled, just this page is rebuilt, and the new run starts once the old one has ended. Everything that changes
/// state happens on one serial queue, so a change arriving mid-run or mid-build is handled in order.
public final class WatchCommand: @unchecked Sendable {
    private let options: TourCommand.RunOptions
    private let page: Page
    private let catalog: PageCatalog
    private let report: PlainReport
    private let emit: @Sendable (String) -> Void
    private let builder: PageBuilder
    private let queue = DispatchQueue(label: "tour.watch")
    private let watcher: SourceWatcher
    /// Used only where the file system's notifications cannot be trusted.
    private static let pollInterval = 0.05

    // Touched only on `queue`.
    private var cycle = RebuildCycle()
    private var nextBuildID = 1
    /// The run in flight, until its end has been handled here.
    private var run: PageRun?
    /// The run was told to stop for a newer version: its end says so instead of printing its summary.
    private var runWasStopped = false
    private var build: PageBuild?
    /// The page's exercise, if it has one: its file is watched too, and each save re-checks it.
    private let exercises: PageExercises?
    private let exerciseWatcher: SourceWatcher?
    private let style: PlainStyle
    /// The check in flight; a newer save cancels it.
    private var check: Task<Void, Never>?

    private init(options: TourCommand.RunOptions, page: Page, catalog: PageCatalog, style: PlainStyle,
                 emit: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.page = page
        self.catalog = catalog
        self.report = PlainReport(style: style, cores: ProcessInfo.processInfo.activeProcessorCount)
        self.emit = { emit(style.printable($0)) }
        self.builder = PageBuilder(packageRoot: catalog.root)
        self.watcher = SourceWatcher(folder: page.source.deletingLastPathComponent())
        self.style = style
        exercises = ExerciseCatalog.exercises(forPage: page.slug)
        exerciseWatcher = exercises.map { SourceWatcher(folder: catalog.root.appendingPathComponent($0.challenge.file).deletingLastPathComponent()) }
    }

    /// Starts watching and never returns: the host ends on Ctrl-C, stopping the page and any build with it.
    public static func execute(_ options: TourCommand.RunOptions, page: Page, catalog: PageCatalog, style: PlainStyle,
                               emit: @escaping @Sendable (String) -> Void) -> Never {
        let command = WatchCommand(options: options, page: page, catalog: catalog, style: style, emit: emit)
        command.start()
        while true { sleep(1_000_000) }
    }

    private func start() {
        let originals = OriginalPages(packageRoot: catalog.root)
        do {
            try originals.keepOriginal(of: page)
        } catch {
            emit("Warning: \(error); tour reset will not be able to undo edits of this page")
        }
        emit("Watching \(watcher.folder.path) (*.swift). Save a change to rebuild and rerun; `tour reset \(page.slug)` undoes your edits; Ctrl-C ends.")
        if watcher.chooseMethod() == .polling {
            emit("(This file system may not report changes: looking for them every \(Self.pollInterval) s.)")
        }
        for line in report.header(page: page, of: catalog.pages.count, speed: options.speed,
                                  knobs: options.knobs) { emit(line) }
        // The binary may be older than the source (edited before watching began): build first.
        queue.async { self.perform(self.cycle.build(buildID: self.takeBuildID(), thenRun: true)) }
        watcher.start(every: Self.pollInterval) { event in self.queue.async { self.handle(event) } }
        if let exercises, let exerciseWatcher {
            do {
                try exercises.keepOriginalExercise(of: page, packageRoot: catalog.root)
            } catch {
                emit("Warning: \(error); tour reset will not be able to put \(exercises.challenge.file) back")
            }
            emit("Also watching \(exercises.challenge.file), the page's exercise: each save re-checks it (tour check \(page.slug)).")
            exerciseWatcher.start(every: Self.pollInterval) { event in self.queue.async { self.handleExercise(event) } }
        }
    }

    /// A save of the exercise: the check in flight (its build or its run) is cancelled and a new one starts.
    private func handleExercise(_ event: SourceWatcher.Event) {
        guard let exercises else { return }
        check?.cancel()
        switch event {
        case .changed(let files):
            emit("")
            emit("── \(files.joined(separator: ", ")) changed: checking the exercise ──")
            let previous = check
            let store = ProgressStore(environment: ProcessInfo.processInfo.environment)
            check = Task { [page, catalog, style, emit] in
                // One check at a time: the cancelled one stops its build or run first.
                await previous?.value
                guard !Task.isCancelled else { return }
                await ExerciseCommand.checkOnce(exercises, page: page, catalog: catalog, store: store, style: style, emit: emit)
            }
        case .unavailable:
            emit("")
            emit("The exercise \(exercises.challenge.file) is not there to check; waiting for it to come back (tour reset \(page.slug) --exercise restores it).")
        }
    }

    private func handle(_ event: SourceWatcher.Event) {
        switch event {
        case .changed(let files):
            emit("")
            emit("── \(files.joined(separator: ", ")) changed: rebuilding \(page.product) ──")
            perform(cycle.changeSeen(buildID: takeBuildID(), runIsLive: run != nil))
        case .unavailable(let missing, let unreadable):
            perform(cycle.sourceLost(runIsLive: run != nil))
            var problems: [String] = []
            if !missing.isEmpty { problems.append("\(missing.joined(separator: ", ")) deleted") }
            if !unreadable.isEmpty { problems.append("\(unreadable.joined(separator: ", ")) cannot be read") }
            emit("")
            emit("The page's source is not there to build: \(problems.joined(separator: "; ")). Waiting for it to come back (`tour reset \(page.slug)` restores the original).")
        }
    }

    private func takeBuildID() -> Int {
        defer { nextBuildID += 1 }
        return nextBuildID
    }

    /// Carries out what the cycle decided.
    private func perform(_ actions: [RebuildCycle.Action]) {
        for action in actions {
            switch action {
            case .stopRun:
                runWasStopped = true
                run?.stop()
            case .cancelBuild:
                build?.cancel()
                build = nil
            case .startBuild(let buildID):
                startBuild(buildID)
            case .startRun:
                startRun()
            }
        }
    }

    private func startBuild(_ buildID: Int) {
        // The direct route when SwiftPM's last plan for the page still holds (see `PageBuilder.directStages`), for the
        // first build too: what it checks covers everything the page needs, and it compiles every file of the page.
        let build = builder.build(product: page.product, sources: page.listSourceFiles(), onRoute: { route in
            guard case .swiftBuild(let reason?) = route else { return }
            self.queue.async {
                guard self.cycle.buildInFlight == buildID else { return }
                self.emit("(a full build, which takes longer: \(reason))")
            }
        })
        self.build = build
        build.whenDone { outcome in
            self.queue.async {
                // Nil for a build cancelled since: a newer one is on its way.
                guard let actions = self.cycle.buildFinished(id: buildID, succeeded: outcome.status == .succeeded,
                                                             runIsLive: self.run != nil) else { return }
                self.build = nil
                self.finished(outcome)
                self.perform(actions)
            }
        }
    }

    private func finished(_ outcome: BuildOutcome) {
        switch outcome.status {
        case .succeeded:
            for warning in outcome.diagnostics.diagnostics where warning.severity == .warning { BuildReport.lines(for: warning).forEach(emit) }
            // Shown because the build is most of the wait between a save and the new run.
            emit(String(format: "(built in %.2f s)", outcome.seconds))
        case .failed:
            for line in BuildReport.failureLines(outcome) { emit(line) }
            let count = outcome.diagnostics.errors.count
            emit("Page \(page.number) does not compile (\(count) error\(count == 1 ? "" : "s")); the last good build is not run. Fix it and save again.")
        case .timedOut:
            emit("The build took longer than \(Int(builder.timeout)) s and was stopped; save again to retry. Its last lines:")
            for line in outcome.output.suffix(10) { emit("  \(line)") }
        case .cancelled:
            break
        case .couldNotStart(let reason):
            emit("Could not start the build: \(reason)")
        }
    }

    private func startRun() {
        let recorder = RunRecorder { [report, emit] event, record in
            if let line = report.liveLine(for: event, in: record) { emit(line) }
        }
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: page.product), knobSettings: options.knobs,
                       speed: options.speed, stuckAfter: options.stuckAfter,
                       terminal: SharedTerminal.isAvailable ? .shared : .none),
            handler: recorder.apply
        )
        self.run = run
        runWasStopped = false
        DispatchQueue.global().async {
            run.waitUntilEnded()
            self.queue.async { self.ended(run, record: recorder.record) }
        }
    }

    /// A run ended: its summary, or a word that it was stopped for a newer version; then a rebuilt program
    /// waiting for this end starts.
    private func ended(_ ended: PageRun, record: RunRecord) {
        guard ended === run else { return }
        run = nil
        if runWasStopped {
            emit("(the old run was stopped)")
        } else {
            for line in report.summary(of: record, source: page.readSourceTexts().main) { emit(line) }
            emit("Watching for changes (Ctrl-C ends).")
        }
        perform(cycle.runEnded())
    }
}
