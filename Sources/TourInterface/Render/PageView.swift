import TourCore
import PageProtocol

/// The page pane: the laid-out page from its scroll position, with each code line's latest result beside it.
enum PageView {
    static func draw(_ model: TourModel, layout: PageLayout, in inner: Rect, into buffer: inout CellBuffer) {
        drawRows(layout.rows.dropFirst(model.currentPage.pageScroll), of: layout, record: model.currentPage.record,
                 in: inner, glyphs: model.glyphs, into: &buffer)
    }

    /// `rows` of `layout` from the top of `inner`, as many as fit, with the results of `record` beside their code lines.
    static func drawRows(_ rows: ArraySlice<PageRow>, of layout: PageLayout, record: RunRecord?, in inner: Rect, glyphs: Glyphs,
                         into buffer: inout CellBuffer) {
        let results = latestResults(of: record)
        let separator = Cell(glyphs.vertical, CellStyle(foreground: .muted))
        for (offset, row) in rows.prefix(inner.height).enumerated() {
            let y = inner.y + offset
            buffer.write(row.cells, x: inner.x, y: y, clip: inner)
            guard row.isCode, layout.resultsWidth > 0 else { continue }
            buffer.set(separator, x: inner.x + layout.resultsColumn - 1, y: y)
            if let line = row.sourceLine, let result = results[line] {
                buffer.write(text(of: result, width: layout.resultsWidth - 1, glyphs: glyphs),
                             x: inner.x + layout.resultsColumn + 1, y: y, style: CellStyle(foreground: .result, bold: true), clip: inner)
            }
        }
    }

    /// Results by source line of the page's own file.
    static func latestResults(of record: RunRecord?) -> [Int: LineResult] {
        var results: [Int: LineResult] = [:]
        for result in record?.results ?? [] where result.file == "main.swift" {
            results[result.line] = result
        }
        return results
    }

    /// "42 ×3": the latest value, and how many times the line reported when it did more than once.
    static func text(of result: LineResult, width: Int, glyphs: Glyphs) -> String {
        let count = result.count > 1 ? " \(glyphs.times)\(result.count)" : ""
        let room = max(1, width - count.count)
        return TextWidth.truncated(TerminalText.sanitized(result.text), to: room, ellipsis: glyphs.ellipsis) + count
    }
}
