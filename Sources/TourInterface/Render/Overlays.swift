import Foundation

/// Boxes drawn over the panes: the list of keys, and the question before quitting during a run.
enum Overlays {
    /// Every key and mouse action, grouped, from the key maps the update handles keys by; `?` shows it, any key closes it.
    static func helpLines(_ model: TourModel) -> [(group: String, keys: String, meaning: String)] {
        model.presenter == nil ? TutorialAction.keyMap.helpLines(model) : PresenterAction.keyMap.helpLines(model)
    }

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
        // The meanings start one column after the widest keys, and never before the eleventh column of the keys.
        let keysWidth = max(11, (helpLines.map { TextWidth.of(ascii($0.keys, model.glyphs)) }.max() ?? 0) + 1)
        for (index, line) in helpLines.prefix(inner.height - (showsStates ? states.count + 1 : closesInside ? 1 : 0)).enumerated() {
            let y = inner.y + index
            buffer.write(" " + line.group, x: inner.x, y: y, style: CellStyle(foreground: .heading, bold: true), clip: inner)
            buffer.write(ascii(line.keys, model.glyphs), x: inner.x + 10, y: y, style: CellStyle(foreground: .accent, bold: true), clip: inner)
            buffer.write(ascii(line.meaning, model.glyphs), x: inner.x + 10 + keysWidth, y: y, clip: inner)
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
