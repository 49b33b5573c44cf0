import TourCore

extension TourModel {
    /// Folds one event into the model and returns what the outside world should do about it.
    ///
    /// The model is a value and this is its only way to change, so a test can replay any sequence of
    /// events and inspect the result; it mutates in place because a run's record grows by tens of
    /// thousands of events a second and must not be copied for each.
    public mutating func update(_ event: TourEvent) -> [TourEffect] {
        let shown = current
        var effects = apply(event)
        if presenter != nil { effects += followPresenter(after: event) }
        // Zooming, a resize, another page or a new text of this one can each leave a scroll position past the end
        // of what the pane now shows: one clamp after any of them, rather than one at each place that forgets it.
        if event.canMovePaneEnds { clampScrolling() }
        if current != shown {
            arrived(at: current)
            effects += show(current)
        }
        if stageRoom?.poll != nil { effects += closeStagePollLeftBehind() }
        if event.canFreeTheBuilder { effects += continueBackgroundBuilds() }
        guard presenter != nil else { return effects }
        // On stage, pages opened and run are a speaker's rehearsal or talk, not a learner's progress.
        return effects.filter { !$0.recordsProgress } + publishPresenterSnapshot()
    }

    private mutating func apply(_ event: TourEvent) -> [TourEffect] {
        switch event {
        case .launched:
            return show(current) + readAhead() + [.findProgramsToBuild(programsToSurvey)]
        case .sourceReadAhead(let page, let source):
            guard let index = index(of: page), pages[index].text == nil else { return [] }
            adopt(source, at: index)
            return []
        case .key(let key):
            notice = nil
            if let overlay { return handle(key, in: overlay) }
            return handle(key)
        case .mouse(let mouse):
            return handle(mouse)
        case .resize(let newSize):
            size = newSize
            return []
        case .tick(let time):
            now = max(now, time)
            return []
        case .host(let runID, let hostEvent):
            guard let index = pages.firstIndex(where: { $0.runID == runID }) else { return [] }
            pages[index].record?.apply(hostEvent)
            if case .ended(_, let time) = hostEvent {
                now = max(now, time)
                // An ending the page did not announce is explained in the output, so the compact layout shows it.
                if index == current, focus == .page, pages[index].record?.endedAsExpected == false { compactTab = .output }
                return gradePrediction(page: index, runID: runID) + answerStagePoll(page: index, runID: runID) + rerunAfterEnd(of: index)
            }
            return []
        case .editLoop(let event):
            return handle(event)
        case .drawn:
            currentPage.record?.markLiveViewDrawn()
            return []
        case .progressProblem(let message), .notice(let message):
            notice = message
            return []
        case .levelPlayed(let problem):
            presenter?.levelOnStage = nil
            if let problem { notice = problem }
            return []
        case .picturesSaved(.saved(let picture, let trace)):
            notice = "Timeline drawn in \(picture) (open it in a browser); trace for ui.perfetto.dev in \(trace)"
            return []
        case .picturesSaved(.failed(let reason)):
            notice = "The timeline was not drawn: \(reason)"
            return []
        case .exercise(let event):
            return handle(event)
        case .room(let report):
            return handle(report)
        }
    }

    private mutating func handle(_ key: Key, in overlay: Overlay) -> [TourEffect] {
        switch overlay {
        case .help:
            self.overlay = nil
            return key == .redraw ? [.redrawAll] : []
        case .predict(let index):
            return handlePrediction(key, page: index)
        case .solution(let index):
            return handleSolution(key, page: index)
        case .roomPoll:
            return handleRoomPoll(key)
        case .roomRefused:
            self.overlay = nil
            return []
        case .confirmQuit, .confirmReset:
            // Any other key leaves the question open.
            guard let yes = Self.answer(key) else { return [] }
            self.overlay = nil
            guard yes else { return [] }
            if case .confirmReset(let index) = overlay { return [.reset(pages[index].page)] }
            return stopEffects() + [.quit]
        }
    }

    /// A question's answer: y is yes; n, q and Esc are no; nil for any other key.
    private static func answer(_ key: Key) -> Bool? {
        switch key {
        case .character("y"), .character("Y"): true
        case .character("n"), .character("N"), .character("q"), .escape: false
        default: nil
        }
    }

    private mutating func handle(_ key: Key) -> [TourEffect] {
        if presenter != nil { return handlePresenter(key) }
        if focus == .timeline, let effects = handleTimeline(key) { return effects }
        if focus == .live, let effects = handleLiveView(key) { return effects }
        guard let action = TutorialAction.keyMap.action(for: key) else { return [] }
        switch action {
        case .quit:
            guard runningPage != nil else { return [.quit] }
            overlay = .confirmQuit
        case .help: overlay = .help
        case .nextWarning: stepWarning()
        case .nextPage: go(toPage: current + 1)
        case .previousPage: go(toPage: current - 1)
        case .run: return runAskingFirst()
        case .predict: askPrediction()
        case .check: return check(page: current)
        case .switchShownRun: switchShownRun()
        case .editExercise: return editExercise()
        case .hint: return takeHint()
        case .solution: return openSolution()
        case .stop: return stop()
        case .edit: return edit()
        case .savePictures: return savePictures()
        case .askToReset: askToReset()
        case .undoReset: return [.undoReset(currentPage.page)]
        case .nextDiagnostic: stepDiagnostic(by: 1)
        case .previousDiagnostic: stepDiagnostic(by: -1)
        case .nextPane: moveFocus(by: 1)
        case .previousPane: moveFocus(by: -1)
        case .toggleDeepDive: toggleDeepDiveInView()
        case .toggleAllDeepDives: toggleAllDeepDives()
        case .present: return present()
        case .playLevel: return playLevel()
        case .roomPoll: reopenRoomPoll()
        case .zoom: zoomed.toggle()
        case .unzoom: zoomed = false
        case .previousKnob: chooseKnob(by: -1)
        case .nextKnob: chooseKnob(by: 1)
        case .lowerKnob: changeKnob(by: -1)
        case .raiseKnob: changeKnob(by: 1)
        case .slower: changeSpeed(by: -1)
        case .faster: changeSpeed(by: 1)
        case .redraw: return [.redrawAll]
        case .lineDown: scroll(.lines(1))
        case .lineUp: scroll(.lines(-1))
        case .pageDown: scroll(.pages(1))
        case .pageUp: scroll(.pages(-1))
        case .top: scroll(.top)
        case .bottom: scroll(.bottom)
        // Bound only while their pane has the focus, and handled there.
        case .liveLineDown, .liveLineUp, .livePageDown, .livePageUp, .letGo, .fullSize, .leaveFullSize,
             .previousItem, .nextItem, .zoomIn, .zoomOut, .fitRun, .zoomToSelection, .panLeft, .panRight, .follow, .nextView, .search:
            break
        }
        return []
    }

    /// Asks the loop to draw the run the output and timeline show, the page's latest (which may still be going) or
    /// its exercise's last check's, as files to share.
    private mutating func savePictures() -> [TourEffect] {
        guard currentPage.shownRecord?.threads.isEmpty == false else {
            notice = "Nothing to draw yet: r runs the page, then S draws its timeline."
            return []
        }
        return [.savePictures(page: currentPage.page)]
    }

    /// Moves to page `index`, if there is one.
    mutating func go(toPage index: Int) {
        guard pages.indices.contains(index) else {
            notice = index < 0 ? "This is the first page." : "This is the last page."
            return
        }
        current = index
        if !currentPage.drawsLiveView && focus == .live { focus = .page }
    }

    /// Runs a page (the current one unless told), stopping any run in flight first: one page at a time keeps each
    /// run's timing its own. A page whose program is stale or failed to build is built first.
    mutating func run(page index: Int? = nil) -> [TourEffect] {
        let index = index ?? current
        if let effects = buildBeforeRunning(index) { return effects }
        let effects = stopEffects()
        let runID = nextRunID
        nextRunID += 1
        // A run is watched in its output: the compact layout stops showing the knobs that were just set.
        if focus == .page && compactTab == .knobs { compactTab = .output }
        // A page that draws is watched in its live view, which then takes the scroll keys.
        if pages[index].drawsLiveView { focus(.live) }
        // This run replaces any rerun that was waiting for the old one to end.
        _ = pages[index].build.cycle.cancel()
        var page = pages[index]
        page.runID = runID
        // A new run of the page is what the learner watches next.
        page.showsCheckRun = false
        page.record = RunRecord()
        page.outputScrollBack = 0
        page.timeline = TimelineState()
        pages[index] = page
        bindPendingAnswer(page: index, runID: runID)
        return effects + [.recordProgress(.ran(page: page.page.slug)),
                          .start(RunOrder(runID: runID, page: page.page, knobSettings: page.knobSettings, speed: speed, seed: seed))]
    }

    /// Stops the run and any build in flight, wherever they are.
    mutating func stop() -> [TourEffect] {
        let effects = stopEffects() + cancelBuilds()
        if effects.isEmpty { notice = "Nothing is running; r runs this page." }
        return effects
    }

    func stopEffects() -> [TourEffect] {
        guard let running = runningPage, let runID = pages[running].runID else { return [] }
        return [.stop(runID: runID)]
    }

    /// Tab order: the panes on screen, page first.
    private mutating func moveFocus(by step: Int) {
        let order = Pane.allCases.filter { $0 != .live || currentPage.drawsLiveView }
        let index = order.firstIndex(of: focus) ?? 0
        focus(order[(index + step + order.count) % order.count])
    }

    mutating func focus(_ pane: Pane) {
        focus = pane
        if ScreenLayout.bottomTabs.contains(pane) { compactTab = pane }
    }

    mutating func chooseKnob(by step: Int) {
        let count = currentPage.knobs.count
        showKnobsInCompactLayout()
        guard count > 0 else {
            notice = "This page has no knobs."
            return
        }
        currentPage.selectedKnob = (currentPage.selectedKnob + step + count) % count
    }

    /// Steps the selected knob's value for the next run. A run in flight keeps its values: restarting it
    /// behind the learner's back would throw away what they are watching, so the status line says `r` applies it.
    mutating func changeKnob(by step: Int) {
        let knobs = currentPage.knobs
        showKnobsInCompactLayout()
        guard !knobs.isEmpty else {
            notice = "This page has no knobs."
            return
        }
        let knob = knobs[min(currentPage.selectedKnob, knobs.count - 1)]
        if case .choice(let choices) = knob.kind, choices.isEmpty {
            notice = "Run the page once to see the choices of \(knob.name)."
            return
        }
        let value = knob.value(after: currentPage.nextValue(of: knob), by: step)
        currentPage.chosenKnobValues[knob.name] = value
        notice = currentPage.isRunning
            ? "\(knob.name) = \(value) from the next run: press r to rerun with it."
            : "\(knob.name) = \(value) for the next run: press r to run."
    }

    /// In the compact layout the knobs share the bottom with output and timeline; changing one shows them.
    private mutating func showKnobsInCompactLayout() {
        if focus != .knobs { compactTab = .knobs }
    }

    mutating func changeSpeed(by step: Int) {
        let speeds = Self.speeds
        let next: Double? = step > 0 ? speeds.first { $0 > speed } : speeds.last { $0 < speed }
        guard let next else {
            notice = "Speed is already at its \(step > 0 ? "fastest" : "slowest"), \(speedText(speed))."
            return
        }
        speed = next
        notice = "Speed \(speedText(speed)) from the next run" + (runningPage != nil ? ": press r to rerun with it." : ".")
    }

    /// "2×", "0.25×".
    func speedText(_ speed: Double) -> String {
        (speed == speed.rounded() ? String(Int(speed)) : String(speed)) + glyphs.times
    }
}

extension TourEvent {
    /// Whether the event can change the size of a pane or how much its content has: every event but a run's stream
    /// and the clock, which come too often to measure the panes again for each.
    var canMovePaneEnds: Bool {
        switch self {
        case .host, .tick, .drawn: false
        default: true
        }
    }

    /// Whether the event may end what a background build waits for (a run, a build, a check) or queue one: a run's
    /// stream of events, tens of thousands a second, does so only with its end, so the others skip the look.
    var canFreeTheBuilder: Bool {
        switch self {
        case .host(_, .ended): true
        case .host, .tick, .drawn: false
        default: true
        }
    }
}
