import TourCore

extension TourModel {
    /// The timeline's geometry for the current page at the current size, if it has run.
    func timelineGeometry() -> TimelineGeometry? {
        guard let record = currentPage.record else { return nil }
        return TimelineGeometry(inner: box(of: .timeline).inside, state: currentPage.timeline, record: record, now: now, glyphs: glyphs)
    }

    /// The keys that mean something else while the timeline has the focus; nil for any other key.
    mutating func handleTimeline(_ key: Key) -> [TourEffect]? {
        if key != .character("W") { currentPage.timeline.selectedWarning = nil }
        switch key {
        case .character("t"): cycleTimelineView()
        case .character("h"): selectItem(by: -1)
        case .character("l"): selectItem(by: 1)
        case .character("i"): zoom(by: 0.5)
        case .character("o"): zoom(by: 2)
        case .character("0"): currentPage.timeline.secondsPerColumn = nil
        case .character("H"): pan(byWidths: -0.5)
        case .character("L"): pan(byWidths: 0.5)
        // Until the timeline's own view keys are merged: the task view and back.
        case .character("t"): currentPage.timeline.view = currentPage.timeline.view == .tasks ? .threads : .tasks
        default: return nil
        }
        return []
    }

    /// Threads, then operations, then threads again. (The queues and tasks views come with their own helpers' work.)
    private mutating func cycleTimelineView() {
        currentPage.timeline.view = currentPage.timeline.view == .operations ? .threads : .operations
        notice = "Timeline: \(currentPage.timeline.view.rawValue)"
    }

    /// Selects the previous or next span or mark on the selected lane, or the first one in view when none is selected.
    private mutating func selectItem(by step: Int) {
        guard let record = currentPage.record, let geometry = timelineGeometry(),
              record.threads.indices.contains(currentPage.timeline.selectedLane) else {
            notice = "No lanes yet: r runs the page."
            return
        }
        let items = record.timelineItems(on: record.threads[currentPage.timeline.selectedLane].thread, now: now)
        guard !items.isEmpty else {
            notice = "No spans or marks on this lane; j/k picks another."
            return
        }
        let index: Int
        if let current = items.firstIndex(where: isSelected) {
            index = min(items.count - 1, max(0, current + step))
        } else {
            let leftEdge = geometry.startSeconds
            index = items.firstIndex { item in
                switch item {
                case .span(let shown): record.seconds(at: shown.end) >= leftEdge
                case .mark(let mark): record.seconds(at: mark.time) >= leftEdge
                }
            } ?? 0
        }
        select(items[index])
        bringIntoView(seconds: record.seconds(at: items[index].start), geometry: geometry)
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

    /// Pans a zoomed timeline so `seconds` is in view, a quarter of the way in.
    private mutating func bringIntoView(seconds: Double, geometry: TimelineGeometry) {
        guard currentPage.timeline.secondsPerColumn != nil else { return }
        let column = geometry.column(ofSeconds: seconds)
        if column < 0 || column >= geometry.plot.width {
            currentPage.timeline.startSeconds = max(0, seconds - Double(geometry.plot.width / 4) * geometry.secondsPerColumn)
        }
    }

    /// Zooms around the selected span, or the middle of the view; zooming out past the whole run fits it again.
    private mutating func zoom(by factor: Double) {
        guard let record = currentPage.record, let geometry = timelineGeometry() else {
            notice = "Nothing to zoom yet: r runs the page."
            return
        }
        let fitting = TimelineGeometry(inner: box(of: .timeline).inside, state: TimelineState(), record: record, now: now,
                                       glyphs: glyphs).secondsPerColumn
        let zoom = max(TimelineState.finestSecondsPerColumn, geometry.secondsPerColumn * factor)
        guard zoom < fitting else {
            currentPage.timeline.secondsPerColumn = nil
            currentPage.timeline.startSeconds = 0
            return
        }
        let halfWidth = Double(geometry.plot.width) / 2
        let centre = selectedTime(in: record).map { record.seconds(at: $0) } ?? geometry.seconds(atColumn: Int(halfWidth))
        currentPage.timeline.secondsPerColumn = zoom
        currentPage.timeline.startSeconds = max(0, centre - halfWidth * zoom)
    }

    private mutating func pan(byWidths widths: Double) {
        guard let geometry = timelineGeometry(), let zoom = currentPage.timeline.secondsPerColumn else {
            notice = "The whole run is in view; zoom in with i first."
            return
        }
        currentPage.timeline.startSeconds = max(0, geometry.startSeconds + widths * Double(geometry.plot.width) * zoom)
    }

    /// Moves the lane selection and keeps it on screen; a selected span or mark moves to the nearest one of the new lane.
    mutating func moveLaneSelection(_ amount: ScrollAmount) {
        if currentPage.timeline.view == .operations { return moveOperationSelection(amount) }
        guard let record = currentPage.record, !record.threads.isEmpty, let geometry = timelineGeometry() else { return }
        let time = selectedTime(in: record)
        var timeline = currentPage.timeline
        timeline.selectedLane = Self.moved(timeline.selectedLane, amount, page: geometry.visibleLanes, last: record.threads.count - 1)
        if timeline.selectedLane < geometry.firstLane {
            timeline.laneScroll = timeline.selectedLane
        } else if timeline.selectedLane >= geometry.firstLane + geometry.visibleLanes {
            timeline.laneScroll = timeline.selectedLane - geometry.visibleLanes + 1
        } else {
            timeline.laneScroll = geometry.firstLane
        }
        currentPage.timeline = timeline
        if let time {
            let items = record.timelineItems(on: record.threads[timeline.selectedLane].thread, now: now)
            select(items.min { distance($0.start, time) < distance($1.start, time) })
        }
    }

    private func distance(_ time: UInt64, _ other: UInt64) -> UInt64 {
        time > other ? time - other : other - time
    }

    /// Selects the span drawn at a clicked cell, if any.
    mutating func selectSpan(atX x: Int, y: Int) {
        guard let record = currentPage.record, let geometry = timelineGeometry(),
              let lane = geometry.lane(atRow: y, laneCount: record.threads.count) else { return }
        currentPage.timeline.selectedLane = lane
        let column = x - geometry.plot.x
        guard column >= 0, column < geometry.plot.width else { return }
        let hit = record.timelineSpans(on: record.threads[lane].thread, now: now).last { span in
            geometry.column(ofSeconds: record.seconds(at: span.span.start)) <= column
                && max(geometry.column(ofSeconds: record.seconds(at: span.span.start)), geometry.column(ofSeconds: record.seconds(at: span.end))) >= column
        }
        select(hit.map(TimelineItem.span))
    }
}
