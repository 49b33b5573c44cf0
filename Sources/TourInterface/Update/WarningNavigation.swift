import TourCore

extension TourModel {
    /// The current page's warnings so far (`TraceWarnings`), with the cores the terminal layer read, kept until the
    /// record changes.
    func currentWarnings() -> [TraceWarning] {
        guard let record = currentPage.shownRecord else { return [] }
        return renderCaches.warnings.warnings(of: record, cores: cores)
    }

    /// `W`: shows the next warning of the run in the timeline's info row, on its lane (an operation's in the operations
    /// view) and with its moment in view; after the last, back to none.
    mutating func stepWarning() {
        let warnings = currentWarnings()
        guard let record = currentPage.shownRecord, !warnings.isEmpty else {
            notice = currentPage.shownRecord == nil ? "No run yet: r runs the page." : "This run raised no warnings."
            currentPage.timeline.selectedWarning = nil
            return
        }
        let next = currentPage.timeline.selectedWarning.map { $0 + 1 } ?? 0
        guard next < warnings.count else {
            currentPage.timeline.selectedWarning = nil
            notice = "That was the last of \(warnings.count) warning\(warnings.count == 1 ? "" : "s"); W starts again."
            return
        }
        if layout.mode == .compact { compactTab = .timeline }
        focus = .timeline
        let warning = warnings[next]
        var timeline = currentPage.timeline
        timeline.selectedWarning = next
        timeline.selectedSpanID = nil
        timeline.selectedMarkTime = nil
        if let operation = warning.operation, let row = record.operations.firstIndex(where: { $0.id == operation }) {
            timeline.view = .operations
            timeline.selectedOperation = row
        } else {
            if timeline.view == .operations { timeline.view = .threads }
            if let lane = record.threads.firstIndex(where: { $0.thread == warning.thread }) { timeline.selectedLane = lane }
        }
        currentPage.timeline = timeline
        if currentPage.timeline.view == .threads {
            // Keep the selected lane on screen, as j and k do.
            moveLaneSelection(.lines(0))
            currentPage.timeline.selectedWarning = next
        }
        if let zoom = currentPage.timeline.secondsPerColumn, let geometry = timelineGeometry() {
            let seconds = record.seconds(at: warning.time)
            let column = geometry.column(ofSeconds: seconds)
            if column < 0 || column >= geometry.plot.width {
                currentPage.timeline.startSeconds = max(0, seconds - Double(geometry.plot.width / 4) * zoom)
            }
        }
    }

    /// j/k in the operations view: the selected operation moves, and the warning shown gives way to it.
    mutating func moveOperationSelection(_ amount: ScrollAmount) {
        guard let record = currentPage.shownRecord, !record.operations.isEmpty else { return }
        let rows = max(1, box(of: .timeline).inside.height - OperationsTimelineView.rowsBelow)
        currentPage.timeline.selectedOperation = Self.moved(min(currentPage.timeline.selectedOperation, record.operations.count - 1),
                                                            amount, page: rows, last: record.operations.count - 1)
        currentPage.timeline.selectedWarning = nil
    }
}
