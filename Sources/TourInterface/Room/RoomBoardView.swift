import Foundation
import PageProtocol
import RoomProtocol
import TourCore

/// Draws a `RoomBoard`: a header (the room, the one join command to read out, the password apart, who is here and who
/// left, the link); **Needs help** above everything; a row a participant with a column a page (passed, failed, reached,
/// and the page they are on marked); the latest happenings when there is room; who left; what the room is stuck on;
/// and the keys. Rows that do not fit scroll, with "+N more" said.
public enum RoomBoardView {
    /// At most this share of the screen goes to "Needs help"; the rest is said as "+N more".
    static let helpShare = 3

    /// Times in the log of what happened are shown in `zone`.
    public static func render(_ board: RoomBoard, size: Size, glyphs: Glyphs, zone: TimeZone = .current) -> CellBuffer {
        var buffer = CellBuffer(size: size)
        guard size.width >= 40, size.height >= 12 else {
            buffer.write("Too small for the room: 40x12 at least", x: 0, y: 0)
            return buffer
        }
        let width = size.width - 2
        var row = 0
        func line(_ text: String, style: CellStyle = .plain) {
            guard row < size.height else { return }
            buffer.write(TextWidth.truncated(TerminalText.sanitized(text), to: width, ellipsis: glyphs.ellipsis), x: 1, y: row, style: style)
            row += 1
        }

        let address = board.address.map { "Room \($0)" } ?? "Room (starting its broker)"
        let counts = "\(board.present) here, \(board.left.count) left" + (board.untrackedMessages > 0
            ? ", \(board.untrackedMessages) message\(board.untrackedMessages == 1 ? "" : "s") from participants beyond \(RoomBoard.participantLimit) ignored" : "")
        line("\(address)  \(glyphs.bullet) \(board.status.words())  \(glyphs.bullet) \(counts)",
             style: CellStyle(foreground: board.status == .connected ? .heading : .warning, bold: true))
        if let join = board.joinCommand {
            // The password on the same line when it fits, else on its own: never cut.
            let password = board.password.map { "password: \($0)" }
            if let password, TextWidth.of("Join: \(join)   \(password)") > width {
                line("Join: \(join)", style: CellStyle(foreground: .accent))
                line(password, style: CellStyle(foreground: .accent))
            } else {
                line("Join: \(join)" + (password.map { "   \($0)" } ?? ""), style: CellStyle(foreground: .accent))
            }
        }
        row += 1

        // Needs help, above everything, at most a third of the screen.
        let needing = board.needingHelp
        line("Needs help" + (needing.isEmpty ? ": nobody" : " (\(needing.count))"), style: CellStyle(foreground: needing.isEmpty ? .success : .failure, bold: true))
        let helpRows = min(needing.count, max(size.height / helpShare - 1, 1))
        let nameWidth = min(max(board.order.compactMap { board.participants[$0].map { TextWidth.of($0.label) } }.max() ?? 4, 4), 20)
        // `text` padded, or cut, to `width` columns, wide characters counted as two.
        func pad(_ text: String, _ width: Int) -> String { TextWidth.padded(text, to: width, ellipsis: glyphs.ellipsis) }
        let listed = needing.prefix(needing.count > helpRows ? helpRows - 1 : helpRows)
        let exerciseWidth = listed.map { TextWidth.of("p\($0.need.challenge.pageNumber) \($0.need.challenge.name)") }.max() ?? 0
        for (participant, need) in listed {
            let challenge = need.challenge
            var text = pad(participant.label, nameWidth) + "  " + pad("p\(challenge.pageNumber) \(challenge.name)", exerciseWidth)
                + "  \(need.why(now: board.now))"
            if challenge.hintsShown > 0 { text += ", \(challenge.hintsShown) hint\(challenge.hintsShown == 1 ? "" : "s")" }
            if let finding = challenge.lastFinding { text += "  last: \(finding)" }
            line("  " + text)
        }
        if needing.count > helpRows { line("  +\(needing.count - helpRows + 1) more need help", style: CellStyle(foreground: .failure)) }
        row += 1

        // The grid: what is left after the header, the left and stuck lines, and the keys.
        let footer = 4
        let pages = board.analysis.pages
        let cell = width >= nameWidth + 2 + 3 * pages.count + 10 ? 3 : 2
        let heading = pad("", nameWidth + 2) + pages.map { pad(String($0.number), cell) }.joined() + " passed"
        line(heading, style: CellStyle(foreground: .muted))
        let rows = board.order.compactMap { board.participants[$0] }
        // Room to spare under the grid (a wide screen, a small room) shows the latest happenings.
        let spare = size.height - row - footer - max(rows.count, 1) - 2
        let recent = spare >= 3 ? Array(board.log.suffix(spare - 1)) : []
        let gridRows = max(size.height - row - footer - (recent.isEmpty ? 0 : recent.count + 2), 1)
        // When they do not all fit, the last row says how many more there are.
        let shown = rows.count > gridRows ? max(gridRows - 1, 1) : gridRows
        let first = min(board.scroll, max(rows.count - shown, 0))
        for participant in rows.dropFirst(first).prefix(shown) {
            var cells = ""
            if let standing = participant.standing {
                for (index, mark) in standing.marks.enumerated() {
                    let pointer = index == standing.current ? String(glyphs.pointer) : " "
                    cells += pad(pointer + String(symbol(mark, glyphs)), cell)
                }
                cells += " \(standing.passed)/\(standing.challenges.count)"
            } else {
                cells = "(no progress heard yet)"
            }
            let gone = participant.presence == .offline ? "  left" : ""
            line(pad(participant.label, nameWidth) + "  " + cells + gone,
                 style: participant.presence == .offline ? CellStyle(foreground: .muted) : .plain)
        }
        if rows.isEmpty {
            line("Nobody has joined yet: read out the join command above.", style: CellStyle(foreground: .muted))
        } else if rows.count > shown {
            let below = rows.count - first - shown
            line("+\(below) more below, \(first) above (j/k or arrows scroll)", style: CellStyle(foreground: .muted))
        }

        if !recent.isEmpty {
            row += 1
            line("Latest", style: CellStyle(foreground: .muted, bold: true))
            for happening in recent { line("  " + happening.line(in: zone), style: CellStyle(foreground: .muted)) }
        }

        row = size.height - footer + 1
        let left = board.left.map(\.label)
        line("Left: " + (left.isEmpty ? "nobody" : left.joined(separator: ", ")), style: CellStyle(foreground: .muted))
        let stuck = board.stuck
        line("Stuck on: " + (stuck.isEmpty ? "nothing" : stuck.map { "\($0.name) \($0.notPassed.count) of \($0.reached)" }
            .joined(separator: "  \(glyphs.bullet) ")), style: CellStyle(foreground: stuck.isEmpty ? .muted : .warning))
        let legend = "\(glyphs.expected) passed  \(symbol(.failed, glyphs)) failed  \(symbol(.reached, glyphs)) reached  \(glyphs.pointer) on it"
        line("q quits  j/k scroll  \(glyphs.bullet) \(legend)", style: CellStyle(foreground: .muted))
        return buffer
    }

    /// A page's mark in the grid.
    static func symbol(_ mark: PageMark, _ glyphs: Glyphs) -> Character {
        switch mark {
        case .notReached: glyphs.notRun
        case .reached: glyphs.exercisesOpen
        case .failed: glyphs.crashed
        case .passed: glyphs.expected
        }
    }
}
