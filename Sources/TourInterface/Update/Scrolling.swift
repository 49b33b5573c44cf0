/// How far a scroll key moves.
enum ScrollAmount {
    case lines(Int)
    /// Screenfuls of the pane.
    case pages(Int)
    case top
    case bottom
}

extension TourModel {
    /// Where the panes go at the current size.
    public var layout: ScreenLayout {
        ScreenLayout(size: size, sidebarRows: sidebarRows.count, focus: focus, compactTab: compactTab, zoomed: zoomed,
                     liveView: currentPage.drawsLiveView)
    }

    /// The rows of the sidebar's list: the pages, under their parts' titles.
    var sidebarRows: [SidebarRow] {
        SidebarRow.rows(for: pages.map(\.page))
    }

    /// The columns of each page's entry in the compact layout's strip, with the parts divided.
    var stripColumns: [Range<Int>] {
        let pageList = pages.map(\.page)
        return ScreenLayout.stripColumns(pageNumbers: pageList.map(\.number), partStarts: SidebarRow.partStarts(for: pageList))
    }

    /// The box `pane` has on screen, or would have if it were shown (so scrolling a hidden pane stays in bounds).
    func box(of pane: Pane) -> Rect {
        if let box = layout.panes[pane] { return box }
        let shown = ScreenLayout(size: size, sidebarRows: sidebarRows.count, focus: pane, compactTab: pane, zoomed: false,
                                 liveView: currentPage.drawsLiveView)
        return shown.panes[pane] ?? Rect(x: 0, y: 0, width: size.width, height: size.height - 1)
    }

    /// The current page laid out for the width of its pane.
    func pageLayout() -> PageLayout {
        PageLayout.cached(for: currentPage, width: box(of: .page).inside.width, glyphs: glyphs, speakerNotes: showsSpeakerNotes, in: renderCaches.pageLayouts)
    }

    mutating func scroll(_ amount: ScrollAmount) {
        scroll(focus, amount)
    }

    mutating func scroll(_ pane: Pane, _ amount: ScrollAmount) {
        let visibleRows = max(1, box(of: pane).inside.height)
        switch pane {
        case .page:
            let last = max(0, pageLayout().rows.count - visibleRows)
            currentPage.pageScroll = Self.moved(currentPage.pageScroll, amount, page: visibleRows, last: last)
        case .output:
            // Scrolled back from the newest line, so "down" (towards newer lines) lowers it.
            let last = max(0, OutputEntries(page: currentPage, glyphs: glyphs).count - 1)
            let back = Self.moved(last - currentPage.outputScrollBack, amount, page: visibleRows, last: last)
            currentPage.outputScrollBack = last - back
        case .timeline:
            moveLaneSelection(amount)
        case .knobs:
            let last = max(0, currentPage.knobs.count - 1)
            currentPage.selectedKnob = Self.moved(currentPage.selectedKnob, amount, page: visibleRows / 2, last: last)
        case .live:
            // The list scrolls in the page, which scrolls only while it runs and takes commands.
            break
        }
    }

    /// `position` moved by `amount` within 0...`last`.
    static func moved(_ position: Int, _ amount: ScrollAmount, page: Int, last: Int) -> Int {
        let target: Int
        switch amount {
        case .lines(let count): target = position + count
        case .pages(let count): target = position + count * max(1, page - 1)
        case .top: target = 0
        case .bottom: target = last
        }
        return min(last, max(0, target))
    }

    /// Keeps the current page's positions valid after the size or the page changed.
    mutating func clampScrolling() {
        guard layout.mode != .tooSmall else { return }
        scroll(.page, .lines(0))
        scroll(.output, .lines(0))
    }
}
