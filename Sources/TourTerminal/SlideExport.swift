import Foundation
import Presenting
import TourCore
import TourInterface

/// `tour present --export FOLDER TALK.talk`: backup slides for when the live demo cannot run. The talk's pages as the
/// presenter shows them, one SVG a block revealed (the screen the room sees at 120×40, in the talk's theme), each run
/// of the script as the SVG of its timeline from the pre-flight's rehearsal, placed after the block it was run at,
/// and `index.html`, which shows them in the talk's order.
public enum SlideExport {
    /// The screen the slides are drawn at.
    static let size = Size(width: 120, height: 40)

    /// Writes the slides of `script` into `folder` (made if missing); `runs` are the rehearsal's records, one for
    /// each `run` step, in order. Returns the files written, the index last.
    public static func write(_ script: TalkScript, catalog: PageCatalog, runs: [(TalkPlan.Run, RunRecord)], into folder: URL,
                             theme: ThemeName) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let colors = ColorTheme.extended(theme)
        var model = TourModel.load(catalog, speed: 1, size: size, glyphs: .unicode, pictureDepth: .colors256, exercises: [])
        var written: [URL] = []
        var index: [(heading: String?, file: String, caption: String)] = []
        var remainingRuns = runs[...]
        for visit in visits(of: script, catalog: catalog) {
            let page = catalog.pages[visit.page]
            let source = page.readParsedSource()
            model.startPresenting(order: [visit.page])
            _ = model.update(.sourceReadAhead(page: page, source))
            let blocks = max(1, source.document.presentedBlocks.count)
            let slug = String(format: "%02d-%@", page.number, page.slug)
            var heading: String? = "\(page.number) \(page.title)"
            var runNumber = 0
            for block in 1...blocks {
                model.presenter?.revealed[visit.page] = block
                let name = "\(slug)-block-\(String(format: "%02d", block)).svg"
                try Data(ScreenSVG.document(TourRenderer.render(model), colors: colors, light: theme == .light).utf8)
                    .write(to: folder.appendingPathComponent(name))
                written.append(folder.appendingPathComponent(name))
                index.append((heading, name, "\(page.number) \(page.title), block \(block) of \(blocks)"))
                heading = nil
                // The runs the script made with this many blocks shown (or more than the page has) follow the block.
                for shown in visit.runsAt where min(shown, blocks) == block {
                    guard let (run, record) = remainingRuns.popFirst() else { break }
                    runNumber += 1
                    let file = "\(slug)-run-\(runNumber).svg"
                    let knobs = run.knobSettings.isEmpty ? "default knobs" : run.knobSettings.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
                    do throws(ExportTarget.WriteFailure) {
                        try TimelineSVG.write(record, title: "\(page.number) \(page.title): run \(runNumber), \(knobs)",
                                              to: folder.appendingPathComponent(file).path)
                    } catch {
                        throw ExportFailure(description: error.description)
                    }
                    written.append(folder.appendingPathComponent(file))
                    index.append((nil, file, "run \(runNumber) (\(knobs)): \(record.ending?.headline ?? "no ending")"))
                }
            }
        }
        let html = indexPage(index, talk: folder.lastPathComponent)
        let indexFile = folder.appendingPathComponent("index.html")
        try Data(html.utf8).write(to: indexFile)
        return written + [indexFile]
    }

    /// Each visit of a page in the script, in order: its index, and how many blocks were shown at each of its runs.
    static func visits(of script: TalkScript, catalog: PageCatalog) -> [(page: Int, runsAt: [Int])] {
        var visits: [(page: Int, runsAt: [Int])] = []
        var shown = 1
        for step in script.steps {
            switch step.step {
            case .page(let name):
                guard let page = catalog.page(named: name), let index = catalog.pages.firstIndex(of: page) else { continue }
                visits.append((index, []))
                shown = 1
            case .reveal(.all):
                shown = Int.max
            case .reveal(.blocks(let count)):
                shown = shown == Int.max ? shown : shown + count
            case .run:
                guard !visits.isEmpty else { continue }
                visits[visits.count - 1].runsAt.append(shown)
            default:
                continue
            }
        }
        return visits
    }

    /// The index: the slides one under another, each page under its heading, each slide with what it shows.
    static func indexPage(_ slides: [(heading: String?, file: String, caption: String)], talk: String) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(TimelineSVG.escaped(talk)): backup slides</title>
            <style>body{font-family:Helvetica,Arial,sans-serif;margin:2em;background:#f4f4f4}img{width:100%;max-width:1200px;
            border:1px solid #ccc;background:#fff}figure{margin:0 0 2em 0}figcaption{color:#555}</style></head><body>
            <h1>\(TimelineSVG.escaped(talk)): backup slides</h1>

            """
        for slide in slides {
            if let heading = slide.heading { html += "<h2>\(TimelineSVG.escaped(heading))</h2>\n" }
            html += "<figure><img src=\"\(TimelineSVG.escaped(slide.file))\" alt=\"\(TimelineSVG.escaped(slide.caption))\">"
                + "<figcaption>\(TimelineSVG.escaped(slide.caption))</figcaption></figure>\n"
        }
        return html + "</body></html>\n"
    }
}

/// A slide that could not be written, in words.
public struct ExportFailure: Error, CustomStringConvertible {
    public let description: String
}

/// A screen as an SVG picture: each row's text in a monospace font, each run of cells of one style a `<text>` in its
/// colours, as the terminal would draw it.
enum ScreenSVG {
    static let cellWidth = 9.0
    static let cellHeight = 18.0

    static func document(_ buffer: CellBuffer, colors: ColorTheme, light: Bool) -> String {
        let width = Double(buffer.size.width) * cellWidth, height = Double(buffer.size.height) * cellHeight
        let defaultForeground = light ? "#1c1c1c" : "#e4e4e4", defaultBackground = light ? "#ffffff" : "#121212"
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" \
            font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="15">
            <rect width="100%" height="100%" fill="\(defaultBackground)"/>

            """
        func hex(_ color: PaletteColor?, picture: UInt8?) -> String? {
            if let picture { return xterm(Int(picture)) }
            return colors.index(of: color).map { xterm(Int($0)) }
        }
        for y in 0..<buffer.size.height {
            var x = 0
            while x < buffer.size.width {
                let style = buffer[x, y].style
                var run = ""
                let start = x
                while x < buffer.size.width, buffer[x, y].style == style {
                    let cell = buffer[x, y]
                    if !cell.isContinuation { run.append(cell.character) }
                    x += 1
                }
                var foreground = hex(style.foreground, picture: style.pictureForeground) ?? defaultForeground
                var background = hex(style.background, picture: style.pictureBackground)
                if style.reverse { (foreground, background) = (background ?? defaultBackground, foreground) }
                let left = Double(start) * cellWidth, top = Double(y) * cellHeight
                if let background {
                    svg += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(Double(x - start) * cellWidth)\" height=\"\(cellHeight)\" fill=\"\(background)\"/>\n"
                }
                guard run.contains(where: { $0 != " " }) else { continue }
                let weight = style.bold ? " font-weight=\"bold\"" : ""
                let opacity = style.dim ? " opacity=\"0.6\"" : ""
                let underline = style.underline ? " text-decoration=\"underline\"" : ""
                svg += "<text x=\"\(left)\" y=\"\(top + cellHeight * 0.78)\" fill=\"\(foreground)\"\(weight)\(opacity)\(underline) "
                    + "xml:space=\"preserve\" textLength=\"\(Double(x - start) * cellWidth)\">\(TimelineSVG.escaped(run))</text>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// The sRGB value of an xterm 256-colour index: the 16 system colours, then the cube and the greys as the live
    /// view's pictures reckon them (`HalfBlockRenderer.rgb(ofXterm:)`).
    static func xterm(_ index: Int) -> String {
        let system = ["000000", "800000", "008000", "808000", "000080", "800080", "008080", "c0c0c0",
                      "808080", "ff0000", "00ff00", "ffff00", "0000ff", "ff00ff", "00ffff", "ffffff"]
        if index < 16 { return "#" + system[max(0, index)] }
        let (red, green, blue) = HalfBlockRenderer.rgb(ofXterm: UInt8(min(index, 255)))
        return String(format: "#%02x%02x%02x", red, green, blue)
    }
}
