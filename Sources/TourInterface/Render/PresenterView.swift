import RoomProtocol
import TourCore

/// Where the presenter's parts go on a screen: one row for the page's title and the clock, the prose below, and while
/// the page has a run the output and the timeline taking the room they need, the prose keeping at least a few rows.
struct PresenterLayout: Equatable {
    var header: Rect
    var prose: Rect
    var output: Rect?
    var timeline: Rect?
    /// A page that draws (pages 5 and 7) shows its live view beside the prose while it has a run.
    var live: Rect?
    /// The caption's band, while one is shown: rows of its own between the prose and the run's panes (or the screen's
    /// foot), so it covers nothing the room reads.
    var caption: Rect?
    /// Whether the caption is set in big type (`BigType`): when the terminal shows half blocks and it fits the width.
    var captionInBigType = false
    /// The room's answers to the poll asked on this page (`tour present --room`): a box between the prose and the
    /// caption, a row a choice.
    var poll: Rect?
    /// The last row, for a notice; the prose ends above it only while there is one.
    var notice: Rect

    /// The fewest rows of prose kept while a run takes the room below it.
    static let proseMinimum = 5
    /// The fewest rows the run's panes get, however little the run has to show yet.
    static let runMinimum = 12
    /// The fewest rows the output keeps under the timeline on a narrow screen, its box included: the page's last lines
    /// and its ending stay readable however many lanes the run has.
    static let outputMinimum = 7
    /// From this width the output sits beside the timeline; below it, under it.
    static let sideBySideWidth = 100
    /// The share of the width a live view takes beside the prose, and the fewest columns it gets.
    static let liveShare = 2.0 / 5
    static let liveMinimumWidth = 30

    init(size: Size, model: TourModel) {
        let margin = size.width >= Self.sideBySideWidth ? 2 : 1
        header = Rect(x: margin, y: 0, width: size.width - 2 * margin, height: 1)
        notice = Rect(x: margin, y: size.height - 1, width: size.width - 2 * margin, height: 1)
        let bottom = size.height - (model.notice == nil ? 0 : 1)
        let page = model.currentPage
        // The caption's band: its text in big type with a row above and below, or in one row of bold type.
        var band = 0
        if let presenter = model.presenter, let shown = presenter.caption, shown.isShown(at: model.now) {
            captionInBigType = model.glyphs == .unicode && BigType.fits(shown.text, width: size.width - 4)
            band = captionInBigType ? BigType.height + 2 : 3
        }
        let pollHeight = model.stageRoom?.poll.flatMap { poll in
            poll.page == model.current
                ? PresenterView.questionLines(poll.poll.question, width: size.width - 2 * margin).count + poll.poll.choices.count + 4 : nil
        } ?? 0
        guard model.presenter?.showsRun == true, let record = page.record else {
            prose = Rect(x: margin, y: 2, width: size.width - 2 * margin, height: max(1, bottom - 2 - band - pollHeight))
            if band > 0 { caption = Rect(x: 0, y: bottom - band, width: size.width, height: band) }
            if pollHeight > 0 { poll = Rect(x: margin, y: bottom - band - pollHeight, width: size.width - 2 * margin, height: pollHeight) }
            return
        }
        // A lane per thread, the axis, the legend and the box; the output's lines and its box.
        let timelineNeed = max(record.threads.count, 2) + 6
        let outputNeed = min(OutputEntries(page: page, glyphs: model.glyphs).count, 12) + 2
        let sideBySide = size.width >= Self.sideBySideWidth
        let need = sideBySide ? max(timelineNeed, outputNeed) : timelineNeed + outputNeed
        let room = min(max(need, Self.runMinimum), bottom - 2 - Self.proseMinimum - band - pollHeight)
        let top = bottom - room
        prose = Rect(x: margin, y: 2, width: size.width - 2 * margin, height: max(1, top - band - pollHeight - 2))
        if band > 0 { caption = Rect(x: 0, y: top - band, width: size.width, height: band) }
        if pollHeight > 0 { poll = Rect(x: margin, y: top - band - pollHeight, width: size.width - 2 * margin, height: pollHeight) }
        if page.drawsLiveView {
            let liveWidth = max(Self.liveMinimumWidth, Int(Double(size.width) * Self.liveShare))
            live = Rect(x: size.width - liveWidth, y: 1, width: liveWidth, height: max(3, top - band - 1))
            prose.width = max(1, size.width - liveWidth - 2 * margin)
        }
        if sideBySide {
            let outputWidth = size.width * 37 / 100
            output = Rect(x: 0, y: top, width: outputWidth, height: room)
            timeline = Rect(x: outputWidth, y: top, width: size.width - outputWidth, height: room)
        } else {
            let timelineHeight = max(3, min(timelineNeed, room - min(outputNeed, Self.outputMinimum)))
            timeline = Rect(x: 0, y: top, width: size.width, height: timelineHeight)
            output = Rect(x: 0, y: top + timelineHeight, width: size.width, height: room - timelineHeight)
        }
    }
}

/// The presenter's screen: no sidebar, no status line, no key hints; the page's title and a clock, its prose and code
/// revealed block by block with the code under discussion marked, the run's output and timeline when it has one, and
/// a caption the room can read when a knob changes.
enum PresenterView {
    static func draw(_ model: TourModel, into buffer: inout CellBuffer) {
        guard let presenter = model.presenter else { return }
        if let words = presenter.endSlide {
            drawEndSlide(words, model: model, presenter: presenter, into: &buffer)
            return
        }
        let layout = PresenterLayout(size: model.size, model: model)
        drawHeader(model, presenter: presenter, in: layout.header, into: &buffer)
        drawProse(model, presenter: presenter, in: layout.prose, into: &buffer)
        if let output = layout.output {
            buffer.drawBox(output, title: "Output", focused: false, glyphs: model.glyphs)
            OutputView.draw(model, in: output.inside, into: &buffer)
        }
        if let timeline = layout.timeline {
            buffer.drawBox(timeline, title: "Timeline", focused: false, glyphs: model.glyphs)
            TimelineView.draw(model, in: timeline.inside, focused: false, into: &buffer)
            TourRenderer.drawHiddenLanes(model, inner: timeline.inside, box: timeline, into: &buffer)
        }
        if let live = layout.live {
            buffer.drawBox(live, title: "Live", focused: false, glyphs: model.glyphs)
            LiveViewPane.draw(model, in: live.inside, box: live, into: &buffer)
        }
        if let box = layout.poll, let poll = model.stageRoom?.poll {
            drawPoll(poll, status: model.stageRoom?.status ?? .connecting, in: box, model: model, into: &buffer)
        }
        if let band = layout.caption, let caption = presenter.caption {
            drawCaption(caption.text, in: band, bigType: layout.captionInBigType, model: model, into: &buffer)
        }
        if let notice = model.notice {
            buffer.write(TextWidth.truncated(notice, to: layout.notice.width, ellipsis: model.glyphs.ellipsis),
                         x: layout.notice.x, y: layout.notice.y, style: CellStyle(foreground: .muted), clip: layout.notice)
        }
    }

    /// "2 Queue" on the left; how far into the page and the clock on the right.
    private static func drawHeader(_ model: TourModel, presenter: PresenterState, in row: Rect, into buffer: inout CellBuffer) {
        let page = model.currentPage
        let count = model.presentedBlocks.count
        let clock = talkClock(model, presenter: presenter)
        // Where the script is belongs to the speaker (`tour notes`), not to the room.
        var right = count > 0 ? "\(presenter.shownBlocks(onPage: model.current, of: count))/\(count)" : ""
        if page.isRunning { right += "  \(model.glyphs.running) running" }
        // With a room, whether it hears the presenter; why not is in the poll's box, where the speaker looks then.
        if let stage = model.stageRoom { right += "  room " + stage.status.words(withReason: false) }
        right += "  " + clock
        let rightWidth = TextWidth.of(right)
        buffer.write(right, x: row.maxX - rightWidth, y: row.y, style: CellStyle(foreground: .muted), clip: row)
        buffer.write(clock, x: row.maxX - TextWidth.of(clock), y: row.y, style: CellStyle(foreground: .accent, bold: true), clip: row)
        let title = TextWidth.truncated("\(page.page.number)  \(page.page.title)", to: max(1, row.width - rightWidth - 2), ellipsis: model.glyphs.ellipsis)
        buffer.write(title, x: row.x, y: row.y, style: CellStyle(foreground: .heading, bold: true), clip: row)
    }

    /// The talk's clock: the time since its first tick, "0:00" before it.
    private static func talkClock(_ model: TourModel, presenter: PresenterState) -> String {
        clockText(presenter.startedAt.map { model.now > $0 ? model.now - $0 : 0 } ?? 0)
    }

    /// "4:07", or "1:02:33" past the hour.
    static func clockText(_ nanoseconds: UInt64) -> String {
        let seconds = Int(nanoseconds / 1_000_000_000)
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let tail = (rest < 10 ? "0" : "") + String(rest)
        guard hours > 0 else { return "\(minutes):\(tail)" }
        return "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):\(tail)"
    }

    /// The revealed blocks, the last one in view; code blocks other than the last one revealed are dimmed, and that
    /// one has a bar in the margin beside it.
    private static func drawProse(_ model: TourModel, presenter: PresenterState, in area: Rect, into buffer: inout CellBuffer) {
        let layout = model.renderCaches.pageLayouts.layout(for: model.currentPage, width: area.width, glyphs: model.glyphs, speakerNotes: false,
                                                           showsKeys: false)
        let blocks = model.currentPage.document.withoutSpeakerNotes.blocks
        guard !blocks.isEmpty, layout.blockStarts.count == blocks.count else {
            buffer.writeWrapped("Reading page \(model.currentPage.page.number)\(model.glyphs.ellipsis)", in: area, style: CellStyle(foreground: .muted))
            return
        }
        let shown = presenter.shownBlocks(onPage: model.current, of: blocks.count)
        let end = shown < blocks.count ? trimmedEnd(layout, before: layout.blockStarts[shown]) : layout.rows.count
        let lastStart = layout.blockStarts[shown - 1]
        let autoTop = max(0, min(lastStart, end - area.height))
        let top = max(0, autoTop - presenter.scrollBack)
        PageView.drawRows(layout.rows[top..<end], of: layout, record: model.currentPage.record, in: area, glyphs: model.glyphs, into: &buffer)

        let discussed = (0..<shown).last { if case .code = blocks[$0] { true } else { false } }
        for (index, block) in blocks.prefix(shown).enumerated() {
            guard case .code = block else { continue }
            let rows = layout.blockStarts[index]..<(index + 1 < blocks.count ? trimmedEnd(layout, before: layout.blockStarts[index + 1]) : layout.rows.count)
            for row in rows where row >= top && row - top < area.height && row < end {
                let y = area.y + row - top
                if index == discussed {
                    buffer.set(Cell(presenterBar, CellStyle(foreground: .accent, bold: true)), x: area.x - 1, y: y)
                } else {
                    for x in area.x..<area.maxX {
                        var cell = buffer[x, y]
                        cell.style.dim = true
                        cell.style.foreground = .muted
                        buffer.set(cell, x: x, y: y)
                    }
                }
            }
        }
    }

    /// The bar beside the code under discussion.
    static let presenterBar: Character = "\u{258C}"

    /// The row after a block's last row: the blank row before the next block's start is not the block's.
    private static func trimmedEnd(_ layout: PageLayout, before start: Int) -> Int {
        start > 0 && layout.rows[start - 1].cells.isEmpty ? start - 1 : start
    }

    /// The talk's end slide: its words alone in the middle of the screen, in big type where they fit, and the clock.
    private static func drawEndSlide(_ words: String, model: TourModel, presenter: PresenterState, into buffer: inout CellBuffer) {
        let clock = talkClock(model, presenter: presenter)
        buffer.write(clock, x: model.size.width - 2 - TextWidth.of(clock), y: 0, style: CellStyle(foreground: .accent, bold: true))
        let big = model.glyphs == .unicode && BigType.fits(words, width: model.size.width - 4)
        let rows = big ? BigType.rows(words) : [TextWidth.truncated(words, to: model.size.width - 4, ellipsis: model.glyphs.ellipsis)]
        let top = max(1, (model.size.height - rows.count) / 2)
        for (index, row) in rows.enumerated() {
            buffer.write(row, x: max(0, (model.size.width - TextWidth.of(row)) / 2), y: top + index,
                         style: CellStyle(foreground: .heading, bold: true))
        }
    }

    /// The question asked, wrapped inside a poll box `width` columns wide: the room reads it whole, in at most three
    /// rows (a question longer than that is cut at the third).
    static func questionLines(_ question: String, width: Int) -> [String] {
        Array(NotesView.wrap(question, width: width - 4).prefix(3))
    }

    /// The room's answers as a bar a choice, counted live; once the run answered the poll, the right choice marked and
    /// how many had it. The link's state is in the title while it is not connected.
    private static func drawPoll(_ poll: StagePoll, status: RoomLinkStatus, in box: Rect, model: TourModel, into buffer: inout CellBuffer) {
        let counts = poll.poll.outcome?.counts ?? poll.counts
        let room = status == .connected ? "" : " (room \(status.words()))"
        buffer.fill(box)
        buffer.drawBox(box, title: "Asked the room\(room)", focused: true, glyphs: model.glyphs)
        let inner = box.inside
        let question = questionLines(poll.poll.question, width: box.width)
        for (offset, line) in question.enumerated() {
            buffer.write(line, x: inner.x + 1, y: inner.y + offset, style: CellStyle(foreground: .heading, bold: true), clip: inner)
        }
        for (offset, row) in RoomViews.choiceRows(poll.poll, counts: counts, width: inner.width - 2, glyphs: model.glyphs).enumerated() {
            buffer.write(row, x: inner.x + 1, y: inner.y + question.count + 1 + offset, clip: inner)
        }
        let tally = RoomViews.tally(poll.poll, counts: counts).summary
        let footer = poll.poll.outcome.map { "\(tally): \($0.happened)" } ?? "\(tally) \u{00B7} r runs the page"
        buffer.write(TextWidth.truncated(footer, to: inner.width - 2, ellipsis: model.glyphs.ellipsis), x: inner.x + 1, y: inner.maxY - 1,
                     style: CellStyle(foreground: poll.poll.outcome == nil ? .muted : .heading, bold: true), clip: inner)
    }

    /// The caption in its band, centred, in bold reverse type: in big type when the layout chose it, else in one row.
    private static func drawCaption(_ text: String, in band: Rect, bigType: Bool, model: TourModel, into buffer: inout CellBuffer) {
        let style = CellStyle(foreground: .accent, bold: true, reverse: true)
        let rows = bigType ? BigType.rows(text) : [TextWidth.truncated(text, to: band.width - 4, ellipsis: model.glyphs.ellipsis)]
        let width = min(band.width, (rows.map(TextWidth.of).max() ?? 0) + 6)
        let box = Rect(x: band.x + (band.width - width) / 2, y: band.y, width: width, height: band.height)
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX { buffer.set(Cell(" ", style), x: x, y: y) }
        }
        for (index, row) in rows.enumerated() {
            buffer.write(row, x: box.x + (width - TextWidth.of(row)) / 2, y: box.y + 1 + index, style: style, clip: box)
        }
    }
}
