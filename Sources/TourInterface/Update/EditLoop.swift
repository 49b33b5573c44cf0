import TourCore

/// The playground loop as the model sees it: `e` asks for the editor, a change on disk stops the page's run and
/// rebuilds its program, a good build reruns it, a failed one puts its diagnostics on the page, `x` puts the
/// original back. The terminal layer only carries out the effects and reports back through `EditLoopEvent`s.
extension TourModel {
    mutating func handle(_ event: EditLoopEvent) -> [TourEffect] {
        switch event {
        case .watchStarted(let page, let programIsStale):
            guard let index = index(of: page) else { return [] }
            if programIsStale && !pages[index].build.isBuilding { pages[index].build.needsBuild = true }
            // Edited while another page was shown: read it again; the same text read again changes nothing. A page
            // never read has its first read on the way already.
            return pages[index].text == nil ? [] : [.readSource(page)]
        case .programsToBuild(let stale):
            programsFound(stale)
            return []
        case .sourceRead(let page, let source):
            guard let index = index(of: page) else { return [] }
            adopt(source, at: index)
            return []
        case .sourceChanged(let page, let files):
            guard let index = index(of: page) else { return [] }
            notice = "\(files.joined(separator: ", ")) changed: rebuilding \(page.product)\(glyphs.ellipsis)"
            let actions = pages[index].build.cycle.changeSeen(buildID: nextBuildID(), runIsLive: pages[index].isRunning)
            startingBuild(index)
            // The build starts first, then the new text is read, to be shown while the program builds.
            return effects(of: actions, page: index) + [.readSource(page)]
        case .sourceUnavailable(let page, let missing, let unreadable):
            guard let index = index(of: page) else { return [] }
            let effects = effects(of: pages[index].build.cycle.sourceLost(runIsLive: pages[index].isRunning), page: index)
            pages[index].build.failure = .sourceUnavailable(missing: missing, unreadable: unreadable)
            pages[index].build.diagnostics = []
            pages[index].build.selectedDiagnostic = nil
            pages[index].build.needsBuild = true
            notice = Self.sourceMissing(page)
            return effects
        case .buildStarted(let buildID, let time, let route):
            guard let index = building(buildID) else { return [] }
            now = max(now, time)
            pages[index].build.buildStarted = time
            // A full build takes many times longer than the direct one: the learner is told why before waiting. A build
            // in the background is no wait of theirs.
            if case .swiftBuild(let reason?) = route, backgroundBuilds.inFlight?.buildID != buildID {
                notice = "Full rebuild of \(pages[index].page.product) (\(reason))\(glyphs.ellipsis)"
            }
            return []
        case .buildOutput(let buildID, let lines):
            guard let index = building(buildID) else { return [] }
            pages[index].build.output += lines
            let excess = pages[index].build.output.count - PageBuildState.outputLimit
            if excess > 0 { pages[index].build.output.removeFirst(excess) }
            return []
        case .buildFinished(let buildID, let outcome):
            if let effects = exerciseBuilt(buildID: buildID, outcome) { return effects }
            guard let index = building(buildID) else { return [] }
            return finished(index, buildID: buildID, outcome)
        case .editorFinished(let result):
            notice = Self.notice(for: result)
            return []
        case .resetFinished(let page, let result):
            notice = Self.notice(for: result, page: page)
            guard let index = index(of: page) else { return [] }
            switch result {
            case .restored: pages[index].offersUndo = true
            case .undone, .nothingToUndo: pages[index].offersUndo = false
            case .unchanged, .noOriginal, .failed, .undoFailed: break
            }
            return []
        }
    }

    /// The current page's source is read if it never was, and its folder is watched: on launch and whenever the
    /// page on screen changes, whichever key or click changed it, and so is its exercise's folder if it has one;
    /// progress remembers the page as opened.
    func show(_ index: Int) -> [TourEffect] {
        let page = pages[index].page
        let exercise: [TourEffect] = pages[index].exercise.map {
            [.watchExercise(page: page, exercise: $0.exerciseFiles)]
        } ?? []
        return (pages[index].text == nil ? [.readSource(page)] : []) + [.watch(page)] + exercise
            + [.recordProgress(.opened(page: page.slug))]
    }

    /// `r` on a page whose program cannot be trusted: build it first and run it after, or wait for the build in flight.
    /// Nil when the program is fine to run as it is.
    mutating func buildBeforeRunning(_ index: Int) -> [TourEffect]? {
        if pages[index].build.cycle.runWhenBuilt() {
            notice = "Page \(pages[index].page.number) is being built; it runs as soon as the build succeeds."
            return []
        }
        if case .failed(.sourceUnavailable) = pages[index].build.phase {
            notice = Self.sourceMissing(pages[index].page)
            return []
        }
        guard pages[index].build.needsBuild else { return nil }
        if runOnceBuiltInTurn(index) { return stopEffects() }
        let effects = stopEffects() + build(index, thenRun: true)
        if let buildID = pages[index].build.cycle.buildInFlight { backgroundBuilds.takeOver(.page(index), buildID: buildID) }
        return effects
    }

    /// The rebuilt page whose old run has just ended starts again; no effects for any other page.
    mutating func rerunAfterEnd(of index: Int) -> [TourEffect] {
        effects(of: pages[index].build.cycle.runEnded(), page: index)
    }

    /// Cancels every build in flight (`s` stops builds as it stops runs); their pages build again before they run.
    /// A rebuilt page waiting for its old run to end is not started either.
    mutating func cancelBuilds() -> [TourEffect] {
        var effects: [TourEffect] = []
        for index in pages.indices {
            let wasBuilding = pages[index].build.isBuilding
            effects += self.effects(of: pages[index].build.cycle.cancel(), page: index)
            guard wasBuilding else { continue }
            pages[index].build.needsBuild = true
            notice = "The build of page \(pages[index].page.number) was cancelled; r builds and runs it."
        }
        return effects
    }

    /// `e`: the selected diagnostic's file at its line, else the page's `main.swift` at the first code line in view.
    mutating func edit() -> [TourEffect] {
        guard editing.editor != nil else {
            notice = Self.notice(for: .notFound(editor: nil, origin: ""))
            return []
        }
        let page = currentPage
        if let diagnostic = page.build.selected {
            return [.edit(EditOrder(page: page.page, file: diagnostic.file, line: diagnostic.line))]
        }
        return [.edit(EditOrder(page: page.page, file: page.page.source.path, line: codeLineInView()))]
    }

    /// `x`: asks before putting the page back; its text may hold an hour of the learner's work (kept, and `u` puts it
    /// back, but a question costs less than a surprise).
    mutating func askToReset() {
        overlay = .confirmReset(page: current)
    }

    /// `d` and `D`: the next or previous compiler message, shown on its line when it is in the page's own file.
    mutating func stepDiagnostic(by step: Int) {
        let diagnostics = currentPage.build.diagnostics
        guard !diagnostics.isEmpty else {
            notice = "No compiler messages on this page."
            return
        }
        let next = currentPage.build.selectedDiagnostic.map { $0 + step } ?? (step > 0 ? 0 : diagnostics.count - 1)
        select(diagnostic: (next + diagnostics.count) % diagnostics.count)
    }

    /// `announce`: say which message in the status line, for a key; a failed build leaves that line to the page's state.
    mutating func select(diagnostic index: Int, announce: Bool = true) {
        currentPage.build.selectedDiagnostic = index
        let diagnostic = currentPage.build.diagnostics[index]
        if announce { notice = "\(index + 1)/\(currentPage.build.diagnostics.count) \(diagnostic.shortDescription)" }
        guard currentPage.isOwnFile(diagnostic.file),
              let row = pageLayout().rows.firstIndex(where: { $0.sourceLine == diagnostic.line }) else { return }
        // A few rows of context above the line, as an editor's search would leave.
        currentPage.pageScroll = max(0, row - 3)
        scroll(.page, .lines(0))
    }

    /// The first code line visible in the page pane; the next one below if only prose is in view.
    func codeLineInView() -> Int {
        let rows = pageLayout().rows
        let start = min(currentPage.pageScroll, rows.count)
        return rows[start...].lazy.compactMap(\.sourceLine).first ?? rows.lazy.compactMap(\.sourceLine).last ?? 1
    }

    /// Starts a build of page `index`, cancelling one in flight; `thenRun` reruns the page when it succeeds.
    mutating func build(_ index: Int, thenRun: Bool) -> [TourEffect] {
        let actions = pages[index].build.cycle.build(buildID: nextBuildID(), thenRun: thenRun)
        startingBuild(index)
        return effects(of: actions, page: index)
    }

    mutating func nextBuildID() -> Int {
        defer { editing.nextBuildID += 1 }
        return editing.nextBuildID
    }

    /// A new build forgets what the last one said: lines move with an edit, so old messages would point at the wrong ones.
    private mutating func startingBuild(_ index: Int) {
        pages[index].build.buildStarted = nil
        pages[index].build.failure = nil
        pages[index].build.diagnostics = []
        pages[index].build.selectedDiagnostic = nil
        pages[index].build.output = []
    }

    /// What the rebuild cycle of page `index` decided, as effects for the terminal layer.
    private mutating func effects(of actions: [RebuildCycle.Action], page index: Int) -> [TourEffect] {
        var effects: [TourEffect] = []
        for action in actions {
            switch action {
            case .stopRun: effects += stopRun(of: index)
            case .cancelBuild(let buildID): effects.append(.cancelBuild(buildID: buildID))
            case .startBuild(let buildID): effects.append(.build(BuildOrder(buildID: buildID, page: pages[index].page)))
            case .startRun: effects += rerun(index)
            }
        }
        return effects
    }

    /// The rebuilt program starts, unless the learner has left its page: nothing starts behind their back.
    private mutating func rerun(_ index: Int) -> [TourEffect] {
        guard index == current else {
            notice = "Page \(pages[index].page.number) is rebuilt; r runs it there."
            return []
        }
        return run(page: index)
    }

    private mutating func finished(_ index: Int, buildID: Int, _ outcome: BuildOutcome) -> [TourEffect] {
        let succeeded = outcome.status == .succeeded
        guard let actions = pages[index].build.cycle.buildFinished(id: buildID, succeeded: succeeded,
                                                                   runIsLive: pages[index].isRunning) else { return [] }
        var build = pages[index].build
        build.buildStarted = nil
        build.output = Array(outcome.output.suffix(PageBuildState.outputLimit))
        build.diagnostics = outcome.diagnostics.diagnostics
        build.selectedDiagnostic = nil
        build.needsBuild = !succeeded
        let number = pages[index].page.number
        // "rebuilding…" is over: the page's state, a new run or a notice below says what happened. A build in the
        // background said nothing, so it takes no notice away either.
        if backgroundBuilds.inFlight?.buildID != buildID { notice = nil }
        switch outcome.status {
        case .succeeded:
            build.failure = nil
            pages[index].build = build
            let rerunWaits = build.cycle.state == .awaitingRunEnd
            guard actions.contains(.startRun) || rerunWaits else { return [] }
            guard index == current else {
                // The old run's end must not start the page the learner has left either.
                _ = pages[index].build.cycle.cancel()
                return rerun(index)
            }
            // Most of the wait between a save and the new run, so worth seeing. The old run was told to stop when the
            // change came; a rerun that waits for its end means the two never overlap.
            let inFull = if case .swiftBuild(let reason?) = outcome.route { ", in full: \(reason)" } else { "" }
            notice = String(format: "Rebuilt in %.2f s", outcome.seconds) + inFull + "."
            return effects(of: actions, page: index)
        case .failed:
            build.failure = .doesNotCompile
        case .timedOut:
            build.failure = .timedOut(seconds: outcome.seconds)
            notice = "The build of page \(number) took longer than \(Int(outcome.seconds.rounded())) s and was stopped; r tries again."
        case .couldNotStart(let reason):
            build.failure = .couldNotStart(reason)
            notice = "Could not start the build of page \(number): \(reason)"
        case .cancelled:
            build.failure = nil
        }
        pages[index].build = build
        guard build.failure == .doesNotCompile else { return [] }
        // The messages are the news: the compact layout shows them under the page, the page shows the first error.
        if index == current, focus == .page { compactTab = .output }
        if index == current, let firstError = build.diagnostics.firstIndex(where: { $0.severity == .error }) {
            select(diagnostic: firstError, announce: false)
        }
        return []
    }

    private func stopRun(of index: Int) -> [TourEffect] {
        guard pages[index].isRunning, let runID = pages[index].runID else { return [] }
        return [.stop(runID: runID)]
    }

    func index(of page: Page) -> Int? {
        pages.firstIndex { $0.page.folder == page.folder }
    }

    /// The page whose build in flight has this id; nil for a build cancelled since.
    private func building(_ buildID: Int) -> Int? {
        pages.firstIndex { $0.build.cycle.buildInFlight == buildID }
    }

    static func sourceMissing(_ page: Page) -> String {
        "Page \(page.number)'s source is not there to build; x restores the original, or put the file back."
    }

    static func notice(for result: EditorResult) -> String? {
        switch result {
        case .closed:
            return nil
        // The advice comes first: a narrow status line cuts the end of a notice.
        case .failed(let editor, let status):
            return "Set VISUAL or EDITOR to an editor that works: '\(editor)' ended with status \(status)."
        case .notFound(let editor?, let origin):
            return "Set VISUAL or EDITOR to an editor that works: '\(editor)' (\(origin)) is not a program here."
        case .notFound(nil, _):
            return "Set VISUAL or EDITOR (for example EDITOR=nano): no editor was found on PATH."
        case .couldNotKeepOriginal(let reason):
            return "Warning: \(reason); x will not be able to undo this edit."
        }
    }

    static func notice(for result: PageResetResult, page: Page) -> String {
        switch result {
        case .restored: "Page \(page.number) is back to its original text; u undoes the reset. It rebuilds and runs again."
        case .unchanged: "Page \(page.number) already has its original text: nothing to reset."
        case .noOriginal: "Page \(page.number) has no original to put back: it is not in git's HEAD, and was never edited through the tour."
        case .undone: "Page \(page.number) is back to the version its reset replaced; it rebuilds and runs again."
        case .nothingToUndo: "Page \(page.number) has no reset to undo."
        case .failed(let reason): "Could not reset page \(page.number): \(reason)"
        case .undoFailed(let reason): "Could not undo the reset of page \(page.number): \(reason)"
        }
    }
}

extension PageState {
    /// Whether the compiler's `path` is this page's `main.swift` (the file the page pane shows).
    func isOwnFile(_ path: String) -> Bool {
        path.hasSuffix("/\(page.folder)/\(page.source.lastPathComponent)")
    }

    /// Diagnostics and their notes that point into `main.swift`, for the page pane.
    var diagnosticsOnPage: [Diagnostic] {
        build.diagnostics.flatMap { [$0] + $0.notes }.filter { isOwnFile($0.file) }
    }
}

extension PageBuildState {
    var selected: Diagnostic? {
        guard let selectedDiagnostic, diagnostics.indices.contains(selectedDiagnostic) else { return nil }
        return diagnostics[selectedDiagnostic]
    }
}
