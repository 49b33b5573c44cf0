import Foundation
import TourCore

/// Where the timeline pane puts lanes, bars, the axis, the queue legend and the info row, and which stretch of
/// the run it shows: shared by rendering and by the keys and clicks that pan, zoom and select.
public struct TimelineGeometry: Sendable {
    /// The concurrency meter's first row, above the lanes, and how many rows it has (`ConcurrencyMeter`).
    public let meterRow: Int
    public let meterRows: Int
    /// The lane titles' column.
    public let labels: Rect
    /// Where bars are drawn: one row per lane shown.
    public let plot: Rect
    public let axisRow: Int
    public let tickLabelRow: Int
    /// The queue legend's first row, under the tick labels, and how many rows it has.
    public let legendRow: Int
    public let legendRows: Int
    public let infoRow: Int
    /// Seconds from the start of the run at the plot's left edge, and per column.
    public let startSeconds: Double
    public let secondsPerColumn: Double
    /// What ends a cut span label: one column wide, so a short bar keeps as much of its name as it can.
    public let labelEllipsis: String
    /// The lanes of the view, the first lane shown, and how many fit.
    public let lanes: TimelineLanes
    public let firstLane: Int
    public let visibleLanes: Int
    /// The plot row of each lane shown, from `firstLane` on.
    private let laneRows: [Int]

    /// `inner` is the pane's box without its border; `now` the clock, for a run still going.
    ///
    /// Lane titles are as wide as the widest title, up to a quarter of the pane. The concurrency meter takes the top
    /// rows when the pane has room for it. The legend takes the rows it needs that no lane needs, and at least one, so
    /// it never pushes a lane out of view while there is room for it.
    public init(inner: Rect, state: TimelineState, record: RunRecord, lanes: TimelineLanes, now: UInt64, glyphs: Glyphs) {
        self.lanes = lanes
        labelEllipsis = TextWidth.of(glyphs.ellipsis) == 1 ? glyphs.ellipsis : "~"
        let meter = ConcurrencyMeter.rows(forPaneHeight: inner.height)
        meterRow = inner.y
        meterRows = meter
        let laneRows = max(0, inner.height - 3 - meter)
        let wanted = TimelineLegend.rowCount(record, width: inner.width, states: lanes.view == .threads, glyphs: glyphs)
        let needed = lanes.lanes.reduce(0) { $0 + $1.rows }
        let legend = min(wanted, max(min(wanted, 1), laneRows - needed), max(0, laneRows - 1))
        // The queue view puts each queue's swatch before its title; the meter's titles ("open/3") share the column.
        let swatch = lanes.view == .queues ? 2 : 0
        let widest = lanes.lanes.map { TextWidth.of($0.title) }.max() ?? 0
        let labelWidth = max(meter > 0 ? 6 : 4, min(widest + swatch, max(4 + swatch, inner.width / 4)))
        labels = Rect(x: inner.x, y: inner.y + meter, width: labelWidth, height: laneRows - legend)
        plot = Rect(x: inner.x + labelWidth + 1, y: inner.y + meter, width: inner.width - labelWidth - 1, height: laneRows - legend)
        axisRow = plot.maxY
        tickLabelRow = plot.maxY + 1
        legendRow = plot.maxY + 2
        legendRows = legend
        infoRow = plot.maxY + 2 + legend
        (firstLane, self.laneRows) = Self.shownLanes(lanes.lanes.map(\.rows), from: state.laneScroll, rows: plot.height)
        visibleLanes = self.laneRows.count
        (startSeconds, secondsPerColumn) = Self.window(state: state, record: record, now: now, plotWidth: plot.width)
    }

    /// The geometry of a view that lays out rows of its own (operations, tasks): `rows` rows, the first shown being
    /// row `firstRow`, under `labelWidth`-wide titles; the axis and its labels under them, a row for the view's key and
    /// the info row; the zoom, pan and following of the lanes views.
    init(ownRowsIn inner: Rect, labelWidth: Int, rows: Int, firstRow: Int, state: TimelineState, record: RunRecord, now: UInt64,
         glyphs: Glyphs) {
        lanes = TimelineLanes(rowsOf: state.view)
        meterRow = inner.y
        meterRows = 0
        labelEllipsis = TextWidth.of(glyphs.ellipsis) == 1 ? glyphs.ellipsis : "~"
        labels = Rect(x: inner.x, y: inner.y, width: labelWidth, height: rows)
        plot = Rect(x: inner.x + labelWidth + 1, y: inner.y, width: max(1, inner.width - labelWidth - 1), height: rows)
        axisRow = plot.maxY
        tickLabelRow = plot.maxY + 1
        legendRow = plot.maxY + 2
        legendRows = 1
        infoRow = plot.maxY + 3
        firstLane = firstRow
        laneRows = Array(0..<max(0, rows))
        visibleLanes = laneRows.count
        (startSeconds, secondsPerColumn) = Self.window(state: state, record: record, now: now, plotWidth: plot.width)
    }

    /// The stretch of the run shown: the state's zoom and pan, kept on the live edge while following, or the whole run.
    private static func window(state: TimelineState, record: RunRecord, now: UInt64, plotWidth: Int) -> (start: Double, perColumn: Double) {
        guard let zoom = state.secondsPerColumn else {
            return (0, fittingExtent(record.seconds(at: record.reachedTime(now: now))) / Double(max(1, plotWidth)))
        }
        guard state.followsLiveEdge else { return (max(0, state.startSeconds), zoom) }
        // The run's latest moment sits a tenth of the width in from the right edge.
        let edge = record.seconds(at: record.reachedTime(now: now))
        return (max(0, edge - zoom * Double(plotWidth) * 0.9), zoom)
    }

    /// The lanes that fit in `rows` rows from lane `scroll` on, moved up so the last lanes fill the plot: the first
    /// lane shown and the plot row of each lane shown. A lane taller than the plot is cut to it.
    static func shownLanes(_ heights: [Int], from scroll: Int, rows: Int) -> (first: Int, rows: [Int]) {
        guard !heights.isEmpty, rows > 0 else { return (0, []) }
        var first = max(0, min(scroll, heights.count - 1))
        var used = heights[first...].reduce(0, +)
        while first > 0 && used + heights[first - 1] <= rows {
            first -= 1
            used += heights[first]
        }
        var shown: [Int] = []
        var row = 0
        for lane in first..<heights.count where row < rows {
            guard row + heights[lane] <= rows || shown.isEmpty else { break }
            shown.append(row)
            row += heights[lane]
        }
        return (first, shown)
    }

    /// The plot row of lane `lane`'s first row, if it is shown.
    public func row(ofLane lane: Int) -> Int? {
        let offset = lane - firstLane
        return laneRows.indices.contains(offset) ? laneRows[offset] : nil
    }

    /// The rows lane `lane` takes on screen (cut to the plot).
    public func rowCount(ofLane lane: Int) -> Int {
        guard let row = row(ofLane: lane) else { return 0 }
        return min(lanes.lanes[lane].rows, plot.height - row)
    }

    /// The stretch of time a fitted view shows for a run `seconds` long: a round figure a little beyond it.
    ///
    /// Round figures keep the scale still while a run grows, so bars do not shrink a little every frame and
    /// what was drawn stays valid until the run outgrows the figure.
    static func fittingExtent(_ seconds: Double) -> Double {
        let wanted = max(seconds * 1.05, 0.01)
        var power = 0.001
        while true {
            for factor in [1.0, 1.5, 2, 3, 4, 5, 6, 8] where power * factor >= wanted {
                return power * factor
            }
            power *= 10
        }
    }

    /// The plot column of a time in seconds from the start of the run; may fall outside the plot.
    public func column(ofSeconds seconds: Double) -> Int {
        Int(((seconds - startSeconds) / secondsPerColumn).rounded(.down))
    }

    /// The seconds at the left edge of plot column `column`.
    public func seconds(atColumn column: Int) -> Double {
        startSeconds + Double(column) * secondsPerColumn
    }

    /// The lane drawn on screen row `y`, if any, and the row inside it.
    public func lane(atRow y: Int) -> (lane: Int, subRow: Int)? {
        guard y >= plot.y, y < plot.maxY else { return nil }
        let row = y - plot.y
        guard let offset = laneRows.lastIndex(where: { $0 <= row }) else { return nil }
        let lane = firstLane + offset
        let subRow = row - laneRows[offset]
        return subRow < rowCount(ofLane: lane) ? (lane, subRow) : nil
    }

    /// The distance between axis ticks at this zoom.
    public var tickStep: Double { Self.tickStep(secondsPerColumn: secondsPerColumn) }

    /// The distance between axis ticks: 1, 2 or 5 times a power of ten, the smallest at least `columns` columns apart.
    public static func tickStep(secondsPerColumn: Double, columns: Int = 10) -> Double {
        let wanted = max(secondsPerColumn, 1e-9) * Double(columns)
        var power = 1e-6
        while true {
            for factor in [1.0, 2.0, 5.0] where power * factor >= wanted {
                return power * factor
            }
            power *= 10
        }
    }

    /// "0.5 s", "20 ms", "1234 ms": a tick label, in seconds when ticks are a tenth of a second or more apart, else
    /// in milliseconds (or microseconds, below a tenth of one), with the decimals the step needs and no more, so
    /// the labels of one axis share a unit and neighbouring ticks never read alike.
    public static func label(seconds: Double, step: Double, glyphs: Glyphs) -> String {
        if seconds == 0 { return "0" }
        let (scale, unit): (Double, String) = step >= 0.1 ? (1, "s") : step >= 0.000_1 ? (1e3, "ms") : (1e6, "\(glyphs.micro)s")
        let scaledStep = step * scale
        let digits = scaledStep >= 1 ? 0 : Int((-log10(scaledStep) - 1e-9).rounded(.up))
        return formatted(seconds * scale, digits: digits) + " " + unit
    }

    private static func formatted(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
