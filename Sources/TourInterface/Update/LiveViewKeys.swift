extension TourModel {
    /// How many rows PgUp and PgDn drag the list: about one screenful of the pages' lists.
    static let liveViewPageRows = 4

    /// Scroll keys in the focused live view become commands for the running page; nil for keys it leaves to
    /// the rest of the interface.
    mutating func handleLiveView(_ key: Key) -> [TourEffect]? {
        switch key {
        case .down, .character("j"): return scrollLiveView(by: 1)
        case .up, .character("k"): return scrollLiveView(by: -1)
        case .pageDown, .character(" "): return scrollLiveView(by: Self.liveViewPageRows)
        case .pageUp: return scrollLiveView(by: -Self.liveViewPageRows)
        case .enter:
            guard let runID = runIDTakingScrollKeys() else { return [] }
            notice = "You let go of the list: the page finishes the rows in view and ends."
            return [.closeInput(runID: runID)]
        default:
            return nil
        }
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
