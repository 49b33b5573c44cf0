import PageProtocol

/// Draws a `LevelBoard`: the level's title; one column per thread with its status and its code, the current line
/// marked; the shared values and who holds each lock; the lanes of the run so far, a row a thread and a mark a step;
/// and the note.
public enum LevelBoardView {
    public static func render(_ board: LevelBoard, size: Size, glyphs: Glyphs) -> CellBuffer {
        var buffer = CellBuffer(size: size)
        guard size.width > 10, size.height > 8 else {
            buffer.write("Too small for the level", x: 0, y: 0)
            return buffer
        }
        let title = "Level \(board.description.name): \(board.description.title)" + (board.fixed ? " (its fix)" : "")
        buffer.write(TerminalText.sanitized(title), x: 1, y: 0, style: CellStyle(foreground: .heading, bold: true))
        buffer.write(TerminalText.sanitized(board.description.goal), x: 1, y: 1, style: CellStyle(foreground: .muted))
        let threads = board.state?.threads ?? []
        let lanes = threads.count
        // Below the columns: a blank, shared values, locks, a lane a thread, a blank and the note, wrapped (a deadlock's
        // note carries its wait-for graph), at most half the screen.
        let noteLines = Array(NotesView.wrap(board.note.split(separator: "\n").map { TerminalText.sanitized(String($0)) }.joined(separator: "\n"), width: size.width - 2).prefix(max(size.height / 2 - 3, 1)))
        let bottom = 2 + lanes + 2 + noteLines.count
        let columnsHeight = max(size.height - 3 - bottom, 3)
        let width = size.width / max(threads.count, 1)
        for (index, thread) in threads.enumerated() {
            column(thread, in: Rect(x: index * width, y: 3, width: width - 1, height: columnsHeight), source: board.source, glyphs: glyphs,
                   into: &buffer)
        }
        var row = 3 + columnsHeight + 1
        let shared = (board.state?.shared ?? []).map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
        buffer.write(TerminalText.sanitized("Shared: " + (shared.isEmpty ? "none" : shared)), x: 1, y: row)
        row += 1
        let held = threads.flatMap { thread in thread.holds.map { "\($0) held by \(thread.name)" } }
        buffer.write(TerminalText.sanitized("Locks: " + (held.isEmpty ? "none held" : held.joined(separator: ", "))), x: 1, y: row)
        row += 1
        let steps = board.state?.steps ?? []
        for thread in threads {
            let label = TerminalText.sanitized(thread.name).padding(toLength: 8, withPad: " ", startingAt: 0)
            let lane = String(steps.map { $0.thread == thread.id ? glyphs.levels.last ?? "#" : glyphs.notRun })
            buffer.write(label + String(lane.suffix(max(size.width - 11, 0))), x: 1, y: row, style: CellStyle(foreground: .running))
            row += 1
        }
        let failed = board.state?.failure != nil
        let noteStyle = CellStyle(foreground: failed ? .success : board.state?.refusal != nil ? .warning : nil, bold: failed)
        for (offset, line) in noteLines.enumerated() where row + 1 + offset < size.height {
            buffer.write(line, x: 1, y: row + 1 + offset, style: noteStyle)
        }
        return buffer
    }

    /// One thread's column: its number, name and status, then the code around its line with that line marked.
    private static func column(_ thread: LevelThreadState, in rect: Rect, source: [String], glyphs: Glyphs, into buffer: inout CellBuffer) {
        var heading = "\(thread.id) \(thread.name): \(thread.status.rawValue)"
        if let waits = thread.blockedOn { heading += " on \(waits)" }
        let color: PaletteColor = switch thread.status {
        case .enabled: .success
        case .blocked: .warning
        case .finished: .muted
        }
        buffer.write(TerminalText.sanitized(heading), x: rect.x + 1, y: rect.y, style: CellStyle(foreground: color, bold: true), clip: rect)
        if let next = thread.next {
            buffer.write(TerminalText.sanitized("next: \(next)"), x: rect.x + 1, y: rect.y + 1, clip: rect)
        }
        let codeRows = rect.height - 2
        guard codeRows > 0, !source.isEmpty else { return }
        let current = (thread.line ?? 1) - 1
        let first = max(0, min(current - codeRows / 2, source.count - codeRows))
        for offset in 0..<min(codeRows, source.count - first) {
            let index = first + offset
            let marked = thread.line != nil && index == current
            let text = (marked ? String(glyphs.pointer) : " ") + String(index + 1).padding(toLength: 4, withPad: " ", startingAt: 0) + source[index]
            buffer.write(TerminalText.sanitized(text), x: rect.x, y: rect.y + 2 + offset,
                         style: marked ? CellStyle(reverse: true) : CellStyle(foreground: .muted), clip: rect)
        }
    }
}
