/// The live view pane: the page's newest frame or its list of pictures, scaled to the pane, and what keys it takes.
enum LiveViewPane {
    static func draw(_ model: TourModel, in inner: Rect, box: Rect, into buffer: inout CellBuffer) {
        let page = model.currentPage
        // On stage the room is taught no key: the pane says nothing of them, and has no footer.
        let onStage = model.presenter != nil
        guard let live = page.record?.liveView, live.isActive else {
            let text = page.isRunning || onStage ? "Waiting for the page's first picture\(model.glyphs.ellipsis)"
                                                 : "What this page draws appears here while it runs: r runs it."
            buffer.writeWrapped(text, in: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height),
                                style: CellStyle(foreground: .muted))
            return
        }
        let fullSizeRow = live.rows.isEmpty ? nil : page.liveFullSizeRow
        let picture = LivePaneRenderer.render(live, width: inner.width, height: inner.height, depth: model.pictureDepth,
                                              fullSizeRow: fullSizeRow)
        for y in 0..<picture.height {
            for x in 0..<picture.width { buffer.set(picture[x, y], x: inner.x + x, y: inner.y + y, clip: inner) }
        }
        let footer: String?
        if fullSizeRow != nil {
            footer = model.focus == .live ? " \(model.glyphs.upDown) row · f back " : " Tab here, f back to the list "
        } else if page.takesScrollKeys {
            let keys = " \(model.glyphs.upDown) · Enter lets go · f full size "
            // A narrow pane drops the arrows, which the status line and the help still name.
            let fitting = TextWidth.of(keys) <= box.width - 4 ? keys : " f full size · Enter lets go "
            footer = model.focus == .live ? fitting : " Tab here to scroll "
        } else if !live.rows.isEmpty {
            footer = model.focus == .live ? " f full size " : nil
        } else if live.rejectedPictures > 0 {
            footer = " \(live.rejectedPictures) bad picture\(live.rejectedPictures == 1 ? "" : "s") skipped "
        } else {
            footer = nil
        }
        if let footer, !onStage { buffer.writeInBottomBorder(footer, of: box, color: .accent) }
    }
}
