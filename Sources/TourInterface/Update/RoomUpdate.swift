import RoomProtocol
import TourCore

/// The tutorial in a room (`tour --room`): the progress the loop writes is published as it happens, the status line
/// says how the link stands, and the poll asked on stage shows over whatever page the learner is on. A choice's key
/// sends the answer, Esc puts the poll away, `R` brings it back; the poll again with its outcome shows the right
/// answer and the counts, and the presenter taking it down lets it go.
///
/// Answering a poll records nothing in the learner's progress: the answer is graded by the presenter's run, on the
/// presenter's machine, and the page's own prediction stays the learner's to answer from a run of their own.
extension TourModel {
    mutating func handle(_ report: RoomReport) -> [TourEffect] {
        switch report {
        case .status(let status):
            let before = stageRoom?.status ?? room?.status
            if stageRoom != nil {
                stageRoom?.status = status
            } else {
                room?.status = status
            }
            // The status line has room for "refused" and little more: the reason, which says what to do, is said whole
            // over the page, once (unless a question of the tutorial's own is open: then in a notice).
            if case .refused(let problem) = status, before != status {
                switch overlay {
                case .confirmQuit, .confirmReset: notice = "Room refused: \(problem)."
                default: overlay = .roomRefused(problem: problem)
                }
            }
            return []
        case .heard(let event):
            if stageRoom != nil {
                hearOnStage(event)
            } else {
                hearAsParticipant(event)
            }
            return []
        case .progressWritten(let record):
            return room == nil ? [] : [.publishProgress(record)]
        }
    }

    private mutating func hearAsParticipant(_ event: RoomEvent) {
        guard room != nil else { return }
        switch event {
        case .poll(let poll):
            // An answer given stays with its poll, heard again after a reconnect or with its outcome.
            let held = room?.poll.flatMap { $0.poll.id == poll.id ? $0 : nil }
            let news = room?.poll?.poll != poll
            room?.poll = ParticipantPoll(poll: poll, answer: held?.answer, answerSent: held?.answerSent ?? false)
            // The same poll heard again is no news; a new one, or its outcome, is.
            if news { showRoomPoll() }
        case .pollClosed:
            room?.poll = nil
            if overlay == .roomPoll { overlay = nil }
        case .state, .presence, .answer, .unreadable:
            // The leader's business: a participant's link hears only the poll.
            break
        }
    }

    /// Shows the poll over the page, or, while a question of the tutorial's own waits for y or n, says where it is.
    private mutating func showRoomPoll() {
        switch overlay {
        case .confirmQuit, .confirmReset, .roomRefused:
            notice = "A poll is open on stage: R shows it once this question is answered."
        case .help, .predict, .solution, .roomPoll, nil:
            overlay = .roomPoll
        }
    }

    /// `R`: the poll on stage again, after Esc put it away.
    mutating func reopenRoomPoll() {
        guard let room else {
            notice = "You are not in a room: tour --room HOST:PORT --name NAME joins one."
            return
        }
        guard room.poll != nil else {
            notice = "No poll is open on stage."
            return
        }
        overlay = .roomPoll
    }

    /// A key while the poll shows: a choice's key sends it (again, to change it, until the outcome comes), Esc puts
    /// the poll away.
    mutating func handleRoomPoll(_ key: Key) -> [TourEffect] {
        guard let held = room?.poll else {
            overlay = nil
            return []
        }
        switch key {
        case .escape:
            overlay = nil
            notice = "The poll is put away: R shows it again."
            return []
        case .redraw:
            return [.redrawAll]
        case .character(let typed) where held.poll.outcome == nil && held.choice(forKey: typed) != nil:
            let choice = held.choice(forKey: typed)!
            let connected = room?.status == .connected
            room?.poll?.answer = choice.key
            room?.poll?.answerSent = connected
            return [.answerPoll(PollAnswer(pollID: held.poll.id, choice: choice.key))]
        default:
            let keys = held.poll.choices.map(\.key).filter { $0.count == 1 }
            notice = held.poll.outcome == nil
                ? "Answer with \(Self.listed(keys)); Esc puts the poll away (R brings it back)."
                : "The run has answered this poll; Esc puts it away."
            return []
        }
    }
}

/// On stage with a room (`tour present --room`): on a page with a prediction the first `r` asks the room, the
/// answers are counted as they come (the latest per participant, for this poll only), the second `r` runs the page,
/// and the run's end gives the right choice, published with the counts. Leaving the page takes the poll down.
extension TourModel {
    /// `r` on stage.
    mutating func runOnStage() -> [TourEffect] {
        guard var stage = stageRoom, let prediction = currentPage.exercise?.prediction else { return run() }
        guard let asked = stage.poll, asked.page == current else {
            stage.asked += 1
            let poll = RoomPoll(id: "\(stage.session)-\(stage.asked)", page: currentPage.page.slug, pageNumber: currentPage.page.number,
                                question: prediction.question,
                                choices: prediction.choices.map { RoomPoll.Choice(key: $0.key, text: $0.text) })
            stage.poll = StagePoll(poll: poll, page: current)
            stageRoom = stage
            return [.askRoom(poll)]
        }
        // The first run of the page from now on answers the poll (it may have to be built first).
        if asked.poll.outcome == nil { stageRoom?.poll?.fromRunID = nextRunID }
        return run()
    }

    private mutating func hearOnStage(_ event: RoomEvent) {
        // Progress, presences and the poll heard back are the dashboard's; unreadable messages are not counted.
        guard case .answer(let participant, let answer) = event, var poll = stageRoom?.poll, poll.count(answer, from: participant) else { return }
        stageRoom?.poll = poll
    }

    /// A run of page `index` ended: if it answers the poll asked on that page, the poll is published with its outcome.
    /// A run that cannot tell (stopped or crashed before the moment in question) leaves the poll open for another.
    mutating func answerStagePoll(page index: Int, runID: Int) -> [TourEffect] {
        guard var stage = stageRoom?.poll, stage.page == index, stage.poll.outcome == nil, let from = stage.fromRunID, runID >= from,
              let record = pages[index].record, let prediction = pages[index].exercise?.prediction else { return [] }
        let observation = prediction.observe(record)
        guard let right = observation.rightChoice else {
            notice = "This run cannot tell (\(observation.happened)): r runs it again, and the poll stays open."
            return []
        }
        stage.poll.outcome = RoomPoll.Outcome(rightChoice: right, happened: observation.happened, counts: stage.counts)
        stageRoom?.poll = stage
        return [.askRoom(stage.poll)]
    }

    /// Takes the poll down once the presenter is on another page, or off the stage.
    mutating func closeStagePollLeftBehind() -> [TourEffect] {
        guard let poll = stageRoom?.poll, presenter == nil || poll.page != current else { return [] }
        stageRoom?.poll = nil
        return [.closeRoomPoll]
    }
}
