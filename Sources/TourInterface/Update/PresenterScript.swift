import Foundation
import Presenting
import TourCore

extension TourModel {
    /// Space, → or Enter while the script waits: a wait or a pause ends and the script goes on (true). A run the script
    /// waits for is not skipped: `s` stops it, and its end moves the script on. False when no script waits.
    mutating func continueScript() -> Bool {
        guard let waiting = presenter?.playback?.waiting else { return false }
        switch waiting {
        case .key, .clock:
            presenter?.playback?.waiting = nil
        case .run:
            notice = "The script goes on when the run ends; s stops it."
        case .source:
            notice = "The script goes on once the page is read."
        }
        return true
    }

    /// Plays the script's steps from the next one until one waits (a key, a pause, a run, a page being read) or the
    /// script ends. It starts at the talk's first tick, so a pause counts from a clock that is running.
    /// Nothing plays while the terminal is too small to show it: the script waits until it is big enough again.
    mutating func playScript() -> [TourEffect] {
        guard presenter?.startedAt != nil, !isTooSmall else { return [] }
        var effects: [TourEffect] = []
        while var playback = presenter?.playback {
            if let waiting = playback.waiting {
                guard isOver(waiting) else { break }
                playback.waiting = nil
            }
            // At the script's end the speaker goes on by hand; the room is not told which keys.
            guard playback.next < playback.steps.count else {
                presenter?.playback = playback
                break
            }
            let step = playback.steps[playback.next].step
            playback.next += 1
            presenter?.playback = playback
            effects += play(step)
        }
        return effects
    }

    private func isOver(_ waiting: TalkPlayback.Waiting) -> Bool {
        switch waiting {
        case .key:
            return false
        case .clock(let time):
            return now >= time
        case .run(let index, let fromRunID):
            // A page that cannot be built will not run: the talk goes on, and the status of the build says why.
            if case .failed = pages[index].build.phase { return true }
            guard let runID = pages[index].runID, runID >= fromRunID else { return false }
            return pages[index].record?.ending != nil
        case .source(let index):
            return pages[index].text != nil
        }
    }

    private mutating func play(_ step: TalkStep<Int>) -> [TourEffect] {
        switch step {
        case .page(let index):
            go(toPage: index)
            presenter?.revealed[index] = 1
            presenter?.revealedFrom = nil
            presenter?.scrollBack = 0
            presenter?.playback?.notes = []
            clearScriptCaption()
            if pages[index].text == nil { presenter?.playback?.waiting = .source(page: index) }
        case .reveal(let reveal):
            let count = presentedBlocks.count
            let shown = presenter?.shownBlocks(onPage: current, of: count) ?? 1
            switch reveal {
            case .all: presenter?.revealed[current] = count
            case .blocks(let more): presenter?.revealed[current] = min(count, shown + more)
            }
            presenter?.revealedFrom = shown
            presenter?.scrollBack = 0
            presenter?.playback?.notes = []
            clearScriptCaption()
        case .set(let name, let value):
            let before = currentPage.knobs.first { $0.name == name }.map(currentPage.nextValue(of:))
            currentPage.chosenKnobValues[name] = value
            showCaption(before.map { "\(name) \($0) \(glyphs.arrow) \(value)" } ?? "\(name) = \(value)")
        case .run:
            // With a room, a page's prediction is asked first, as `r` asks it: the script waits for a key while the
            // answers come in, then takes this step again, which runs the page.
            if stageRoom != nil, currentPage.exercise?.prediction != nil, stageRoom?.poll?.page != current {
                presenter?.playback?.next -= 1
                presenter?.playback?.waiting = .key
                return runOnStage()
            }
            let runID = nextRunID
            let effects = runOnStage()
            presenter?.playback?.waiting = .run(page: current, fromRunID: runID)
            return effects
        case .wait:
            presenter?.playback?.waiting = .key
        case .pause(let seconds):
            presenter?.playback?.waiting = .clock(now + UInt64(seconds * 1_000_000_000))
        case .note(let text):
            presenter?.playback?.notes.append(text)
        case .caption(let text):
            showCaption(text)
            presenter?.caption?.untilTheScriptMovesOn = true
        case .speed(let factor):
            speed = factor
        case .seed(let value):
            seed = value
        case .end(let words):
            clearScriptCaption()
            presenter?.endSlide = words
        case .theme:
            // Never played: `TalkPlayback` leaves the theme out, the terminal's colours chosen before the presenter opens.
            break
        }
        return []
    }

    /// Where the presenter is, as `tour notes` shows it; nil in the tutorial. The clock is in whole seconds, so a
    /// snapshot changes at most once a second while nothing else happens.
    public var presenterSnapshot: PresenterSnapshot? {
        guard let presenter else { return nil }
        let blocks = presentedBlocks
        let shown = presenter.shownBlocks(onPage: current, of: blocks.count)
        let index = shown - 1
        let elapsed = presenter.startedAt.map { now > $0 ? Double((now - $0) / 1_000_000_000) : 0 } ?? 0
        return PresenterSnapshot(
            page: currentPage.page.number, pageTitle: currentPage.page.title, block: max(0, index), blockCount: blocks.count,
            current: blocks.indices.contains(index) ? blocks[index].plainText : "",
            next: blocks.indices.contains(shown) ? blocks[shown].plainText : nil,
            notes: (presenter.levelOnStage.map { ["On the screen now: level \($0), played by the digits; q in the game comes back to this page."] } ?? [])
                + notesOfRevealedBlocks(blocks, through: index) + (presenter.playback?.notes ?? []),
            elapsedSeconds: elapsed, upcomingKnobChanges: upcomingKnobChanges, pauseSecondsLeft: pauseSecondsLeft,
            plannedSeconds: presenter.playback.map(\.plannedSecondsSoFar),
            poll: stageRoom?.poll.map { RoomViews.tally($0.poll, counts: $0.poll.outcome?.counts ?? $0.counts) })
    }

    /// The whole seconds left of the pause the script waits in, rounded up; nil when it waits in none.
    private var pauseSecondsLeft: Int? {
        guard case .clock(let end) = presenter?.playback?.waiting else { return nil }
        return end > now ? Int((end - now + 999_999_999) / 1_000_000_000) : 0
    }

    /// The speaker's notes of the block at `index`, and of every block the last reveal passed on its way there.
    private func notesOfRevealedBlocks(_ blocks: [PresentedBlock], through index: Int) -> [String] {
        guard blocks.indices.contains(index) else { return [] }
        let from = min(max(0, presenter?.revealedFrom ?? index), index)
        return blocks[from...index].flatMap(\.notes)
    }

    /// The knob changes the script makes before its next `page` step, each from the value it changes.
    private var upcomingKnobChanges: [String] {
        guard let playback = presenter?.playback else { return [] }
        var values: [String: String] = [:]
        var changes: [String] = []
        for (_, step) in playback.steps.dropFirst(playback.next) {
            if case .page = step { break }
            guard case .set(let name, let value) = step else { continue }
            let before = values[name] ?? currentPage.knobs.first { $0.name == name }.map(currentPage.nextValue(of:))
            changes.append(before.map { "\(name) \($0) \(glyphs.arrow) \(value)" } ?? "\(name) = \(value)")
            values[name] = value
        }
        return changes
    }

    /// Whether `snapshot` is still the one the model published last. The loop performs an update's effects in order,
    /// and one of them may fold a newer event in at once (`.readSource` does, with the text just read): that update's
    /// newer snapshot goes out first, and the older one, performed after it, must be dropped, or the speaker's notes
    /// would be left on it ("block 1 of 0" from before the page was read) until the next change.
    public func isLatestPublished(_ snapshot: PresenterSnapshot) -> Bool {
        presenter?.published == snapshot
    }

    /// The snapshot as an effect when it differs from the one published last.
    mutating func publishPresenterSnapshot() -> [TourEffect] {
        guard let snapshot = presenterSnapshot, snapshot != presenter?.published else { return [] }
        presenter?.published = snapshot
        return [.publishPresenterSnapshot(snapshot)]
    }
}
