extension TourModel {
    /// How many rows PgUp and PgDn drag the list: about one screenful of the pages' lists.
    static let liveViewPageRows = 4

    /// Scroll keys in the focused live view become commands for the running page, and `f` opens a row of its list
    /// at the pane's full size (↑ ↓ then pick the row, `f` or Esc goes back); nil for keys it leaves to the rest of
    /// the interface.
    mutating func handleLiveView(_ key: Key) -> [TourEffect]? {
        let row = currentPage.liveFullSizeRow
        switch TutorialAction.keyMap.action(for: key, in: .liveView) {
        case .fullSize:
            toggleFullSize()
            return []
        case .liveLineDown:
            guard let row else { return scrollLiveView(by: 1) }
            selectFullSizeRow(row + 1)
            return []
        case .liveLineUp:
            guard let row else { return scrollLiveView(by: -1) }
            selectFullSizeRow(row - 1)
            return []
        case .leaveFullSize:
            // Without a row at full size, Esc is the rest of the interface's.
            guard row != nil else { return nil }
            pages[current].liveFullSizeRow = nil
            return []
        case .livePageDown: return scrollLiveView(by: Self.liveViewPageRows)
        case .livePageUp: return scrollLiveView(by: -Self.liveViewPageRows)
        case .letGo:
            guard let runID = runIDTakingScrollKeys() else { return [] }
            notice = "You let go of the list: the page finishes the rows in view and ends."
            return [.closeInput(runID: runID)]
        default:
            return nil
        }
    }

    /// Opens the first row of the list at full size, or goes back to the list; says why not on a page without a list.
    private mutating func toggleFullSize() {
        if currentPage.liveFullSizeRow != nil {
            pages[current].liveFullSizeRow = nil
        } else if currentPage.record?.liveView.rows.isEmpty == false {
            pages[current].liveFullSizeRow = 0
        } else {
            notice = currentPage.record?.liveView.hasFrame == true
                ? "This page's picture already fills the live view; z zooms the pane."
                : "No list to look at yet: r runs the page, then f shows a row at full size."
        }
    }

    /// Moves the full-size view to `row` of the list, staying within the rows the list has now.
    private mutating func selectFullSizeRow(_ row: Int) {
        let count = currentPage.record?.liveView.rows.count ?? 0
        pages[current].liveFullSizeRow = min(max(row, 0), max(count - 1, 0))
    }

    /// `scroll +N` or `scroll -N` for the running page: the first one takes over from the page's script.
    mutating func scrollLiveView(by rows: Int) -> [TourEffect] {
        guard let runID = runIDTakingScrollKeys() else { return [] }
        return [.send(runID: runID, command: "scroll \(rows > 0 ? "+" : "")\(rows)")]
    }

    /// The run of the current page when it takes scroll keys; otherwise nil, with a notice saying why not.
    private mutating func runIDTakingScrollKeys() -> Int? {
        if currentPage.takesScrollKeys, let runID = currentPage.runID { return runID }
        notice = currentPage.isRunning
            ? "This page's live view does not take keys; Tab moves to another pane."
            : "Nothing runs to scroll: r runs the page, then \(glyphs.upDown) PgUp PgDn scroll its list and Enter lets go."
        return nil
    }
}
