import Foundation
import Presenting
import TourCore

/// What `tour notes` shows: the presenter it follows, its latest snapshot, and how long ago that came.
public struct NotesScreenState: Equatable, Sendable {
    /// The presenter's session, as `tour notes --session` names it.
    public var session: String
    /// The latest snapshot; nil until the presenter sends its first.
    public var snapshot: PresenterSnapshot?
    /// Seconds since the snapshot arrived: the clock keeps going between the presenter's steps.
    public var secondsSinceSnapshot: Double = 0
    /// Other presenters live on this machine when the notes started, so the speaker can tell which one this is.
    public var otherSessions: [String] = []

    public init(session: String, snapshot: PresenterSnapshot? = nil, secondsSinceSnapshot: Double = 0, otherSessions: [String] = []) {
        self.session = session
        self.snapshot = snapshot
        self.secondsSinceSnapshot = secondsSinceSnapshot
        self.otherSessions = otherSessions
    }

    /// The talk's clock as the speaker should see it now.
    public var elapsedSeconds: Double? {
        snapshot.map { $0.elapsedSeconds + secondsSinceSnapshot }
    }
}

/// The speaker's screen: a title row with the page and the clock, the block on the room's screen and the next one,
/// the speaker's notes (given most of the room: they are what the speaker reads), and the knob changes to come.
/// Clear at 80×24; every section is cut with an ellipsis rather than pushing another off the screen.
public enum NotesView {
    public static func render(_ state: NotesScreenState, size: Size, glyphs: Glyphs) -> CellBuffer {
        var buffer = CellBuffer(size: size)
        let width = size.width
        guard width >= 20, size.height >= 8 else {
            buffer.write(TextWidth.truncated("Too small for notes", to: width, ellipsis: glyphs.ellipsis), x: 0, y: 0)
            return buffer
        }
        let bar = CellStyle(foreground: .accent, bold: true)
        let clock = state.elapsedSeconds.map(clockText) ?? "--:--"
        let where_ = state.snapshot.map { "page \($0.page): \($0.pageTitle)  block \($0.block + 1) of \($0.blockCount)" } ?? "waiting for the presenter's first step"
        let title = TextWidth.truncated("Notes for presenter \(state.session) · \(where_)", to: width - clock.count - 2, ellipsis: glyphs.ellipsis)
        buffer.write(title, x: 0, y: 0, style: bar)
        buffer.write(clock, x: width - clock.count, y: 0, style: CellStyle(foreground: .heading, bold: true))
        buffer.write(String(repeating: glyphs.horizontal, count: width), x: 0, y: 1, style: CellStyle(foreground: .muted))

        let footer = state.otherSessions.isEmpty
            ? "q ends the notes"
            : "q ends the notes · also live: \(state.otherSessions.joined(separator: ", ")) (tour notes --session NAME)"
        // Where the talk stands against its script, on the footer's right: the speaker's eye goes there between blocks.
        let schedule = state.snapshot.map { scheduleText($0, elapsed: state.elapsedSeconds ?? 0) } ?? ""
        let footerRoom = max(0, width - TextWidth.of(schedule) - (schedule.isEmpty ? 0 : 2))
        buffer.write(TextWidth.truncated(footer, to: footerRoom, ellipsis: glyphs.ellipsis), x: 0, y: size.height - 1, style: CellStyle(foreground: .muted))
        if !schedule.isEmpty {
            buffer.write(schedule, x: width - TextWidth.of(schedule), y: size.height - 1, style: CellStyle(foreground: .accent, bold: true))
        }

        guard let snapshot = state.snapshot else { return buffer }
        // Rows between the rule and the footer: the knobs take what they need (up to 3), the shown and next blocks
        // up to a quarter each, the notes the rest.
        let room = size.height - 3
        let knobLines = snapshot.upcomingKnobChanges.isEmpty ? 0 : min(3, snapshot.upcomingKnobChanges.count) + 1
        let blockRoom = max(2, (room - knobLines) / 4)
        var y = 2
        y = section("SHOWING", lines: wrap(snapshot.current, width: width - 2), limit: blockRoom, at: y, in: &buffer, glyphs: glyphs,
                    style: CellStyle(foreground: .heading, bold: true))
        y = section("NEXT", lines: snapshot.next.map { wrap($0, width: width - 2) } ?? ["(the page's end)"], limit: blockRoom, at: y,
                    in: &buffer, glyphs: glyphs, style: CellStyle(foreground: .muted, bold: true))
        if let poll = snapshot.poll {
            y = section("ROOM POLL \u{00B7} \(poll.summary)", lines: pollLines(poll, glyphs: glyphs), limit: poll.choices.count + 1, at: y,
                        in: &buffer, glyphs: glyphs, style: CellStyle(foreground: .accent, bold: true))
        }
        let noteRoom = max(2, size.height - 1 - knobLines - y)
        let noteLines = snapshot.notes.isEmpty ? ["(no speaker notes for this block)"]
            : snapshot.notes.flatMap { note in wrap(note, width: width - 4).enumerated().map { ($0 == 0 ? "\(glyphs.bullet) " : "  ") + $1 } }
        y = section("SAY", lines: noteLines, limit: noteRoom - 1, at: y, in: &buffer, glyphs: glyphs,
                    style: CellStyle(foreground: .note, bold: true), body: CellStyle(bold: true))
        if knobLines > 0 {
            _ = section("KNOBS NEXT", lines: snapshot.upcomingKnobChanges.map { "\(glyphs.arrow) \($0)" }, limit: knobLines - 1, at: y,
                        in: &buffer, glyphs: glyphs, style: CellStyle(foreground: .experiment, bold: true))
        }
        return buffer
    }

    /// When a script plays: "pause 12 s · 00:45 behind plan", the seconds left of the pause it
    /// waits in, counted down between snapshots, and how far the clock is from where the talk's pauses planned it to
    /// be at the end of this step (waits and runs are the usual difference); empty without a script.
    static func scheduleText(_ snapshot: PresenterSnapshot, elapsed: Double) -> String {
        guard let planned = snapshot.plannedSeconds else { return "" }
        var parts: [String] = []
        let sinceSnapshot = max(0, elapsed - snapshot.elapsedSeconds)
        if let left = snapshot.pauseSecondsLeft {
            parts.append("pause \(max(0, left - Int(sinceSnapshot))) s")
        }
        // At the end of the step now playing the clock will read at least this: now, and what is left of its pause.
        let endOfStep = Int(elapsed) + max(0, (snapshot.pauseSecondsLeft ?? 0) - Int(sinceSnapshot))
        let difference = endOfStep - planned
        parts.append(abs(difference) < 5 ? "on plan" : "\(clockText(Double(abs(difference)))) \(difference > 0 ? "behind" : "ahead of") plan")
        return parts.joined(separator: " · ")
    }

    /// The poll's question, then a line a choice with its count, the right one marked once the run told.
    static func pollLines(_ poll: PollTally, glyphs: Glyphs) -> [String] {
        let countWidth = String(poll.choices.map(\.count).max() ?? 0).count
        return [poll.question] + poll.choices.map { choice in
            let mark = poll.rightChoice == choice.key ? "\(glyphs.expected) " : "  "
            let count = String(choice.count)
            return mark + choice.key + "  " + String(repeating: " ", count: countWidth - count.count) + count + "  " + choice.text
        }
    }

    /// "12:34", or "1:02:03" past an hour.
    static func clockText(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%02d:%02d", minutes, rest)
    }

    /// A heading and up to `limit` lines under it, the last cut with an ellipsis when more did not fit; returns the
    /// row after it.
    private static func section(_ heading: String, lines: [String], limit: Int, at y: Int, in buffer: inout CellBuffer,
                                glyphs: Glyphs, style: CellStyle, body: CellStyle = .plain) -> Int {
        guard y < buffer.size.height - 1 else { return y }
        buffer.write(heading, x: 0, y: y, style: style)
        var row = y + 1
        let shown = Array(lines.prefix(max(1, limit)))
        for (index, line) in shown.enumerated() where row < buffer.size.height - 1 {
            let cut = index == shown.count - 1 && lines.count > shown.count
            buffer.write(cut ? line + " " + glyphs.ellipsis : line, x: 2, y: row, style: body)
            row += 1
        }
        return row
    }

    /// `text` wrapped to `width` columns at spaces, each of its own lines kept apart (the level board's note too).
    static func wrap(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).flatMap { line in
            InlineWrapper.wrap(InlineWrapper.characters(of: [.text(String(line))], base: .plain), width: max(1, width))
                .map { String($0.cells.filter { !$0.isContinuation }.map(\.character)) }
        }
    }
}
