import PageProtocol

/// Draws a `LevelBoard`: the level's title; one column per thread with its status and its code, the current line
/// marked; the shared values and who holds each lock; the lanes of the run so far, a row a thread and a mark a step
/// (the kind of gate it passed), with the work done outside the gates on a row of its own; and the note.
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
        let steps = board.state?.steps ?? []
        let ungated = board.state?.ungated ?? []
        let kinds = GateKind.allCases.filter { kind in steps.contains { $0.kind == kind } }
        // Below the columns: a blank, shared values, locks, a lane a thread (and one of ungated work, with its latest in
        // words), the key to the lanes' marks, a blank and the note, wrapped (a deadlock's note carries its wait-for
        // graph), at most half the screen.
        let noteLines = Array(NotesView.wrap(board.note.split(separator: "\n").map { TerminalText.sanitized(String($0)) }.joined(separator: "\n"), width: size.width - 2).prefix(max(size.height / 2 - 3, 1)))
        let laneRows = threads.count + (ungated.isEmpty ? 0 : 2) + (kinds.isEmpty ? 0 : 1)
        let bottom = 2 + laneRows + 2 + noteLines.count
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
        // A cell a step, the latest that fit; every lane shows the same steps, so a column is a moment of the run.
        let laneWidth = max(size.width - 10, 0)
        let first = max(steps.count - laneWidth, 0)
        let shown = steps.dropFirst(first)
        for thread in threads {
            buffer.write(label(thread.name), x: 1, y: row, style: CellStyle(foreground: .running))
            for (offset, step) in shown.enumerated() {
                let cell = step.thread == thread.id ? Cell(mark(step.kind, glyphs: glyphs), CellStyle(foreground: .running, bold: true))
                    : Cell(glyphs.notRun, CellStyle(foreground: .muted))
                buffer.set(cell, x: 9 + offset, y: row)
            }
            row += 1
        }
        if let latest = ungated.last {
            // Work outside the gates, at the step during which it happened: its thread's number, or ? for a thread the
            // level did not start.
            buffer.write(label("ungated"), x: 1, y: row, style: CellStyle(foreground: .warning))
            for work in ungated {
                let column = max(work.afterStep - 1, 0) - first
                guard column >= 0, column < laneWidth else { continue }
                buffer.set(Cell(work.thread.map { Character(String($0 % 10)) } ?? "?", CellStyle(foreground: .warning, bold: true)),
                           x: 9 + column, y: row)
            }
            row += 1
            buffer.write("Ungated: " + latest.sentence(threads: board.description.threads), x: 1, y: row, style: CellStyle(foreground: .warning))
            row += 1
        }
        if !kinds.isEmpty {
            let key = kinds.map { "\(mark($0, glyphs: glyphs)) \($0.rawValue)" }.joined(separator: "  ")
            buffer.write(key, x: 9, y: row, style: CellStyle(foreground: .muted))
            row += 1
        }
        let failed = board.state?.failure != nil
        let noteStyle = CellStyle(foreground: failed ? .success : board.state?.refusal != nil ? .warning : nil, bold: failed)
        for (offset, line) in noteLines.enumerated() where row + 1 + offset < size.height {
            buffer.write(line, x: 1, y: row + 1 + offset, style: noteStyle)
        }
        return buffer
    }

    /// A lane's name, in the width of the lanes' first column.
    private static func label(_ name: String) -> String {
        String(TerminalText.sanitized(name).prefix(7)).padding(toLength: 8, withPad: " ", startingAt: 0)
    }

    /// The mark of a step in its thread's lane: the kind of gate it passed.
    static func mark(_ kind: GateKind?, glyphs: Glyphs) -> Character {
        switch kind {
        case .load?: "l"
        case .store?: "s"
        case .lock?: "["
        case .unlock?: "]"
        case .wait?: "w"
        case .signal?: "+"
        case .sync?: "y"
        case .barrier?: "b"
        case .resume?: "r"
        case .call?: "c"
        case .await?: "a"
        case .back?: "k"
        case .start?: "p"
        case nil: glyphs.levels.last ?? "#"
        }
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
