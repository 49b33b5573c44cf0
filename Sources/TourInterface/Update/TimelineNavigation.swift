import Foundation
import TourCore

extension TourModel {
    /// The lanes of the timeline's current view for `record`.
    func timelineLanes(_ record: RunRecord) -> TimelineLanes {
        TimelineLanes(record, view: currentPage.timeline.view, queueRows: renderCaches.queueRows, now: now, workFirst: presenter != nil)
    }

    /// The timeline's geometry for the current page at the current size, if it has run.
    func timelineGeometry() -> TimelineGeometry? {
        guard let record = currentPage.shownRecord else { return nil }
        return TimelineGeometry(inner: box(of: .timeline).inside, state: currentPage.timeline, record: record, lanes: timelineLanes(record),
                                now: now, glyphs: glyphs)
    }

    /// The keys that mean something else while the timeline has the focus (the key map's timeline bindings); nil for
    /// any other key, which the rest of the interface handles (j and k, bound there too for the help, scroll the lanes). While a search is
    /// being typed, every key belongs to it.
    mutating func handleTimeline(_ key: Key) -> [TourEffect]? {
        if TutorialAction.keyMap.action(for: key) != .nextWarning { currentPage.timeline.selectedWarning = nil }
        if currentPage.timeline.searchQuery != nil {
            handleSearch(key)
            return []
        }
        switch TutorialAction.keyMap.action(for: key, in: .timeline) {
        case .previousItem: selectItem(by: -1)
        case .nextItem: selectItem(by: 1)
        case .zoomIn: zoom(by: 0.5)
        case .zoomOut: zoom(by: 2)
        case .fitRun:
            currentPage.timeline.secondsPerColumn = nil
            currentPage.timeline.followsLiveEdge = false
        case .panLeft: pan(byWidths: -0.5)
        case .panRight: pan(byWidths: 0.5)
        case .zoomToSelection: zoomToSelection()
        case .follow: toggleFollowing()
        case .nextView: cycleView()
        case .search:
            guard currentPage.shownRecord != nil else {
                notice = "Nothing to search yet: r runs the page."
                return []
            }
            currentPage.timeline.searchQuery = ""
        default: return nil
        }
        return []
    }

    /// The views `t` steps through for this run, in order: threads always, queues once a queue was seen, operations
    /// when the run has some, tasks when a span ran in a Swift task, phases when the page marked some.
    static func availableViews(_ record: RunRecord) -> [TimelineViewKind] {
        TimelineViewKind.allCases.filter { view in
            switch view {
            case .threads: true
            case .queues: !record.queues.isEmpty
            case .operations: !record.operations.isEmpty
            case .tasks: record.spans.contains { $0.task != nil } || record.openSpans.values.contains { $0.task != nil }
            case .phases: !record.phases.isEmpty
            }
        }
    }

    /// The view `t` goes to from `view`: the next one with something to show, back to threads after the last.
    static func view(after view: TimelineViewKind, in record: RunRecord) -> TimelineViewKind {
        let views = availableViews(record)
        let index = views.firstIndex(of: view) ?? -1
        return views[(index + 1) % views.count]
    }

    /// Shows the next view with something to show; the selected span stays selected, on its lane in the new view.
    private mutating func cycleView() {
        guard let record = currentPage.shownRecord else {
            notice = "No lanes yet: r runs the page."
            return
        }
        currentPage.timeline.view = Self.view(after: currentPage.timeline.view, in: record)
        currentPage.timeline.laneScroll = 0
        currentPage.timeline.selectedLane = 0
        let lanes = timelineLanes(record)
        if let id = currentPage.timeline.selectedSpanID, let span = record.timelineSpan(id: id, now: now)?.span {
            reveal(lane: lanes.lane(thread: span.thread, queue: span.queue) ?? 0)
        } else {
            currentPage.timeline.selectedMarkTime = nil
        }
        let names: [TimelineViewKind: String] = [.threads: "a lane per thread", .queues: "a lane per queue, a row per span at once",
                                                 .operations: "a row per operation", .tasks: "a row per Swift task",
                                                 .phases: "the phases laid over one another"]
        notice = "Timeline: \(names[currentPage.timeline.view] ?? "")."
    }

    /// Selects the previous or next span or mark on the selected lane, or the first one in view when none is selected.
    private mutating func selectItem(by step: Int) {
        guard let record = currentPage.shownRecord, let geometry = timelineGeometry(),
              geometry.lanes.lanes.indices.contains(currentPage.timeline.selectedLane) else {
            notice = "No lanes yet: r runs the page."
            return
        }
        let lane = geometry.lanes.lanes[currentPage.timeline.selectedLane].key
        guard let anyItem = record.firstItem(in: lane, now: now, where: { _ in true }) else {
            notice = "No spans or marks on this lane; j/k picks another."
            return
        }
        let item: TimelineItem
        if let current = selectedOrder(in: record) {
            let next = step < 0 ? record.lastItem(in: lane, now: now) { $0.order < current }
                                : record.firstItem(in: lane, now: now) { current < $0.order }
            guard let next else {
                notice = step < 0 ? "The first span or mark on this lane." : "The last span or mark on this lane."
                return
            }
            item = next
        } else {
            let leftEdge = geometry.startSeconds
            item = record.firstItem(in: lane, now: now) { item in
                switch item {
                case .span(let shown): record.seconds(at: shown.end) >= leftEdge
                case .mark(let mark): record.seconds(at: mark.time) >= leftEdge
                }
            } ?? anyItem
        }
        select(item)
        bringIntoView(seconds: record.seconds(at: item.start), geometry: geometry)
    }

    /// Where the selected span or mark comes in its lane's order.
    private func selectedOrder(in record: RunRecord) -> TimelineItem.Order? {
        if let id = currentPage.timeline.selectedSpanID, let shown = record.timelineSpan(id: id, now: now) { return TimelineItem.span(shown).order }
        return currentPage.timeline.selectedMarkTime.map { TimelineItem.Order(time: $0, rank: 1, id: 0) }
    }

    private func isSelected(_ item: TimelineItem) -> Bool {
        switch item {
        case .span(let shown): shown.span.id == currentPage.timeline.selectedSpanID
        case .mark(let mark): mark.time == currentPage.timeline.selectedMarkTime
        }
    }

    private mutating func select(_ item: TimelineItem?) {
        currentPage.timeline.selectedSpanID = nil
        currentPage.timeline.selectedMarkTime = nil
        switch item {
        case .span(let shown)?: currentPage.timeline.selectedSpanID = shown.span.id
        case .mark(let mark)?: currentPage.timeline.selectedMarkTime = mark.time
        case nil: break
        }
    }

    /// The time of the selected span's start or the selected mark, on the selected lane.
    private func selectedTime(in record: RunRecord) -> UInt64? {
        if let id = currentPage.timeline.selectedSpanID { return record.timelineSpan(id: id, now: now)?.span.start }
        return currentPage.timeline.selectedMarkTime
    }

    /// Pans a zoomed timeline so `seconds` is in view, a quarter of the way in; a view that followed the live edge
    /// stays where it was moved to.
    private mutating func bringIntoView(seconds: Double, geometry: TimelineGeometry) {
        guard currentPage.timeline.secondsPerColumn != nil else { return }
        let column = geometry.column(ofSeconds: seconds)
        if column < 0 || column >= geometry.plot.width {
            currentPage.timeline.startSeconds = max(0, seconds - Double(geometry.plot.width / 4) * geometry.secondsPerColumn)
            currentPage.timeline.followsLiveEdge = false
        }
    }

    /// Zooms around the selected span, or the middle of the view; zooming out past the whole run fits it again.
    private mutating func zoom(by factor: Double) {
        guard let record = currentPage.shownRecord, let geometry = timelineGeometry() else {
            notice = "Nothing to zoom yet: r runs the page."
            return
        }
        let zoom = max(TimelineState.finestSecondsPerColumn, geometry.secondsPerColumn * factor)
        guard zoom < fittingSecondsPerColumn(record) else {
            currentPage.timeline.secondsPerColumn = nil
            currentPage.timeline.startSeconds = 0
            currentPage.timeline.followsLiveEdge = false
            return
        }
        let halfWidth = Double(geometry.plot.width) / 2
        let centre = selectedTime(in: record).map { record.seconds(at: $0) } ?? geometry.seconds(atColumn: Int(halfWidth))
        currentPage.timeline.secondsPerColumn = zoom
        currentPage.timeline.startSeconds = max(0, centre - halfWidth * zoom)
    }

    /// Seconds per column when the whole run fits the plot.
    private func fittingSecondsPerColumn(_ record: RunRecord) -> Double {
        var fitting = currentPage.timeline
        fitting.secondsPerColumn = nil
        return TimelineGeometry(inner: box(of: .timeline).inside, state: fitting, record: record, lanes: timelineLanes(record), now: now,
                                glyphs: glyphs).secondsPerColumn
    }

    /// Zooms so the selected span fills most of the plot, with a little of what came before and after it; a
    /// selected mark is zoomed in on, a hundredth of the run around it.
    private mutating func zoomToSelection() {
        guard let record = currentPage.shownRecord, let geometry = timelineGeometry() else {
            notice = "Nothing to zoom to yet: r runs the page."
            return
        }
        let width = Double(max(1, geometry.plot.width))
        let start: Double
        let length: Double
        if let id = currentPage.timeline.selectedSpanID, let shown = record.timelineSpan(id: id, now: now) {
            start = record.seconds(at: shown.span.start)
            length = record.seconds(at: shown.end) - start
        } else if let time = currentPage.timeline.selectedMarkTime {
            length = fittingSecondsPerColumn(record) * width / 100
            start = record.seconds(at: time) - length / 2
        } else {
            notice = "Select a span or mark first (h/l, or click a bar); Z zooms to it."
            return
        }
        // The span takes four fifths of the width, a tenth of it free on either side.
        let zoom = max(TimelineState.finestSecondsPerColumn, length / (width * 0.8))
        currentPage.timeline.followsLiveEdge = false
        guard zoom < fittingSecondsPerColumn(record) else {
            currentPage.timeline.secondsPerColumn = nil
            currentPage.timeline.startSeconds = 0
            return
        }
        currentPage.timeline.secondsPerColumn = zoom
        currentPage.timeline.startSeconds = max(0, start + length / 2 - zoom * width / 2)
    }

    /// Follows the live edge (the view's right side keeps the run's latest moment in sight as it grows, at the
    /// current zoom, or a quarter of the run's width when it fits whole) or pins the view where it is.
    private mutating func toggleFollowing() {
        guard let record = currentPage.shownRecord, let geometry = timelineGeometry() else {
            notice = "Nothing to follow yet: r runs the page."
            return
        }
        if currentPage.timeline.followsLiveEdge {
            currentPage.timeline.followsLiveEdge = false
            currentPage.timeline.startSeconds = geometry.startSeconds
            notice = "Timeline pinned at \(Formatting.duration(geometry.startSeconds, glyphs: glyphs)); F follows the live edge again."
            return
        }
        if currentPage.timeline.secondsPerColumn == nil {
            currentPage.timeline.secondsPerColumn = max(TimelineState.finestSecondsPerColumn, fittingSecondsPerColumn(record) / 4)
        }
        currentPage.timeline.followsLiveEdge = true
        notice = "Timeline follows the live edge; F pins it, H/L pan away."
    }

    private mutating func pan(byWidths widths: Double) {
        guard let geometry = timelineGeometry(), let zoom = currentPage.timeline.secondsPerColumn else {
            notice = "The whole run is in view; zoom in with i first."
            return
        }
        currentPage.timeline.followsLiveEdge = false
        currentPage.timeline.startSeconds = max(0, geometry.startSeconds + widths * Double(geometry.plot.width) * zoom)
    }

    /// A typed search: characters and Backspace edit the query, Enter selects the next span whose name contains it
    /// (an empty query repeats the last search), Esc ends the search.
    private mutating func handleSearch(_ key: Key) {
        guard var query = currentPage.timeline.searchQuery else { return }
        switch key {
        case .character(let character):
            query.append(character)
        case .backspace:
            if !query.isEmpty { query.removeLast() }
        case .enter:
            let wanted = query.isEmpty ? currentPage.timeline.lastSearch : query
            guard !wanted.isEmpty else {
                notice = "Type part of a span's name, then Enter."
                return
            }
            currentPage.timeline.lastSearch = wanted
            selectNextMatch(wanted)
        case .escape:
            currentPage.timeline.searchQuery = nil
            return
        default:
            return
        }
        currentPage.timeline.searchQuery = query
    }

    /// Selects the first span after the selected one, in order of start and across lanes, whose name contains
    /// `query` (ignoring case), going round to the first; puts its lane and time in view. One pass over the spans.
    private mutating func selectNextMatch(_ query: String) {
        guard let record = currentPage.shownRecord else { return }
        let current = currentPage.timeline.selectedSpanID.flatMap { record.timelineSpan(id: $0, now: now) }.map { TimelineItem.span($0).order }
        var count = 0
        var passed = 0
        var first: TimelineSpan?
        var next: TimelineSpan?
        Self.forEachSpan(matching: query, in: record, now: now) { shown in
            let order = TimelineItem.span(shown).order
            count += 1
            if first.map({ order < TimelineItem.span($0).order }) ?? true { first = shown }
            if let current, order <= current { passed += 1; return }
            if next.map({ order < TimelineItem.span($0).order }) ?? true { next = shown }
        }
        guard let found = next ?? first else {
            notice = "No span's name contains “\(query)”."
            return
        }
        select(.span(found))
        reveal(lane: timelineLanes(record).lane(thread: found.span.thread, queue: found.span.queue) ?? 0)
        if let geometry = timelineGeometry() { bringIntoView(seconds: record.seconds(at: found.span.start), geometry: geometry) }
        notice = "“\(query)”: span \(next == nil ? 1 : passed + 1) of \(count), \(found.span.name)."
    }

    /// Visits the spans, completed and open, whose name contains `query` ignoring case, in no order.
    static func forEachSpan(matching query: String, in record: RunRecord, now: UInt64, _ body: (TimelineSpan) -> Void) {
        let reached = record.reachedTime(now: now)
        let wanted = Array(query.lowercased().utf8)
        for span in record.spans where contains(span.name, wanted) {
            body(TimelineSpan(span: span, end: span.end ?? record.endTime ?? span.start, isOpen: span.end == nil))
        }
        for span in record.openSpans.values where contains(span.name, wanted) {
            body(TimelineSpan(span: span, end: max(span.start, reached), isOpen: true))
        }
    }

    /// Whether `name` contains the lowercased UTF-8 bytes `wanted`, ASCII letters ignoring case: a byte search, since
    /// Foundation's case-insensitive `range(of:)` over 50,000 names took longer than a key may.
    private static func contains(_ name: String, _ wanted: [UInt8]) -> Bool {
        guard !wanted.isEmpty else { return true }
        // A naive search is enough: names are cut to 160 bytes.
        let lowered = name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard lowered.count >= wanted.count else { return false }
        for start in 0...(lowered.count - wanted.count) where lowered[start] == wanted[0] {
            var matched = true
            for offset in 1..<wanted.count where lowered[start + offset] != wanted[offset] {
                matched = false
                break
            }
            if matched { return true }
        }
        return false
    }

    /// Selects lane `lane` and scrolls the lanes so it is on screen.
    private mutating func reveal(lane: Int) {
        guard let geometry = timelineGeometry() else { return }
        currentPage.timeline.selectedLane = lane
        if lane < geometry.firstLane {
            currentPage.timeline.laneScroll = lane
        } else if geometry.row(ofLane: lane) == nil {
            // Scrolled so the lane is the last one shown.
            var first = lane
            var used = geometry.lanes.lanes[lane].rows
            while first > 0 && used + geometry.lanes.lanes[first - 1].rows <= geometry.plot.height {
                first -= 1
                used += geometry.lanes.lanes[first].rows
            }
            currentPage.timeline.laneScroll = first
        } else {
            currentPage.timeline.laneScroll = geometry.firstLane
        }
    }

    /// Moves the lane selection and keeps it on screen; a selected span or mark moves to the nearest one of the new lane.
    mutating func moveLaneSelection(_ amount: ScrollAmount) {
        if currentPage.timeline.view == .operations { return moveOperationSelection(amount) }
        guard let record = currentPage.shownRecord, let geometry = timelineGeometry(), !geometry.lanes.lanes.isEmpty else { return }
        let time = selectedTime(in: record)
        reveal(lane: Self.moved(currentPage.timeline.selectedLane, amount, page: geometry.visibleLanes, last: geometry.lanes.lanes.count - 1))
        if let time {
            var nearest: TimelineItem?
            record.forEachItem(in: geometry.lanes.lanes[currentPage.timeline.selectedLane].key, now: now) { item in
                if nearest.map({ (distance(item.start, time), item.order) < (distance($0.start, time), $0.order) }) ?? true { nearest = item }
            }
            select(nearest)
        }
    }

    private func distance(_ time: UInt64, _ other: UInt64) -> UInt64 {
        time > other ? time - other : other - time
    }

    /// Selects the span drawn at a clicked cell, if any.
    mutating func selectSpan(atX x: Int, y: Int) {
        guard let record = currentPage.shownRecord, let geometry = timelineGeometry(), let (lane, subRow) = geometry.lane(atRow: y) else { return }
        currentPage.timeline.selectedLane = lane
        let column = x - geometry.plot.x
        guard column >= 0, column < geometry.plot.width else { return }
        let hit = record.timelineSpans(in: geometry.lanes.lanes[lane].key, now: now).last { span in
            geometry.lanes.subRow(of: span.span) == subRow
                && geometry.column(ofSeconds: record.seconds(at: span.span.start)) <= column
                && max(geometry.column(ofSeconds: record.seconds(at: span.span.start)), geometry.column(ofSeconds: record.seconds(at: span.end))) >= column
        }
        select(hit.map(TimelineItem.span))
    }
}
