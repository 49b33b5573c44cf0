import TourCore

/// Draws the model into a cell buffer of the model's size: the layout, each pane, the status line and any overlay.
public enum TourRenderer {
    public static func render(_ model: TourModel) -> CellBuffer {
        var buffer = CellBuffer(size: model.size)
        let layout = model.layout
        guard layout.mode != .tooSmall else {
            Overlays.drawTooSmall(size: model.size, glyphs: model.glyphs, askingToQuit: model.overlay == .confirmQuit, into: &buffer)
            return buffer
        }
        if model.presenter != nil {
            PresenterView.draw(model, into: &buffer)
            drawOverlay(model, into: &buffer)
            return buffer
        }
        if let sidebar = layout.sidebar {
            if layout.mode == .full {
                SidebarView.drawList(model, in: sidebar, into: &buffer)
            } else {
                SidebarView.drawStrip(model, in: sidebar, into: &buffer)
            }
        }
        for (pane, box) in layout.panes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            draw(pane, in: box, model: model, layout: layout, into: &buffer)
        }
        StatusLine.draw(model, in: layout.status, into: &buffer)
        drawOverlay(model, into: &buffer)
        return buffer
    }

    private static func drawOverlay(_ model: TourModel, into buffer: inout CellBuffer) {
        switch model.overlay {
        case .help: Overlays.drawHelp(model, into: &buffer)
        case .confirmQuit: Overlays.drawConfirmQuit(model, into: &buffer)
        case .confirmReset(let index): DiagnosticsView.drawConfirmReset(model, page: index, into: &buffer)
        case .predict(let index): Overlays.drawPrediction(model, page: index, into: &buffer)
        case .solution(let index): Overlays.drawSolution(model, page: index, into: &buffer)
        case .roomPoll: Overlays.drawRoomPoll(model, into: &buffer)
        case .roomRefused(let problem): Overlays.drawRoomRefused(problem, model: model, into: &buffer)
        case nil: break
        }
    }

    private static func draw(_ pane: Pane, in box: Rect, model: TourModel, layout: ScreenLayout, into buffer: inout CellBuffer) {
        let focused = model.focus == pane
        let glyphs = model.glyphs
        let isCompactBottom = layout.mode == .compact && ScreenLayout.bottomTabs.contains(pane) && !model.zoomed
        buffer.drawBox(box, title: isCompactBottom ? "" : title(of: pane, model: model), focused: focused, glyphs: glyphs)
        if isCompactBottom {
            for tab in ScreenLayout.tabColumns(in: box) {
                buffer.drawTitle(tab.pane.title, x: tab.columns.lowerBound, y: box.y, focused: tab.pane == pane,
                                 limit: box.maxX - 2, glyphs: glyphs)
            }
        }
        let inner = box.inside
        switch pane {
        case .page:
            let pageLayout = PageLayout.cached(for: model.currentPage, width: inner.width, glyphs: glyphs, speakerNotes: model.showsSpeakerNotes, in: model.renderCaches.pageLayouts)
            PageView.draw(model, layout: pageLayout, in: inner, into: &buffer)
            drawPosition(scroll: model.currentPage.pageScroll, total: pageLayout.rows.count, visible: inner.height, box: box, into: &buffer)
        case .output:
            OutputView.draw(model, in: inner, into: &buffer)
            if model.currentPage.outputScrollBack > 0 {
                buffer.writeInBottomBorder(" \(model.currentPage.outputScrollBack) newer below, G follows ", of: box, color: .accent)
            }
        case .timeline:
            TimelineView.draw(model, in: inner, focused: focused, into: &buffer)
            drawHiddenLanes(model, inner: inner, box: box, into: &buffer)
        case .knobs:
            KnobsView.draw(model, in: inner, focused: focused, into: &buffer)
        case .live:
            LiveViewPane.draw(model, in: inner, box: box, into: &buffer)
        }
    }

    private static func title(of pane: Pane, model: TourModel) -> String {
        switch pane {
        case .page: "\(model.currentPage.page.number) \(model.currentPage.page.title)" + levelTitle(model.currentPage)
        case .timeline:
            "Timeline" + (model.currentPage.shownRecord.map { timelineTitle($0, state: model.currentPage.timeline) } ?? "")
                + checkRunTitle(model)
        case .output: "Output" + checkRunTitle(model)
        default: pane.title
        }
    }

    /// " (B plays level lost-update)": the page has a level to play.
    private static func levelTitle(_ page: PageState) -> String {
        guard !page.levels.isEmpty else { return "" }
        let next = page.levels[page.nextLevel % page.levels.count]
        return " (B plays level \(next)" + (page.levels.count > 1 ? ", then the next of \(page.levels.count)" : "") + ")"
    }

    /// " (your check's run)" while the output and timeline show the exercise's last check instead of the page's run.
    private static func checkRunTitle(_ model: TourModel) -> String {
        model.currentPage.showsCheckRun ? " (your check's run)" : ""
    }

    /// " 9 threads", " 4 queues", " operations": what the timeline's view shows, and whether it follows the live edge.
    private static func timelineTitle(_ record: RunRecord, state: TimelineState) -> String {
        guard !record.threads.isEmpty else { return "" }
        let following = state.followsLiveEdge && state.secondsPerColumn != nil ? ", following" : ""
        switch state.view {
        case .threads: return " \(record.threads.count) threads" + following
        case .queues: return " \(record.queues.count) queue\(record.queues.count == 1 ? "" : "s")" + following
        case .operations, .tasks, .phases: return " " + state.view.rawValue
        }
    }

    /// " 2 more lanes, j/k " in the bottom border, when not every lane has its rows; on stage " +2 lanes ", no key.
    static func drawHiddenLanes(_ model: TourModel, inner: Rect, box: Rect, into buffer: inout CellBuffer) {
        guard let record = model.currentPage.shownRecord, model.currentPage.timeline.view == .threads || model.currentPage.timeline.view == .queues
        else { return }
        let lanes = model.timelineLanes(record)
        let geometry = TimelineGeometry(inner: inner, state: model.currentPage.timeline, record: record, lanes: lanes, now: model.now,
                                        glyphs: model.glyphs)
        let hidden = lanes.lanes.count - geometry.visibleLanes
        guard hidden > 0 else { return }
        guard model.presenter == nil else {
            buffer.writeInBottomBorder(" +\(hidden) lane\(hidden == 1 ? "" : "s") ", of: box, color: .accent)
            return
        }
        let above = geometry.firstLane > 0 ? "\(geometry.firstLane) above, " : ""
        buffer.writeInBottomBorder(" \(above)\(hidden) more lane\(hidden == 1 ? "" : "s"), j/k ", of: box, color: .accent)
    }

    /// "40%" in the bottom border, when there is more page than fits.
    private static func drawPosition(scroll: Int, total: Int, visible: Int, box: Rect, into buffer: inout CellBuffer) {
        guard total > visible else { return }
        let percent = min(100, (scroll + visible) * 100 / total)
        buffer.writeInBottomBorder(" \(percent)% ", of: box, color: .muted)
    }
}
