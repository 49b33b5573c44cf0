import Foundation

/// Draws a run's timeline as an SVG picture for slides and sharing (`tour run <page> --svg FILE`, `S` in the
/// interface): a lane per thread seen, titled as everywhere else ("main", "T3 #4242"), each span a bar in its queue's
/// colour with its name where it fits, each thread's sampled states as a strip under its spans (green running,
/// grey waiting), spans nested in spans a bar lower per level, marks with their names, the lines each thread printed,
/// an axis in milliseconds and a legend of queues. Each queue has a letter of its own (`QueueLabel.key`, as plain
/// mode's timeline and the interface's legend letter them) on its bars and in the legend, so two queues that share a colour still tell apart, in print
/// too. Self-contained: no scripts, no fonts to fetch, so it opens the same in a browser, an image viewer or a slide
/// deck, and every word is drawn, not left to a hover that a PNG never shows.
public enum TimelineSVG {
    /// The queue colours, in the order queues were seen: the interface's 256-colour palette (xterm 68, 114, 179,
    /// 141, 209, 80), so a picture matches the screen, then six more; past twelve queues they repeat, and the letters
    /// tell them apart.
    static let queueColors = ["#5f87d7", "#87d787", "#d7af5f", "#af87ff", "#ff875f", "#5fd7d7",
                              "#d7d75f", "#ff87af", "#87afaf", "#afaf87", "#87afff", "#d787d7"]
    static let markColor = "#d75fd7"
    static let outputColor = "#555555"
    static let runningColor = "#2e9e44"
    static let waitingColor = "#c8c8c8"

    static let width = 1200.0
    static let labelWidth = 150.0
    static let rightMargin = 20.0
    static let top = 56.0
    static let laneHeight = 30.0
    static let barHeight = 18.0
    static let stripHeight = 5.0
    /// How far down a span nested in another is drawn, per level, and the deepest level with a row of its own.
    static let nestedStep = barHeight + 2
    static let maximumNesting = ThreadLane.maximumNestingRows - 1
    /// About the advance of one character of the 11-pixel sans-serif the labels use, and of the 8-pixel one of the
    /// marks' and printed lines' labels.
    static let characterWidth = 6.4
    static let smallCharacterWidth = 4.7

    public static func document(for record: RunRecord, title: String) -> String {
        let origin = record.startTime ?? 0
        let end = max(record.endTime ?? lastTime(in: record), origin + 1_000_000)
        let plotWidth = width - labelWidth - rightMargin
        let seconds = Double(end - origin) / 1e9
        func x(_ time: UInt64) -> Double {
            labelWidth + Double(Int64(bitPattern: max(time, origin) &- origin)) / 1e9 / seconds * plotWidth
        }
        // A lane is one bar high, and a bar higher per level of spans nested inside spans, as in the thread view.
        let nestingRows = record.threads.map { min($0.deepestNesting, maximumNesting) }
        var laneTops: [Double] = []
        var nextTop = top
        for rows in nestingRows {
            laneTops.append(nextTop)
            nextTop += laneHeight + Double(rows) * nestedStep
        }
        let lanesBottom = nextTop
        let legendRows = (record.queues.count + 2) / 3
        let height = lanesBottom + 40 + Double(legendRows) * 20 + 16

        var svg = SVGText()
        svg.line(##"<?xml version="1.0" encoding="UTF-8"?>"##)
        svg.line(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(format(width))" height="\##(format(height))" "##
                 + ##"viewBox="0 0 \##(format(width)) \##(format(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">"##)
        svg.line(##"<rect width="100%" height="100%" fill="#ffffff"/>"##)
        let ending = record.ending.map { " · \($0.headline)" } ?? ""
        svg.line(##"<text x="16" y="28" font-size="18" font-weight="bold" fill="#222222">\##(escaped(title))</text>"##)
        svg.line(##"<text x="16" y="46" fill="#666666">\##(escaped("\(record.threads.count) threads, \(milliseconds(seconds)) ms\(ending)"))</text>"##)

        let spansByThread = Dictionary(grouping: record.spans + record.openSpans.values.sorted { $0.id < $1.id }, by: \.thread)
        let marksByThread = Dictionary(grouping: record.marks, by: \.thread)
        let outputByThread = Dictionary(grouping: record.output.filter { $0.thread != nil }, by: { $0.thread! })
        for (index, lane) in record.threads.enumerated() {
            let y = laneTops[index]
            let nested = Double(nestingRows[index]) * nestedStep
            svg.line(##"<g class="lane" data-thread="\##(lane.thread)">"##)
            if index % 2 == 0 {
                svg.line(##"<rect x="0" y="\##(format(y))" width="\##(format(width))" height="\##(format(laneHeight + nested))" fill="#f5f5f7"/>"##)
            }
            svg.line(##"<text x="16" y="\##(format(y + 15))" fill="#222222">\##(escaped("\(lane.name) #\(lane.thread)"))</text>"##)
            for stretch in record.threadStates[lane.thread] ?? [] {
                let left = x(stretch.start), right = max(x(stretch.end), left + 0.5)
                let color = stretch.state == .running ? runningColor : waitingColor
                svg.line(##"<rect class="state" x="\##(format(left))" y="\##(format(y + 4 + nested + barHeight + 1))" width="\##(format(right - left))" "##
                         + ##"height="\##(format(stripHeight))" fill="\##(color)"><title>\##(stretch.state == .running ? "running" : "waiting")</title></rect>"##)
            }
            for span in spansByThread[lane.thread] ?? [] {
                let left = x(span.start), right = max(x(span.end ?? end), left + 1)
                let y = y + Double(min(span.depth, maximumNesting)) * nestedStep
                let queue = record.queueNumber(of: span.queue) ?? 0
                let color = queueColors[queue % queueColors.count]
                let lasting = milliseconds(Double((span.end ?? end) &- span.start) / 1e9)
                let hover = "\(span.name) · \(lasting) ms · \(QueueLabel.shown(span.queue))"
                // Bars are a little shorter than their time, so two spans that follow each other stay apart.
                svg.line(##"<rect class="span" x="\##(format(left))" y="\##(format(y + 4))" width="\##(format(max(1, right - left - 1)))" "##
                         + ##"height="\##(format(barHeight))" rx="2" fill="\##(color)"><title>\##(escaped(hover))</title></rect>"##)
                // The queue's letter first, then the name, as far as the bar holds them.
                if let label = fitted("\(QueueLabel.key(queue)) \(span.name)", into: right - left - 6) {
                    svg.line(##"<text class="span-label" x="\##(format(left + 3))" y="\##(format(y + 17))" fill="#111111">\##(escaped(label))</text>"##)
                }
            }
            for mark in marksByThread[lane.thread] ?? [] {
                // On the bar's top edge, above the name, so a mark never covers the letters of a span's name; its own
                // name beside it, small, in the mark's colour.
                let center = x(mark.time)
                svg.line(##"<path class="mark" d="M\##(format(center)) \##(format(y - 2)) l4 5 l-4 5 l-4 -5 z" fill="\##(markColor)" "##
                         + ##"stroke="#ffffff" stroke-width="0.8"><title>\##(escaped(mark.name))</title></path>"##)
                if let label = fitted(mark.name, into: min(180, width - rightMargin - center - 6), characterWidth: smallCharacterWidth) {
                    svg.line(##"<text class="mark-label" x="\##(format(center + 5))" y="\##(format(y + 2))" font-size="8" fill="\##(markColor)">"##
                             + ##"\##(escaped(label))</text>"##)
                }
            }
            for line in outputByThread[lane.thread] ?? [] {
                // A printed line: a small grey tick at the lane's foot, with the start of its text.
                let at = x(line.time)
                let foot = y + laneHeight + nested - 3
                svg.line(##"<path class="output" d="M\##(format(at)) \##(format(foot)) l3 -4 l-6 0 z" fill="\##(outputColor)">"##
                         + ##"<title>\##(escaped(line.text))</title></path>"##)
                if let label = fitted(line.text, into: min(180, width - rightMargin - at - 6), characterWidth: smallCharacterWidth) {
                    svg.line(##"<text class="output-label" x="\##(format(at + 4))" y="\##(format(foot))" font-size="8" fill="\##(outputColor)">"##
                             + ##"\##(escaped(label))</text>"##)
                }
            }
            svg.line("</g>")
        }

        drawAxis(into: &svg, seconds: seconds, plotWidth: plotWidth, y: lanesBottom)
        drawLegend(record, into: &svg, y: lanesBottom + 40)
        svg.line("</svg>")
        return svg.text
    }

    /// Writes the picture to `path`, replacing a regular file there and nothing else (`ExportTarget`).
    public static func write(_ record: RunRecord, title: String, to path: String) throws(ExportTarget.WriteFailure) {
        try ExportTarget.write(Data(document(for: record, title: title).utf8), to: path, option: "--svg",
                               example: "timeline.svg", noun: "picture")
    }

    /// What is wrong with `path` as the file `--svg` writes, or nil when it can be written.
    public static func problem(withTarget path: String) -> String? {
        ExportTarget.problem(withTarget: path, option: "--svg", example: "timeline.svg", noun: "picture")
    }

    /// A rule under the lanes with a tick every 1, 2 or 5 units of milliseconds, about a tenth of the plot apart.
    private static func drawAxis(into svg: inout SVGText, seconds: Double, plotWidth: Double, y: Double) {
        svg.line(##"<g class="axis" stroke="#888888">"##)
        svg.line(##"<line x1="\##(format(labelWidth))" y1="\##(format(y + 4))" x2="\##(format(labelWidth + plotWidth))" y2="\##(format(y + 4))"/>"##)
        let step = tickStep(seconds / 10)
        var tick = 0.0
        while tick <= seconds + step * 1e-9 {
            let tickX = labelWidth + tick / seconds * plotWidth
            svg.line(##"<line x1="\##(format(tickX))" y1="\##(format(y + 4))" x2="\##(format(tickX))" y2="\##(format(y + 9))"/>"##)
            svg.line(##"<text x="\##(format(tickX))" y="\##(format(y + 22))" text-anchor="middle" stroke="none" fill="#555555">"##
                     + "\(milliseconds(tick)) ms</text>")
            tick += step
        }
        svg.line("</g>")
    }

    /// A swatch and label per queue, three to a row, and what the two strip colours mean.
    private static func drawLegend(_ record: RunRecord, into svg: inout SVGText, y: Double) {
        svg.line(##"<g class="legend">"##)
        for (index, queue) in record.queues.enumerated() {
            let left = 16 + Double(index % 3) * 300, top = y + Double(index / 3) * 20
            svg.line(##"<rect x="\##(format(left))" y="\##(format(top - 10))" width="14" height="12" rx="2" fill="\##(queueColors[index % queueColors.count])"/>"##)
            svg.line(##"<text class="legend-queue" x="\##(format(left + 20))" y="\##(format(top))" fill="#222222">"##
                     + ##"\##(escaped(fitted("\(QueueLabel.key(index)) \(QueueLabel.shown(queue))", into: 270) ?? ""))</text>"##)
        }
        let left = 16 + 3 * 300.0
        svg.line(##"<rect x="\##(format(left))" y="\##(format(y - 7))" width="14" height="\##(format(stripHeight))" fill="\##(runningColor)"/>"##)
        svg.line(##"<text x="\##(format(left + 20))" y="\##(format(y))" fill="#222222">running</text>"##)
        svg.line(##"<rect x="\##(format(left + 80))" y="\##(format(y - 7))" width="14" height="\##(format(stripHeight))" fill="\##(waitingColor)"/>"##)
        svg.line(##"<text x="\##(format(left + 100))" y="\##(format(y))" fill="#222222">waiting</text>"##)
        svg.line("</g>")
    }

    /// The name as it fits `room` pixels: whole, or cut with "…" keeping at least three characters; nil when not even that fits.
    static func fitted(_ name: String, into room: Double, characterWidth: Double = characterWidth) -> String? {
        let fits = Int(max(0, room) / characterWidth)
        if name.count <= fits { return name }
        guard fits >= 4 else { return nil }
        return String(name.prefix(fits - 1)) + "…"
    }

    /// 1, 2 or 5 times a power of ten, at least `wanted` seconds.
    static func tickStep(_ wanted: Double) -> Double {
        var power = 1e-6
        while true {
            for factor in [1.0, 2.0, 5.0] where power * factor >= wanted { return power * factor }
            power *= 10
        }
    }

    /// Text for XML: the five special characters as entities, and the control characters XML 1.0 cannot hold
    /// (a page may name a span anything) left out.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += " "
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                break
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Milliseconds as the axis and a hover show them: whole from 10 ms, else with one decimal.
    static func milliseconds(_ seconds: Double) -> String {
        let milliseconds = seconds * 1e3
        return milliseconds >= 10 || milliseconds == 0 ? String(Int(milliseconds.rounded())) : String(format: "%.1f", milliseconds)
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// The latest time the record holds, for a run that has not ended.
    private static func lastTime(in record: RunRecord) -> UInt64 {
        let spanEnds = record.spans.compactMap(\.end).max() ?? 0
        let starts = record.openSpans.values.map(\.start).max() ?? 0
        return max(spanEnds, starts, record.marks.last?.time ?? 0, record.startTime ?? 0)
    }
}

/// An SVG document as it is written, a line at a time.
struct SVGText {
    private(set) var text = ""
    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }
}
