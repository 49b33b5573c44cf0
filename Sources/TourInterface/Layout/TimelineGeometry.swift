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
    /// The first lane shown, and how many fit.
    public let firstLane: Int
    public let visibleLanes: Int

    /// `inner` is the pane's box without its border; `now` the clock, for a run still going.
    ///
    /// Lane titles are as wide as the widest lane name. The legend takes the rows it needs that no lane
    /// needs, and at least one, so it never pushes a lane out of view while there is room for it.
    public init(inner: Rect, state: TimelineState, record: RunRecord, now: UInt64, glyphs: Glyphs) {
        let meter = ConcurrencyMeter.rows(forPaneHeight: inner.height)
        meterRow = inner.y
        meterRows = meter
        let laneRows = max(0, inner.height - 3 - meter)
        let wanted = TimelineLegend.rowCount(record, width: inner.width, glyphs: glyphs)
        let legend = min(wanted, max(min(wanted, 1), laneRows - record.threads.count), max(0, laneRows - 1))
        // The meter's titles ("open/3") share the lanes' title column.
        let labelWidth = max(meter > 0 ? 6 : 4, record.threads.map { TextWidth.of($0.name) }.max() ?? 0)
        labels = Rect(x: inner.x, y: inner.y + meter, width: labelWidth, height: laneRows - legend)
        plot = Rect(x: inner.x + labelWidth + 1, y: inner.y + meter, width: inner.width - labelWidth - 1, height: laneRows - legend)
        axisRow = plot.maxY
        tickLabelRow = plot.maxY + 1
        legendRow = plot.maxY + 2
        legendRows = legend
        infoRow = plot.maxY + 2 + legend
        visibleLanes = plot.height
        firstLane = max(0, min(state.laneScroll, record.threads.count - plot.height))
        if let zoom = state.secondsPerColumn {
            secondsPerColumn = zoom
            startSeconds = max(0, state.startSeconds)
        } else {
            secondsPerColumn = Self.fittingExtent(record.seconds(at: record.reachedTime(now: now))) / Double(max(1, plot.width))
            startSeconds = 0
        }
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

    /// The lane drawn on screen row `y`, if any.
    public func lane(atRow y: Int, laneCount: Int) -> Int? {
        guard y >= plot.y, y < plot.maxY else { return nil }
        let lane = firstLane + (y - plot.y)
        return lane < laneCount ? lane : nil
    }

    /// The distance between axis ticks: 1, 2 or 5 times a power of ten, at least ten columns apart.
    public var tickStep: Double {
        let wanted = secondsPerColumn * 10
        var power = 1e-6
        while true {
            for factor in [1.0, 2.0, 5.0] where power * factor >= wanted {
                return power * factor
            }
            power *= 10
        }
    }

    /// "0.5 s", "20 ms", "500 µs": a tick label, as short as the step allows.
    public static func label(seconds: Double, step: Double, glyphs: Glyphs) -> String {
        if seconds == 0 { return "0" }
        if step >= 1 { return formatted(seconds, digits: 0) + " s" }
        if step >= 0.1 { return formatted(seconds, digits: 1) + " s" }
        if step >= 0.001 { return formatted(seconds * 1e3, digits: 0) + " ms" }
        return formatted(seconds * 1e6, digits: 0) + " \(glyphs.micro)s"
    }

    private static func formatted(_ value: Double, digits: Int) -> String {
        let scale = [1.0, 10, 100][digits]
        let rounded = (value * scale).rounded() / scale
        return digits == 0 ? String(Int(rounded)) : String(rounded)
    }
}
