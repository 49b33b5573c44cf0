import TourCore

extension TimelineView {
    /// Draws the warning `W` selected into the info row, "warning 1 of 2: …", and says whether there was one to draw.
    static func drawSelectedWarning(_ model: TourModel, record: RunRecord, row: Rect, into buffer: inout CellBuffer) -> Bool {
        guard let selected = model.currentPage.timeline.selectedWarning else { return false }
        let warnings = model.renderCaches.warnings.warnings(of: record, cores: model.cores)
        guard warnings.indices.contains(selected) else { return false }
        let warning = warnings[selected]
        let text = "\(model.glyphs.failed) warning \(selected + 1) of \(warnings.count), \(record.laneName(of: warning.thread)) at "
            + "\(record.timeText(at: warning.time)): \(warning.text)"
        buffer.write(TextWidth.truncated(text, to: row.width, ellipsis: model.glyphs.ellipsis), x: row.x, y: row.y,
                     style: CellStyle(foreground: warning.expected == nil ? .warning : .muted, bold: warning.expected == nil), clip: row)
        return true
    }

    /// With nothing selected: the run's warnings in one line, "! 2 warnings (W shows each): …" (on stage without the
    /// key); nil when it has none.
    static func warningsLine(_ model: TourModel, record: RunRecord) -> (text: String, unexpected: Bool)? {
        let warnings = model.renderCaches.warnings.warnings(of: record, cores: model.cores)
        guard let first = warnings.first(where: { $0.expected == nil }) ?? warnings.first else { return nil }
        let count = warnings.count == 1 ? "1 warning" : "\(warnings.count) warnings"
        let expected = warnings.allSatisfy { $0.expected != nil } ? ", expected" : ""
        let key = model.presenter == nil ? " (W shows each)" : ""
        return ("\(model.glyphs.failed) \(count)\(expected)\(key): \(first.sentence)", expected.isEmpty)
    }
}
