import Foundation
import TourCore

/// Times and names as a learner reads them.
enum Formatting {
    /// "1.234 s", "48.2 ms", "250 µs": the same units the pages use for their results.
    static func duration(_ seconds: Double, glyphs: Glyphs) -> String {
        switch abs(seconds) {
        case 1...: String(format: "%.3f s", seconds)
        case 0.001...: String(format: "%.1f ms", seconds * 1e3)
        default: String(format: "%.0f \(glyphs.micro)s", seconds * 1e6)
        }
    }

    /// "12.3 s" for the status line's running clock.
    static func elapsed(_ seconds: Double) -> String {
        String(format: "%.1f s", seconds)
    }

    /// "0.512": when an output line was printed, in seconds from the start of the run.
    static func timestamp(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    /// "main" or "#4242": a thread as output lines name it, matching the end of its lane's title.
    static func threadTag(_ thread: Int32, in record: RunRecord) -> String {
        if let lane = record.lane(for: thread), lane.isMain { return "main" }
        return "#\(thread)"
    }

    /// A lane title cut to `width` from the middle of its queue label, so the `#tid` at its end stays readable.
    static func laneTitle(_ lane: ThreadLane, width: Int, glyphs: Glyphs) -> String {
        let title = lane.title
        guard TextWidth.of(title) > width else { return title }
        let suffix = " #\(lane.thread)"
        let room = width - suffix.count
        guard room > glyphs.ellipsis.count + 2 else { return TextWidth.truncated(title, to: width, ellipsis: glyphs.ellipsis) }
        return TextWidth.truncated(lane.isMain ? "main" : lane.queue, to: room, ellipsis: glyphs.ellipsis) + suffix
    }
}
