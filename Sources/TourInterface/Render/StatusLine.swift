/// The bottom row: page, how its run stands (the ending in words), elapsed time, speed, and the keys
/// that matter now, or a one-off notice in their place.
enum StatusLine {
    static func draw(_ model: TourModel, in row: Rect, into buffer: inout CellBuffer) {
        let bar = CellStyle(foreground: .bar, reverse: true)
        buffer.fill(row, with: Cell(" ", bar))
        let page = model.currentPage
        var x = buffer.write(" \(page.page.number)/\(model.pages.count) \(page.page.title) ", x: row.x, y: row.y,
                             style: CellStyle(foreground: .bar, bold: true, reverse: true), clip: row)
        let state = " " + stateText(model)
        let speed = backgroundBuildsText(model) + "  speed \(model.speedText(model.speed))  "
        // In a room, how its link stands, in at most a third of the row: a reason to reconnect is cut first, and left
        // out while a notice (which may be that reason, whole) needs the room.
        let roomText = RoomViews.statusText(model, withReason: model.notice == nil).map { "  " + TextWidth.truncated($0, to: row.width / 3, ellipsis: model.glyphs.ellipsis) } ?? ""
        // The state in words comes first; the key hints get what is left, but "? help" always shows. A notice is
        // said once, so it gets all the room it needs, up to two thirds of the row, and the state gives way.
        let keysRoom = model.notice.map { min(TextWidth.of($0), row.width * 2 / 3) } ?? TextWidth.of(Self.essentialKeys)
        let stateRoom = max(10, row.maxX - x - speed.count - TextWidth.of(roomText) - keysRoom - 1)
        var stateStyle = bar
        stateStyle.foreground = page.status.color ?? .bar
        stateStyle.bold = true
        x = buffer.write(TextWidth.truncated(state, to: stateRoom, ellipsis: model.glyphs.ellipsis), x: x, y: row.y, style: stateStyle, clip: row)
        if let status = model.room?.status {
            var roomStyle = bar
            roomStyle.foreground = RoomViews.statusColor(status)
            roomStyle.bold = true
            x = buffer.write(roomText, x: x, y: row.y, style: roomStyle, clip: row)
        }
        x = buffer.write(speed, x: x, y: row.y, style: bar, clip: row)
        let room = row.maxX - x - 1
        let right: String
        var rightStyle = bar
        if let notice = model.notice {
            right = TextWidth.truncated(notice, to: room, ellipsis: model.glyphs.ellipsis)
            rightStyle = CellStyle(foreground: .accent, bold: true, reverse: true)
        } else {
            right = Self.packed(hints(model), into: room)
        }
        buffer.write(right, x: row.maxX - 1 - TextWidth.of(right), y: row.y, style: rightStyle, clip: row)
    }

    static let essentialKeys = "? help  q quit"

    /// "  ↻ 5/21 built" while tour builds pages and exercises in the background; empty once all are built.
    static func backgroundBuildsText(_ model: TourModel) -> String {
        let builds = model.backgroundBuilds
        guard builds.isBusy else { return "" }
        return "  \(model.glyphs.building) \(builds.ready)/\(builds.total) built"
    }

    /// As many hints as fit in `width`, most useful first, always ending with help and quit.
    static func packed(_ hints: [String], into width: Int) -> String {
        var chosen: [String] = []
        for hint in hints where TextWidth.of((chosen + [hint, essentialKeys]).joined(separator: "  ")) <= width {
            chosen.append(hint)
        }
        return (chosen + [essentialKeys]).joined(separator: "  ")
    }

    /// "▶ running 2.3 s", "✓ ended normally after 1.534 s", "✗ crashed: Fatal error: …".
    static func stateText(_ model: TourModel) -> String {
        let page = model.currentPage
        let glyph = page.status.glyph(model.glyphs)
        var text: String
        if let buildState = DiagnosticsView.stateText(of: page, glyphs: model.glyphs, now: model.now) {
            text = buildState
        } else if let record = page.record, let ending = record.ending {
            let seconds = record.endTime.map { record.seconds(at: $0) } ?? 0
            text = "\(glyph) \(ending.headline) after \(Formatting.duration(seconds, glyphs: model.glyphs))"
            if record.endedAsExpected && !ending.isNormalExit { text += ", as the page announced" }
        } else if let record = page.record {
            text = "\(glyph) running \(Formatting.elapsed(record.seconds(at: record.reachedTime(now: model.now))))"
        } else if page.status == .notBuilt {
            text = "\(glyph) not built yet: r builds and runs it"
        } else {
            text = "\(glyph) not run yet"
        }
        if let running = model.runningPage, running != model.current {
            text += "  (page \(model.pages[running].page.number) is running)"
        }
        return text
    }

    /// A check in flight first, since the page pane may be scrolled away from it; else the exercise's next key.
    static func exerciseHints(_ exercise: PageExerciseState, glyphs: Glyphs) -> [String] {
        switch exercise.check {
        case .building: ["\(glyphs.building) checking: building" + (exercise.challenge.threadSanitizer ? " with Thread Sanitizer" : "")]
        case .running: ["\(glyphs.running) checking: running"]
        case .finished(let verdict, _) where !verdict.passed: ["c check", "h hint"]
        case .earlier(passed: false, _, _): ["c check", "h hint"]
        case .notTried where !exercise.passed: ["c check"]
        default: []
        }
    }

    /// The keys worth knowing in the current state and focus, most useful first.
    static func hints(_ model: TourModel) -> [String] {
        var keys = DiagnosticsView.hints(for: model.currentPage) ?? (model.runningPage == nil ? ["r run", "e edit"] : ["s stop", "r rerun"])
        if model.currentPage.offersUndo { keys.insert("u undo reset", at: min(1, keys.count)) }
        if let exercise = model.currentPage.exercise {
            // The timeline keeps h for its spans.
            let shownRun = exercise.checkRun == nil ? [] : [model.currentPage.showsCheckRun ? "C page's run" : "C check's run"]
            keys = exerciseHints(exercise, glyphs: model.glyphs).filter { model.focus != .timeline || $0 != "h hint" } + shownRun + keys
        }
        switch model.focus {
        case .timeline:
            keys += model.currentPage.timeline.searchQuery != nil ? ["Enter next match", "Esc done"] : ["h/l span", "i/o zoom", "t view", "/ search"]
        case .knobs: keys += ["[ ] knob", "- + value"]
        case .page, .output: keys += ["n/p page", "j/k scroll"]
        case .live:
            keys += model.currentPage.takesScrollKeys ? ["\(model.glyphs.upDown) scroll list", "Enter let go"] : ["z zoom"]
            if model.currentPage.record?.liveView.rows.isEmpty == false {
                keys.append(model.currentPage.liveFullSizeRow == nil ? "f full size" : "f list")
            }
        }
        return keys + ["Tab pane"]
    }
}
