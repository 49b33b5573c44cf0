import Foundation
import Presenting
import TourCore

extension TourModel {
    /// Opens the presenter on `order` (page indices; every page when empty), on its first page's first block, playing
    /// `playback` if given. `tour present` calls it before the first frame; `P` from the tutorial opens it on the page shown.
    /// A script's talk is its own pages, so at its end the presenter stops there instead of going on to the next page.
    public mutating func startPresenting(order: [Int] = [], playback: TalkPlayback? = nil) {
        let scripted = playback?.pageOrder ?? []
        let order = !order.isEmpty ? order : !scripted.isEmpty ? scripted : Array(pages.indices)
        presenter = PresenterState(order: order, playback: playback)
        zoomed = false
        if let first = order.first { current = first }
    }

    /// `P` in the tutorial: the presenter on the page shown, every page in order.
    mutating func present() -> [TourEffect] {
        let shown = current
        startPresenting()
        current = shown
        return []
    }

    /// Whether the terminal is smaller than any layout: the room sees a request for more room, not the talk.
    var isTooSmall: Bool {
        ScreenLayout.isTooSmall(size)
    }

    /// A key on stage. The script, when one plays and waits for a key or a pause, takes space, → and Enter. On a
    /// terminal too small to show the talk only quitting and redrawing act: nothing moves on unseen.
    mutating func handlePresenter(_ key: Key) -> [TourEffect] {
        guard let action = PresenterAction.keyMap.action(for: key) else { return [] }
        if isTooSmall, action != .quit, action != .redraw { return [] }
        switch action {
        case .forward:
            if continueScript() { return [] }
            revealNext()
        case .back:
            revealBack()
        case .nextPage:
            presentPage(by: 1)
        case .previousPage:
            presentPage(by: -1)
        case .run:
            return runOnStage()
        case .stop:
            return stop()
        case .toggleRun:
            presenter?.showsRun.toggle()
        case .playLevel:
            return playLevel()
        case .scrollBack:
            presenter?.scrollBack += 1
        case .scrollDown:
            let back = presenter?.scrollBack ?? 0
            presenter?.scrollBack = max(0, back - 1)
        case .previousKnob, .nextKnob:
            chooseKnob(by: action == .previousKnob ? -1 : 1)
            captionSelectedKnob(changedFrom: nil)
        case .lowerKnob, .raiseKnob:
            let before = selectedKnobValue
            changeKnob(by: action == .lowerKnob ? -1 : 1)
            captionSelectedKnob(changedFrom: before)
        case .slower, .faster:
            let before = speed
            changeSpeed(by: action == .slower ? -1 : 1)
            if speed != before {
                showCaption("speed \(speedText(before)) \(glyphs.arrow) \(speedText(speed))")
                // The caption says it to the room; the tutorial's advice to press r is the speaker's business.
                notice = nil
            }
        case .leave:
            presenter = nil
        case .quit:
            guard runningPage != nil else { return [.quit] }
            overlay = .confirmQuit
        case .help:
            overlay = .help
        case .redraw:
            return [.redrawAll]
        }
        return []
    }

    /// The blocks the presenter shows of the current page: every block but the speaker's notes.
    var presentedBlocks: [PresentedBlock] { currentPage.document.presentedBlocks }

    /// Space or →: the next block, or at the page's end the next page of the talk; nothing on the end slide.
    mutating func revealNext() {
        guard let presenter, presenter.endSlide == nil else { return }
        let count = presentedBlocks.count
        let shown = presenter.shownBlocks(onPage: current, of: count)
        guard shown < count else {
            presentPage(by: 1)
            return
        }
        self.presenter?.revealed[current] = shown + 1
        self.presenter?.revealedFrom = nil
        clearScriptCaption()
        self.presenter?.scrollBack = 0
        self.presenter?.playback?.notes = []
    }

    /// ←: one block back, or from the first block the previous page of the talk, as far as it was revealed; from the
    /// end slide, the last page as it was.
    mutating func revealBack() {
        guard let presenter else { return }
        if presenter.endSlide != nil {
            self.presenter?.endSlide = nil
            return
        }
        let shown = presenter.shownBlocks(onPage: current, of: presentedBlocks.count)
        guard shown > 1 else {
            presentPage(by: -1)
            return
        }
        self.presenter?.revealed[current] = shown - 1
        self.presenter?.revealedFrom = nil
        clearScriptCaption()
        self.presenter?.scrollBack = 0
    }

    /// The page `step` places away in the talk's order; the first and last say so instead of wrapping.
    mutating func presentPage(by step: Int) {
        guard let order = presenter?.order else { return }
        let position = order.firstIndex(of: current) ?? 0
        let target = position + step
        guard order.indices.contains(target) else {
            notice = target < 0 ? "This is the talk's first page." : "This is the talk's last page."
            return
        }
        go(toPage: order[target])
        presenter?.scrollBack = 0
        presenter?.revealedFrom = nil
        presenter?.endSlide = nil
        clearScriptCaption()
        // The script goes with the page, from its first step there: the page and the speaker's notes stay in step.
        if presenter?.playback?.jump(toPage: order[target]) == false {
            notice = "The script does not visit this page; it goes on when you are back on its page."
        }
    }

    /// The value the selected knob will have in the next run, if the page has knobs.
    private var selectedKnobValue: String? {
        let knobs = currentPage.knobs
        guard !knobs.isEmpty else { return nil }
        return currentPage.nextValue(of: knobs[min(currentPage.selectedKnob, knobs.count - 1)])
    }

    /// "maxConcurrentOperationCount 1 → 3" after a change, "maxConcurrentOperationCount = 1" when only chosen.
    private mutating func captionSelectedKnob(changedFrom before: String?) {
        let knobs = currentPage.knobs
        guard !knobs.isEmpty else { return }
        let knob = knobs[min(currentPage.selectedKnob, knobs.count - 1)]
        let value = currentPage.nextValue(of: knob)
        if let before {
            guard before != value else { return }
            showCaption("\(knob.name) \(before) \(glyphs.arrow) \(value)")
        } else {
            showCaption("\(knob.name) = \(value)")
        }
        // The caption says it to the room; the tutorial's advice to press r is the speaker's business.
        notice = nil
    }

    mutating func showCaption(_ text: String) {
        presenter?.caption = PresenterCaption(text: text, shownAt: now)
    }

    /// A script's caption goes once the room is shown something else.
    mutating func clearScriptCaption() {
        if presenter?.caption?.untilTheScriptMovesOn == true { presenter?.caption = nil }
    }

    /// What follows `event` on stage: the clock starts at the first tick, and the script plays on as far as it can.
    mutating func followPresenter(after event: TourEvent) -> [TourEffect] {
        if case .tick = event, presenter?.startedAt == nil { presenter?.startedAt = now }
        return playScript()
    }
}
