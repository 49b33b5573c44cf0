/// The knob panel: each knob with the value the last run used and the one the next run will get,
/// then what the selected knob does and the values it takes.
enum KnobsView {
    static func draw(_ model: TourModel, in inner: Rect, focused: Bool, into buffer: inout CellBuffer) {
        let page = model.currentPage
        let knobs = page.knobs
        let glyphs = model.glyphs
        guard !knobs.isEmpty else {
            buffer.writeWrapped("This page has no knobs.", in: inner, style: CellStyle(foreground: .muted))
            return
        }
        let selectedIndex = min(page.selectedKnob, knobs.count - 1)
        var y = inner.y
        for (index, knob) in knobs.enumerated() where y < inner.maxY {
            let isSelected = index == selectedIndex
            let marker = isSelected ? "\(glyphs.pointer) " : "  "
            let nameStyle = CellStyle(foreground: isSelected ? .accent : nil, bold: isSelected, reverse: isSelected && focused)
            let value = valueCells(used: knob.value, next: page.nextValue(of: knob), glyphs: glyphs)
            let nameWidth = marker.count + knob.name.count
            buffer.write(marker, x: inner.x, y: y, style: CellStyle(foreground: .accent, bold: true), clip: inner)
            buffer.write(knob.name, x: inner.x + marker.count, y: y, style: nameStyle, clip: inner)
            if nameWidth + 1 + value.count <= inner.width {
                buffer.write(value, x: inner.maxX - value.count, y: y, clip: inner)
            } else if y + 1 < inner.maxY {
                y += 1
                buffer.write(value, x: inner.x + 4, y: y, clip: inner)
            }
            y += 1
        }
        let knob = knobs[selectedIndex]
        y += 1
        let details = Rect(x: inner.x, y: y, width: inner.width, height: inner.maxY - y)
        guard details.height > 0 else { return }
        var about = knob.help.isEmpty ? "" : knob.help.prefix(1).uppercased() + knob.help.dropFirst() + ". "
        about += "Takes \(knob.range(glyphs: glyphs)); default \(knob.defaultValue)."
        let used = buffer.writeWrapped(about, in: details, style: CellStyle(foreground: .muted))
        let hint = Rect(x: inner.x, y: details.y + used + 1, width: inner.width, height: inner.maxY - details.y - used - 1)
        if hint.height > 0 {
            buffer.writeWrapped("[ ] choose  - + change  r runs with the new values", in: hint, style: CellStyle(foreground: .muted, dim: true))
        }
    }

    /// "3", or "3 → 5" when the next run will use another value than the last one did.
    private static func valueCells(used: String, next: String, glyphs: Glyphs) -> [Cell] {
        let current = CellStyle(bold: true)
        guard next != used else { return used.map { Cell($0, current) } }
        return used.map { Cell($0, CellStyle(dim: true)) }
            + " \(glyphs.arrow) ".map { Cell($0, CellStyle(foreground: .muted)) }
            + next.map { Cell($0, CellStyle(foreground: .accent, bold: true, underline: true)) }
    }
}
