extension TourModel {
    /// A click picks a page, a tab, a link, a deep dive or a span and focuses the pane it lands in; the wheel scrolls the pane under it.
    mutating func handle(_ mouse: MouseEvent) -> [TourEffect] {
        guard overlay == nil else {
            // The click that closes the help does nothing else, as a key would not.
            if overlay == .help, mouse.action == .click { overlay = nil }
            return []
        }
        let layout = self.layout
        guard layout.mode != .tooSmall else { return [] }
        if mouse.action == .click, let sidebar = layout.sidebar, sidebar.contains(x: mouse.x, y: mouse.y) {
            clickSidebar(mouse, sidebar: sidebar, mode: layout.mode)
            return []
        }
        guard let pane = layout.pane(atX: mouse.x, y: mouse.y), let box = layout.panes[pane] else { return [] }
        switch mouse.action {
        case .wheelUp where pane == .live:
            return scrollLiveView(by: -1)
        case .wheelDown where pane == .live:
            return scrollLiveView(by: 1)
        case .wheelUp:
            scroll(pane, pane == .timeline ? .lines(-1) : .lines(-3))
        case .wheelDown:
            scroll(pane, pane == .timeline ? .lines(1) : .lines(3))
        case .click:
            if mouse.y == box.y, layout.mode == .compact, !zoomed, ScreenLayout.bottomTabs.contains(pane),
               let tab = ScreenLayout.tabColumns(in: box).first(where: { $0.columns.contains(mouse.x) }) {
                focus(tab.pane)
                return []
            }
            focus(pane)
            switch pane {
            case .page: clickPage(atX: mouse.x, y: mouse.y, inner: box.inside)
            case .timeline: selectSpan(atX: mouse.x, y: mouse.y)
            case .output, .knobs, .live: break
            }
        }
        return []
    }

    private mutating func clickSidebar(_ mouse: MouseEvent, sidebar: Rect, mode: ScreenLayout.Mode) {
        if mode == .full {
            let rows = sidebarRows
            let row = mouse.y - sidebar.inside.y
            if rows.indices.contains(row), case .page(let index) = rows[row] { go(toPage: index) }
        } else if let index = stripColumns.firstIndex(where: { $0.contains(mouse.x) }) {
            go(toPage: index)
        }
    }

    /// A deep dive's folded row, or its top border when open, opens or closes it; the page's own `@next` and
    /// `@previous` links go where `n` and `p` go.
    private mutating func clickPage(atX x: Int, y: Int, inner: Rect) {
        let rows = pageLayout().rows
        let index = currentPage.pageScroll + y - inner.y
        guard inner.contains(x: x, y: y), rows.indices.contains(index) else { return }
        if rows[index].togglesDeepDive, let line = rows[index].deepDive {
            toggleDeepDive(atLine: line)
            return
        }
        guard let link = rows[index].links.first(where: { $0.columns.contains(x - inner.x) }) else { return }
        switch link.target {
        case "@next": go(toPage: current + 1)
        case "@previous": go(toPage: current - 1)
        default: notice = "That link leads outside the tutorial: \(link.target)"
        }
    }
}
