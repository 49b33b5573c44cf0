import TourCore

/// Where the timeline pane puts lanes, bars and the axis, and which stretch of the run it shows:
/// shared by rendering and by the keys and clicks that pan, zoom and select.
public struct TimelineGeometry: Sendable {
    /// The lane titles' column.
    public let labels: Rect
    /// Where bars are drawn: one row per lane shown.
    public let plot: Rect
    public let axisRow: Int
    public let tickLabelRow: Int
    public let infoRow: Int
    /// Seconds from the start of the run at the plot's left edge, and per column.
    public let startSeconds: Double
    public let secondsPerColumn: Double
    /// The first lane shown, and how many fit.
    public let firstLane: Int
    public let visibleLanes: Int

    /// `inner` is the pane's box without its border; `seconds` how far the run has got.
    public init(inner: Rect, state: TimelineState, laneCount: Int, seconds: Double) {
        let labelWidth = min(24, max(8, inner.width / 4))
        labels = Rect(x: inner.x, y: inner.y, width: labelWidth, height: max(0, inner.height - 3))
        plot = Rect(x: inner.x + labelWidth + 1, y: inner.y, width: inner.width - labelWidth - 1, height: max(0, inner.height - 3))
        axisRow = plot.maxY
        tickLabelRow = plot.maxY + 1
        infoRow = plot.maxY + 2
        visibleLanes = plot.height
        firstLane = max(0, min(state.laneScroll, laneCount - plot.height))
        if let zoom = state.secondsPerColumn {
            secondsPerColumn = zoom
            startSeconds = max(0, state.startSeconds)
        } else {
            secondsPerColumn = Self.fittingExtent(seconds) / Double(max(1, plot.width))
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
