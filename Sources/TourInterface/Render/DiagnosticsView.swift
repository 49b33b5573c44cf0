import TourCore
import PageProtocol

/// How the edit loop shows on screen: compiler messages under their lines in the page pane, the build and its
/// messages in the output pane, the build's state in the status line, and the question before a reset.
enum DiagnosticsView {
    static func color(of severity: Diagnostic.Severity) -> PaletteColor {
        switch severity {
        case .error: .failure
        case .warning: .warning
        case .note: .note
        }
    }

    /// "✘ does not compile: 2 errors", "↻ building Lesson01Operation… 0.4 s": the status line's state while the build decides it.
    static func stateText(of page: PageState, glyphs: Glyphs, now: UInt64) -> String? {
        let glyph = page.status.glyph(glyphs)
        switch page.build.phase {
        case .idle:
            return nil
        case .building(_, let since):
            let elapsed = since.map { " " + Formatting.elapsed(Double(now > $0 ? now - $0 : 0) / 1e9) } ?? ""
            return "\(glyph) building \(page.page.product)\(glyphs.ellipsis)\(elapsed)"
        case .failed(.doesNotCompile):
            let errors = page.build.diagnostics.filter { $0.severity == .error }.count
            return "\(glyph) does not compile" + (errors > 0 ? ": \(count(errors, "error"))" : "")
        case .failed(.timedOut(let seconds)):
            return "\(glyph) build stopped after \(Int(seconds.rounded())) s"
        case .failed(.couldNotStart):
            return "\(glyph) build could not start"
        case .failed(.sourceUnavailable(let missing, _)):
            return "\(glyph) source " + (missing.isEmpty ? "unreadable" : "missing")
        }
    }

    /// The keys that matter while a build decides the page's state, most useful first.
    static func hints(for page: PageState) -> [String]? {
        switch page.build.phase {
        case .idle: nil
        case .building: ["s cancel build"]
        case .failed(.doesNotCompile): ["d/D messages", "e edit", "x reset"]
        case .failed(.sourceUnavailable): ["x reset"]
        case .failed: ["r build", "e edit", "x reset"]
        }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    static func drawConfirmReset(_ model: TourModel, page index: Int, into buffer: inout CellBuffer) {
        let number = model.pages[index].page.number
        let lines = ["Restore page \(number) to its original text?", "Your version is kept: u undoes it.", "y yes   n no"]
        let box = Overlays.centered(width: 48, height: lines.count + 4, in: buffer.size)
        buffer.fill(box)
        buffer.drawBox(box, title: "Reset", focused: true, glyphs: model.glyphs)
        for (index, line) in lines.enumerated() {
            buffer.write(line, x: box.x + 3, y: box.y + 2 + index, style: CellStyle(bold: index != 1), clip: box.inside)
        }
    }
}

extension PageLayout {
    /// The layout with each message that points into the page's `main.swift` on rows under its code line,
    /// wrapped to the code column and coloured by severity; the selected one is marked. Messages on lines the page
    /// shows as prose (an unclosed comment, say) come first, with their line number.
    func annotated(with diagnostics: [Diagnostic], selected: Diagnostic?, glyphs: Glyphs) -> PageLayout {
        guard !diagnostics.isEmpty else { return self }
        let byLine = Dictionary(grouping: diagnostics, by: \.line)
        let codeLines = Set(rows.compactMap(\.sourceLine))
        var annotated = self
        annotated.rows = diagnostics.filter { !codeLines.contains($0.line) }
            .flatMap { messageRows($0, isSelected: $0 == selected, glyphs: glyphs, showingLine: true) }
        var pending: [Diagnostic] = []
        for row in rows {
            // A code line's messages go after its last continuation row.
            if !pending.isEmpty, row.sourceLine != nil || !row.isCode {
                annotated.rows += pending.flatMap { messageRows($0, isSelected: $0 == selected, glyphs: glyphs) }
                pending = []
            }
            annotated.rows.append(row)
            if let line = row.sourceLine { pending = byLine[line] ?? [] }
        }
        annotated.rows += pending.flatMap { messageRows($0, isSelected: $0 == selected, glyphs: glyphs) }
        return annotated
    }

    private func messageRows(_ diagnostic: Diagnostic, isSelected: Bool, glyphs: Glyphs, showingLine: Bool = false) -> [PageRow] {
        let style = CellStyle(foreground: DiagnosticsView.color(of: diagnostic.severity), bold: isSelected || diagnostic.severity == .error)
        let marker = isSelected ? glyphs.pointer : glyphs.bottomLeft
        let place = showingLine ? "line \(diagnostic.line): " : ""
        let text = Array("\(marker) \(place)\(diagnostic.severity.rawValue): \(TerminalText.sanitized(diagnostic.message))")
        let indent = showingLine ? 0 : gutterWidth + max(0, min(diagnostic.column - 1, codeWidth / 2))
        let room = max(8, width - indent)
        var rows: [PageRow] = []
        var start = 0
        repeat {
            let end = Self.breakPoint(in: text, from: start, width: room - (rows.isEmpty ? 0 : 2))
            let lead = Array(repeating: Cell.blank, count: indent + (rows.isEmpty ? 0 : 2))
            rows.append(PageRow(cells: lead + text[start..<end].map { Cell($0, style) }))
            start = end
        } while start < text.count
        return rows
    }
}

/// The output pane while the build decides the page's state: everything the build printed, then, at the bottom
/// where the pane opens, what is being built or the messages with the selected one marked.
enum BuildOutputEntries {
    static func entries(for page: PageState, glyphs: Glyphs) -> [OutputEntry]? {
        let build = page.build
        let product = page.page.product
        let muted = CellStyle(foreground: .muted)
        var entries: [OutputEntry] = []
        if !build.output.isEmpty {
            entries.append(OutputEntry(prefix: [], text: "Build output:", style: CellStyle(foreground: .heading, bold: true)))
            entries += build.output.map { OutputEntry(prefix: [.blank, .blank], text: TerminalText.sanitized($0), style: muted) }
            entries.append(OutputEntry(prefix: [], text: "", style: .plain))
        }
        switch build.phase {
        case .idle:
            return nil
        case .building:
            entries += [OutputEntry(prefix: [], text: "\(glyphs.building) Building \(product)\(glyphs.ellipsis) (s cancels)",
                                   style: CellStyle(foreground: .running, bold: true))]
        case .failed(.doesNotCompile):
            let errors = build.diagnostics.filter { $0.severity == .error }.count
            let warnings = build.diagnostics.filter { $0.severity == .warning }.count
            var summary = "\(glyphs.doesNotCompile) Page \(page.page.number) does not compile"
            if errors > 0 { summary += ": \(DiagnosticsView.count(errors, "error"))" }
            if warnings > 0 { summary += ", \(DiagnosticsView.count(warnings, "warning"))" }
            entries += [OutputEntry(prefix: [], text: summary + ". The last good program is not run.", style: CellStyle(foreground: .failure, bold: true)),
                       OutputEntry(prefix: [], text: "d/D step through the messages, e edits at the selected one, x restores the original.", style: muted)]
            for (index, diagnostic) in build.diagnostics.enumerated() {
                entries.append(entry(for: diagnostic, isSelected: index == build.selectedDiagnostic, indent: 0, glyphs: glyphs))
                entries += diagnostic.notes.map { entry(for: $0, isSelected: false, indent: 4, glyphs: glyphs) }
            }
        case .failed(.timedOut(let seconds)):
            entries += [OutputEntry(prefix: [], text: "The build of \(product) took longer than \(Int(seconds.rounded())) s and was stopped. r tries again.",
                                   style: CellStyle(foreground: .warning, bold: true))]
        case .failed(.couldNotStart(let reason)):
            entries += [OutputEntry(prefix: [], text: "Could not start the build of \(product): \(reason)", style: CellStyle(foreground: .warning, bold: true))]
        case .failed(.sourceUnavailable(let missing, let unreadable)):
            var problems: [String] = []
            if !missing.isEmpty { problems.append("\(missing.joined(separator: ", ")) deleted") }
            if !unreadable.isEmpty { problems.append("\(unreadable.joined(separator: ", ")) cannot be read") }
            entries += [OutputEntry(prefix: [], text: "The page's source is not there to build: \(problems.joined(separator: "; ")).",
                                   style: CellStyle(foreground: .warning, bold: true)),
                       OutputEntry(prefix: [], text: "Put it back, or press x to restore the original; the page rebuilds when it returns.", style: .plain)]
        }
        return entries
    }

    /// `main.swift:12:5: error: message`, the selected one marked and bold.
    private static func entry(for diagnostic: Diagnostic, isSelected: Bool, indent: Int, glyphs: Glyphs) -> OutputEntry {
        let marker = Cell(isSelected ? glyphs.pointer : " ", CellStyle(foreground: .accent, bold: true))
        let prefix = Array(repeating: Cell.blank, count: indent) + [marker, .blank]
        return OutputEntry(prefix: prefix, text: TerminalText.sanitized(diagnostic.shortDescription),
                           style: CellStyle(foreground: DiagnosticsView.color(of: diagnostic.severity), bold: isSelected))
    }
}
