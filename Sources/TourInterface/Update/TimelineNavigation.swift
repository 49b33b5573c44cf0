import TourCore

extension TourModel {
    /// The timeline's geometry for the current page at the current size, if it has run.
    func timelineGeometry() -> TimelineGeometry? {
        guard let record = currentPage.record else { return nil }
        return TimelineGeometry(inner: box(of: .timeline).inside, state: currentPage.timeline, laneCount: record.threads.count,
                                seconds: record.seconds(at: record.reachedTime(now: now)))
    }

    /// The keys that mean something else while the timeline has the focus; nil for any other key.
    mutating func handleTimeline(_ key: Key) -> [TourEffect]? {
        switch key {
        case .character("h"): selectSpan(by: -1)
        case .character("l"): selectSpan(by: 1)
        case .character("i"): zoom(by: 0.5)
        case .character("o"): zoom(by: 2)
        case .character("0"): currentPage.timeline.secondsPerColumn = nil
        case .character("H"): pan(byWidths: -0.5)
        case .character("L"): pan(byWidths: 0.5)
        default: return nil
        }
        return []
    }

    /// Selects the previous or next span on the selected lane, or the first one in view when none is selected.
    private mutating func selectSpan(by step: Int) {
        guard let record = currentPage.record, let geometry = timelineGeometry(),
              record.threads.indices.contains(currentPage.timeline.selectedLane) else {
            notice = "No lanes yet: r runs the page."
            return
        }
        let lane = record.threads[currentPage.timeline.selectedLane]
        let spans = record.timelineSpans(on: lane.thread, now: now)
        guard !spans.isEmpty else {
            notice = "No spans on this lane; j/k picks another."
            return
        }
        let index: Int
        if let selected = currentPage.timeline.selectedSpanID, let current = spans.firstIndex(where: { $0.span.id == selected }) {
            index = min(spans.count - 1, max(0, current + step))
        } else {
            let leftEdge = geometry.startSeconds
            index = spans.firstIndex { record.seconds(at: $0.end) >= leftEdge } ?? 0
        }
        currentPage.timeline.selectedSpanID = spans[index].span.id
        bringIntoView(seconds: record.seconds(at: spans[index].span.start), geometry: geometry)
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
        let fitting = TimelineGeometry(inner: box(of: .timeline).inside, state: TimelineState(), laneCount: record.threads.count,
                                       seconds: record.seconds(at: record.reachedTime(now: now))).secondsPerColumn
        let zoom = max(TimelineState.finestSecondsPerColumn, geometry.secondsPerColumn * factor)
        guard zoom < fitting else {
            currentPage.timeline.secondsPerColumn = nil
            currentPage.timeline.startSeconds = 0
            return
        }
        let halfWidth = Double(geometry.plot.width) / 2
        let centre = currentPage.timeline.selectedSpanID
            .flatMap { record.timelineSpan(id: $0, now: now) }
            .map { record.seconds(at: $0.span.start) } ?? geometry.seconds(atColumn: Int(halfWidth))
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

    /// Moves the lane selection and keeps it on screen; a selected span moves to the nearest span of the new lane.
    mutating func moveLaneSelection(_ amount: ScrollAmount) {
        guard let record = currentPage.record, !record.threads.isEmpty, let geometry = timelineGeometry() else { return }
        var timeline = currentPage.timeline
        timeline.selectedLane = Self.moved(timeline.selectedLane, amount, page: geometry.visibleLanes, last: record.threads.count - 1)
        if timeline.selectedLane < geometry.firstLane {
            timeline.laneScroll = timeline.selectedLane
        } else if timeline.selectedLane >= geometry.firstLane + geometry.visibleLanes {
            timeline.laneScroll = timeline.selectedLane - geometry.visibleLanes + 1
        } else {
            timeline.laneScroll = geometry.firstLane
        }
        if let selected = timeline.selectedSpanID, let current = record.timelineSpan(id: selected, now: now) {
            let spans = record.timelineSpans(on: record.threads[timeline.selectedLane].thread, now: now)
            timeline.selectedSpanID = spans.min { distance($0, current) < distance($1, current) }?.span.id
        }
        currentPage.timeline = timeline
    }

    private func distance(_ span: TimelineSpan, _ other: TimelineSpan) -> UInt64 {
        span.span.start > other.span.start ? span.span.start - other.span.start : other.span.start - span.span.start
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
        currentPage.timeline.selectedSpanID = hit?.span.id
    }
}
