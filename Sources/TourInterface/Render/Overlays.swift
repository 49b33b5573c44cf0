import Foundation

/// Boxes drawn over the panes: the list of keys, and the question before quitting during a run.
enum Overlays {
    /// Every key and mouse action, grouped; `?` shows it, any key closes it.
    static func helpLines(_ model: TourModel) -> [(group: String, keys: String, meaning: String)] {
        model.presenter == nil ? tutorialHelpLines(model) : presenterHelpLines
    }

    /// The presenter's keys (`tour present`, `P`).
    static let presenterHelpLines: [(group: String, keys: String, meaning: String)] = [
        ("Reveal", "Space → ←", "next block (at a page's end, next page) / back one"),
        ("Pages", "n p", "next / previous page of the talk"),
        ("Run", "r s t", "run the page / stop it / hide or show the run"),
        ("Knobs", "[ ] - +", "choose a knob / change it; the room sees a caption"),
        ("Speed", "< >", "slower / faster simulated waits"),
        ("Scroll", "k j ↑ ↓", "back up the page / down again"),
        ("Script", "Space →", "go on after a wait or cut a pause short; Enter too"),
        ("Other", "P Esc  ? q", "back to the tutorial / this help / quit"),
    ]

    /// Besides the keys, what the marks in the list of pages and the meter atop the timeline say (`SidebarView`,
    /// `ConcurrencyMeter`): they have no key of their own, and are the signs a learner asks about.
    private static func tutorialHelpLines(_ model: TourModel) -> [(group: String, keys: String, meaning: String)] { [
        ("Pages", "n p → ←", "next / previous page (or click one in the list)"),
        ("", "\(model.glyphs.exercisesOpen) \(model.glyphs.exercisesDone)", "exercises to do / question answered, check passed"),
        ("", "o O", "open / close the deep dive in view / all of them"),
        ("Run", "r s  < >", "run (again) / stop run or build / slower, faster"),
        ("Knobs", "[ ] - +", "choose a knob / change its value; r runs with it"),
        ("Panes", "Tab S-Tab", "next / previous pane; a click focuses one"),
        ("", "z  Esc", "zoom the focused pane to the full screen / back"),
        ("Scroll", "j k ↓ ↑", "a line down / up (or the mouse wheel)"),
        ("", "PgDn PgUp", "a screenful down / up"),
        ("", "g G", "top / bottom (output: G follows new lines)"),
        ("Live", "↓↑ Enter f", "scroll a running list / let go / a row full size"),
        ("Timeline", "h l  j k", "previous / next span or mark; lane down / up"),
        ("", "i o 0 Z", "zoom in / out / fit the run / to the selection"),
        ("", "H L F t /", "pan / follow the live edge / next view / search"),
        ("Meter", "run/N", "threads running, of N cores; a digit or +: more"),
        ("", "open/N", "spans open, of the widest queue limit, else cores"),
        ("Edit", "e", model.editing.editor.map { "edit in \($0) (\(model.editing.editorOrigin)); a save reruns" }
            ?? "edit the page: set VISUAL or EDITOR first"),
        ("", "d D  x u", "messages / restore original (asks) / undo reset"),
        ("Exercise", "a c E", "answer the prediction / check your code / edit it"),
        ("", "h v C", "a hint (timeline keeps h) / solution / check's run"),
        ("Other", "? ^L q", "this help / redraw / quit (asks during a run)"),
        ("", "W S P", "the run's warnings / save an SVG picture / present"),
    ] }

    /// The page states the list marks with a glyph, as the help explains them: how the last run went, then where the
    /// page's program stands (`swift run tour` builds none; the tutorial builds them in the background).
    static let states: [[RunStatus]] = [[.notRun, .running, .endedAsExpected, .crashed, .stuck, .stopped, .failed],
                                        [.notBuilt, .building, .doesNotCompile]]

    static func drawHelp(_ model: TourModel, into buffer: inout CellBuffer) {
        let width = min(buffer.size.width - 2, 74)
        let helpLines = helpLines(model)
        // The states are the marks of the list of pages, which the stage has not.
        let states = model.presenter == nil ? states : []
        // A short screen gives the help its full height: at 80×24 every line of it still shows.
        let height = min(buffer.size.height, helpLines.count + 4 + states.count)
        let box = centered(width: width, height: height, in: buffer.size)
        buffer.fill(box)
        buffer.drawBox(box, title: "Keys", focused: true, glyphs: model.glyphs)
        let inner = box.inside
        // The blank row above the states is the first to go when the screen is short, then the states, then the
        // closing line moves into the bottom border: the keys stay (at 80×24 every one of them still shows).
        let showsStates = inner.height >= helpLines.count + states.count + 1
        let closesInside = inner.height >= helpLines.count + 1
        for (index, line) in helpLines.prefix(inner.height - (showsStates ? states.count + 1 : closesInside ? 1 : 0)).enumerated() {
            let y = inner.y + index
            buffer.write(" " + line.group, x: inner.x, y: y, style: CellStyle(foreground: .heading, bold: true), clip: inner)
            buffer.write(ascii(line.keys, model.glyphs), x: inner.x + 10, y: y, style: CellStyle(foreground: .accent, bold: true), clip: inner)
            buffer.write(ascii(line.meaning, model.glyphs), x: inner.x + 21, y: y, clip: inner)
        }
        for (row, rowStates) in (showsStates ? states : []).enumerated() {
            let y = inner.maxY - 1 - states.count + row
            var x = inner.x + 1
            for state in rowStates {
                x = buffer.write("\(state.glyph(model.glyphs))", x: x, y: y, style: CellStyle(foreground: state.color, bold: true), clip: inner)
                x = buffer.write(" \(state.words) ", x: x, y: y, clip: inner)
            }
        }
        if closesInside {
            buffer.write(" Any key closes this.", x: inner.x, y: inner.maxY - 1, style: CellStyle(foreground: .muted), clip: inner)
        } else {
            buffer.write(" Any key closes this. ", x: inner.x + 1, y: inner.maxY, style: CellStyle(foreground: .muted), clip: box)
        }
    }

    static func drawConfirmQuit(_ model: TourModel, into buffer: inout CellBuffer) {
        let number = model.runningPage.map { model.pages[$0].page.number } ?? model.currentPage.page.number
        let lines = ["Page \(number) is still running.", "Stop it and quit?  y yes   n no"]
        let box = centered(width: 40, height: lines.count + 4, in: buffer.size)
        buffer.fill(box)
        buffer.drawBox(box, title: "Quit", focused: true, glyphs: model.glyphs)
        for (index, line) in lines.enumerated() {
            buffer.write(line, x: box.x + 3, y: box.y + 2 + index, style: CellStyle(bold: index == 1))
        }
    }

    /// Shown instead of the panes when the terminal is too small for any layout.
    static func drawTooSmall(size: Size, glyphs: Glyphs, askingToQuit: Bool, into buffer: inout CellBuffer) {
        let times = glyphs.times
        var lines = ["Make the terminal at least \(ScreenLayout.minimum.width)\(times)\(ScreenLayout.minimum.height)",
                     "(it is \(size.width)\(times)\(size.height) now; q quits)"]
        if askingToQuit { lines.append("A page is running: y stops it and quits, n stays.") }
        for (index, line) in lines.enumerated() {
            let x = max(0, (size.width - TextWidth.of(line)) / 2)
            let y = max(0, size.height / 2 - 1 + index)
            buffer.write(line, x: x, y: y, style: CellStyle(bold: index == 0))
        }
    }

    static func centered(width: Int, height: Int, in size: Size) -> Rect {
        Rect(x: max(0, (size.width - width) / 2), y: max(0, (size.height - height) / 2), width: width, height: height)
    }

    /// The help's arrows and signs spelled in ASCII when the terminal cannot show them.
    private static func ascii(_ text: String, _ glyphs: Glyphs) -> String {
        guard glyphs == .ascii else { return text }
        return text.replacingOccurrences(of: "→", with: "Rt").replacingOccurrences(of: "←", with: "Lt")
            .replacingOccurrences(of: "↓", with: "Dn").replacingOccurrences(of: "↑", with: "Up")
            .replacingOccurrences(of: "×", with: "x")
    }
}
