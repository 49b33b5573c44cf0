import Presenting
import RoomProtocol
import TourCore

/// What the room adds to the screens: the link's state on the tutorial's status line, the poll on stage over a
/// participant's page, and the answers counted on the presenter's screen. Every word from the room arrives already
/// made printable (`RoomMessages`), and is cut to the room it is given here.
enum RoomViews {
    /// "room: connected as ana", "room: reconnecting (connection refused)": the status line's part, or nil outside a room.
    static func statusText(_ model: TourModel, withReason: Bool = true) -> String? {
        guard let room = model.room else { return nil }
        return "room: " + room.status.words(name: room.name, withReason: withReason)
    }

    static func statusColor(_ status: RoomLinkStatus) -> PaletteColor {
        switch status {
        case .connecting, .reconnecting: .warning
        case .connected: .success
        case .refused: .failure
        }
    }

    /// The fewest cells a choice's bar gets: the texts take the rest, since the room reads them.
    static let shortestBar = 10

    /// One row a choice: its key, its text (cut only where the bars would get less than `shortestBar`), a bar of its
    /// share of the answers and the count; the right choice, once known, marked and in the success colour.
    static func choiceRows(_ poll: RoomPoll, counts: [String: Int], width: Int, glyphs: Glyphs, yours: String? = nil) -> [[Cell]] {
        let total = max(1, counts.values.reduce(0, +))
        let countWidth = String(counts.values.max() ?? 0).count
        let fixed = 6 + 2 + 1 + countWidth + (yours == nil ? 0 : 7)
        let textWidth = min(poll.choices.map { TextWidth.of($0.text) }.max() ?? 0, max(8, width - fixed - shortestBar))
        let barWidth = max(1, width - fixed - textWidth)
        let full = glyphs.levels.last ?? "#"
        return poll.choices.map { choice in
            let right = poll.outcome?.rightChoice == choice.key
            let count = counts[choice.key] ?? 0
            let style = CellStyle(foreground: right ? .success : nil, bold: right)
            var row: [Cell] = []
            func add(_ text: String, _ style: CellStyle) {
                row += text.map { Cell($0, style) }
            }
            add(right ? "\(glyphs.expected) " : "  ", style)
            add(choice.key, ExerciseBlockView.keys)
            add("  ", .plain)
            let text = TextWidth.truncated(choice.text, to: textWidth, ellipsis: glyphs.ellipsis)
            add(text + String(repeating: " ", count: max(0, textWidth - TextWidth.of(text))) + "  ", style)
            let filled = count * barWidth / total
            add(String(repeating: full, count: filled), CellStyle(foreground: right ? .success : .accent))
            add(String(repeating: " ", count: barWidth - filled) + " ", .plain)
            let number = String(count)
            add(String(repeating: " ", count: countWidth - number.count) + number, CellStyle(bold: true))
            if let yours, yours == choice.key { add("  yours", CellStyle(foreground: .muted)) }
            return row
        }
    }

    /// The poll with `counts`, as the presenter's screen, the participants' and `tour notes` sum it up.
    static func tally(_ poll: RoomPoll, counts: [String: Int]) -> PollTally {
        PollTally(question: poll.question, choices: poll.choices.map { PollTally.Choice(key: $0.key, text: $0.text, count: counts[$0.key] ?? 0) },
                  rightChoice: poll.outcome?.rightChoice)
    }
}

extension Overlays {
    /// The poll on stage over a participant's page: the question and its choices with the keys that answer it;
    /// once answered, that the answer went; with the outcome, the counts, the right choice and whether theirs was.
    static func drawRoomPoll(_ model: TourModel, into buffer: inout CellBuffer) {
        guard let room = model.room, let held = room.poll else { return }
        let poll = held.poll
        let width = min(buffer.size.width - 4, 76)
        let textWidth = width - 6
        var rows = ExerciseBlockView.wrapped(ExerciseBlockView.spans(poll.question, style: CellStyle(bold: true)), width: textWidth)
        rows.append(PageRow(cells: []))
        if let outcome = poll.outcome {
            rows += RoomViews.choiceRows(poll, counts: outcome.counts, width: textWidth, glyphs: model.glyphs, yours: held.answer)
                .map { PageRow(cells: $0) }
            rows.append(PageRow(cells: []))
            rows += ExerciseBlockView.wrapped([("The run: \(outcome.happened). ", .plain),
                                               (RoomViews.tally(poll, counts: outcome.counts).summary + ".", CellStyle(bold: true))],
                                              width: textWidth)
            rows += ExerciseBlockView.wrapped(verdict(held, outcome: outcome), width: textWidth)
            rows += ExerciseBlockView.wrapped([("Esc", ExerciseBlockView.keys), (" puts it away.", .plain)], width: textWidth)
        } else {
            for choice in poll.choices {
                let chosen = held.answer == choice.key
                rows += ExerciseBlockView.wrapped([(" \(choice.key)  ", ExerciseBlockView.keys)]
                                                      + ExerciseBlockView.spans(choice.text, style: CellStyle(bold: chosen))
                                                      + (chosen ? [("  \(model.glyphs.arrow) your answer", CellStyle(foreground: .success, bold: true))] : []),
                                                  width: textWidth, hanging: 4)
            }
            rows.append(PageRow(cells: []))
            rows += ExerciseBlockView.wrapped(answerLine(held, status: room.status), width: textWidth)
        }
        drawQuestion(rows, width: width, title: "Poll on stage: page \(poll.pageNumber)", glyphs: model.glyphs, into: &buffer)
    }

    /// The room's refusal, whole, with how to join again; the tutorial goes on without the room meanwhile.
    static func drawRoomRefused(_ problem: String, model: TourModel, into buffer: inout CellBuffer) {
        let width = min(buffer.size.width - 4, 76)
        let textWidth = width - 6
        let name = model.room?.name ?? ""
        var rows = ExerciseBlockView.wrapped([("The room did not let this tour in: ", CellStyle(bold: true)),
                                              (problem + ".", CellStyle(foreground: .failure, bold: true))], width: textWidth)
        rows.append(PageRow(cells: []))
        rows += ExerciseBlockView.wrapped([("The tutorial goes on without the room; your progress is kept here as always. To join, quit and "
                                            + "start tour --room again with the password the leader gives (typed when asked, or in "
                                            + "TOUR_ROOM_PASSWORD)\(name.isEmpty ? "" : ", as \(name)").", .plain)], width: textWidth)
        rows.append(PageRow(cells: []))
        rows += ExerciseBlockView.wrapped([("Any key", ExerciseBlockView.keys), (" closes this.", .plain)], width: textWidth)
        drawQuestion(rows, width: width, title: "Room refused", glyphs: model.glyphs, into: &buffer)
    }

    /// What the learner's answer became: sent, waiting for the link, or not given yet.
    private static func answerLine(_ held: ParticipantPoll, status: RoomLinkStatus) -> [ExerciseBlockView.Segment] {
        let keys = held.poll.choices.map(\.key).filter { $0.count == 1 }
        guard let answer = held.answer else {
            return [(TourModel.listed(keys), ExerciseBlockView.keys), (" answers; ", .plain), ("Esc", ExerciseBlockView.keys),
                    (" puts the poll away, ", .plain), ("R", ExerciseBlockView.keys), (" brings it back.", .plain)]
        }
        guard held.answerSent else {
            return [("Your answer (\(answer)) was not sent: the room was not connected (now \(status.words())). ",
                     CellStyle(foreground: .warning, bold: true)),
                    ("Press it again once it is.", .plain)]
        }
        return [("Answer sent: (\(answer)). ", CellStyle(foreground: .success, bold: true)), ("Another key changes it; ", .plain),
                ("Esc", ExerciseBlockView.keys), (" puts the poll away.", .plain)]
    }

    /// Whether the learner's answer was the right one.
    private static func verdict(_ held: ParticipantPoll, outcome: RoomPoll.Outcome) -> [ExerciseBlockView.Segment] {
        guard let answer = held.answer else { return [("You did not answer this one.", CellStyle(foreground: .muted))] }
        guard let right = outcome.rightChoice else { return [("The run could not tell.", .plain)] }
        return answer == right
            ? [("You were right: (\(answer)).", CellStyle(foreground: .success, bold: true))]
            : [("You said (\(answer)); the answer was (\(right)).", CellStyle(foreground: .failure, bold: true))]
    }
}

